// run(): Execution::start() driven by poll() on the calling thread.
#include <poll.h>

#include <cerrno>
#include <vector>

#include "sandbox/Sandbox.h"

namespace greenlight::sandbox {

Verdict run(const Policy& policy, int cancelFd) {
  auto execution = Execution::start(policy);
  std::vector<pollfd> fds;
  bool cancelled = false;
  while (!execution->step()) {
    fds.clear();
    for (int fd : execution->watchFds()) fds.push_back({fd, POLLIN, 0});
    if (cancelFd >= 0 && !cancelled) fds.push_back({cancelFd, POLLIN, 0});
    int timeout = execution->msUntilDeadline();
    int r = ::poll(fds.data(), fds.size(), timeout);
    if (r < 0 && errno != EINTR) break;
    if (cancelFd >= 0 && !cancelled && r > 0 && (fds.back().revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      cancelled = true;
      execution->kill();
    }
  }
  return execution->verdict();
}

}  // namespace greenlight::sandbox
