// Step: seccomp, loaded last. The BPF was compiled by libseccomp in the parent, once per
// profile (SeccompProfiles.cpp); here it is only installed, with a user-notification listener
// whose fd goes to the parent over the status socket: a refused call blocks its caller, the
// parent reads the syscall number, names it in the verdict and kills the tree.
#include <linux/seccomp.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {

namespace {

constexpr unsigned kMaxInstructions = 4096;  // BPF_MAXINSNS

bool readExactly(int fd, void* buf, std::size_t size) {
  auto* p = static_cast<char*>(buf);
  while (size > 0) {
    ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool loadSeccomp(const LaunchPlan& plan) {
  const sock_fprog* program = plan.seccomp;
  sock_filter code[kMaxInstructions];
  sock_fprog received{};
  if (program == nullptr) {
    std::uint32_t length = 0;
    errno = 0;
    if (plan.seccompPipe < 0 || !readExactly(plan.seccompPipe, &length, sizeof length) || length == 0 ||
        length > kMaxInstructions || !readExactly(plan.seccompPipe, code, length * sizeof(sock_filter))) {
      reportFailure(plan.statusFd, "seccomp", "read", "compiled filter from the supervisor", errno != 0 ? errno : EIO);
      return false;
    }
    ::close(plan.seccompPipe);
    received.len = static_cast<unsigned short>(length);
    received.filter = code;
    program = &received;
  }
  int listener = static_cast<int>(::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                                            SECCOMP_FILTER_FLAG_NEW_LISTENER, program));
  if (listener < 0) {
    reportFailure(plan.statusFd, "seccomp", "seccomp", "SECCOMP_SET_MODE_FILTER", errno);
    return false;
  }
  ChildMessage m;
  std::memset(&m, 0, sizeof m);
  m.kind = MessageKind::Listener;
  long sent = sendWithFds(plan.statusFd, &m, sizeof m, &listener, 1);
  int err = errno;
  ::close(listener);
  if (sent < 0) {
    reportFailure(plan.statusFd, "seccomp", "sendmsg", "listener", err);
    return false;
  }
  return true;
}

}  // namespace greenlight::sandbox::detail
