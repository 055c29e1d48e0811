#include "cli/Interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace greenlight::cli {
namespace {

int signalPipe[2] = {-1, -1};

extern "C" void onSignal(int) {
  int saved = errno;
  char c = 1;
  [[maybe_unused]] ssize_t n = ::write(signalPipe[1], &c, 1);
  errno = saved;
}

}  // namespace

Interrupts::Interrupts() {
  if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    error_ = std::string("pipe2: ") + std::strerror(errno);
    signalPipe[0] = signalPipe[1] = -1;
    return;
  }
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C terminates at once
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

Interrupts::~Interrupts() {
  if (signalPipe[0] < 0) return;
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::close(signalPipe[0]);
  ::close(signalPipe[1]);
  signalPipe[0] = signalPipe[1] = -1;
}

int Interrupts::fd() const { return signalPipe[0]; }

bool waitUnlessInterrupted(int doneFd, const Interrupts& interrupts, void (*onInterrupt)(void*), void* context) {
  bool interrupted = false;
  for (;;) {
    pollfd fds[2] = {{doneFd, POLLIN, 0}, {interrupts.fd(), POLLIN, 0}};
    int n = ::poll(fds, interrupts.ok() ? 2 : 1, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return interrupted;
    if (fds[0].revents) return interrupted;
    if (interrupts.ok() && fds[1].revents && !interrupted) {
      interrupted = true;
      char buf[16];
      while (::read(interrupts.fd(), buf, sizeof buf) > 0) {
      }
      if (onInterrupt) onInterrupt(context);
    }
  }
}

}  // namespace greenlight::cli
