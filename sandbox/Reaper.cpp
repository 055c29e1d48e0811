#include "sandbox/Reaper.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <mutex>

namespace greenlight::sandbox::detail {
namespace {

constexpr std::size_t kMaxPending = 32;

std::mutex gMutex;
std::deque<int>& pending() {
  static auto* fds = new std::deque<int>;  // never destroyed: used until the process ends
  return *fds;
}

// True once the process behind `pidfd` is reaped (or cannot be waited for at all).
bool reap(int pidfd, bool block) {
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  int r;
  do {
    r = ::waitid(P_PIDFD, static_cast<id_t>(pidfd), &info, WEXITED | (block ? 0 : WNOHANG));
  } while (r != 0 && errno == EINTR);
  return r != 0 || info.si_pid != 0;
}

}  // namespace

void reapLater(int pidfd) {
  if (pidfd < 0) return;
  std::lock_guard<std::mutex> lock(gMutex);
  pending().push_back(pidfd);
}

void reapFinished() {
  std::lock_guard<std::mutex> lock(gMutex);
  auto& fds = pending();
  for (auto it = fds.begin(); it != fds.end();) {
    if (reap(*it, false)) {
      ::close(*it);
      it = fds.erase(it);
    } else {
      ++it;
    }
  }
  while (fds.size() > kMaxPending) {
    reap(fds.front(), true);
    ::close(fds.front());
    fds.pop_front();
  }
}

}  // namespace greenlight::sandbox::detail
