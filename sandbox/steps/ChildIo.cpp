#include "sandbox/steps/ChildIo.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace greenlight::sandbox::detail {

void appendStr(char* dst, std::size_t cap, const char* src) {
  if (cap == 0 || src == nullptr) return;
  std::size_t len = 0;
  while (len < cap - 1 && dst[len] != '\0') ++len;
  while (len < cap - 1 && *src != '\0') dst[len++] = *src++;
  dst[len] = '\0';
}

void sendMessage(int statusFd, const ChildMessage& message) {
  // MSG_NOSIGNAL: a vanished parent must not turn into a SIGPIPE death with a misleading cause.
  while (::send(statusFd, &message, sizeof message, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

void reportFailure(int statusFd, const char* step, const char* call, const char* path, int err) {
  ChildMessage m;
  std::memset(&m, 0, sizeof m);
  m.kind = MessageKind::SetupError;
  m.err = err;
  appendStr(m.step, sizeof m.step, step);
  appendStr(m.detail, sizeof m.detail, call);
  if (path != nullptr && path[0] != '\0') {
    appendStr(m.detail, sizeof m.detail, "(");
    appendStr(m.detail, sizeof m.detail, path);
    appendStr(m.detail, sizeof m.detail, ")");
  }
  sendMessage(statusFd, m);
}

long sendWithFds(int sock, const void* data, std::size_t size, const int* fds, std::size_t fdCount) {
  if (fdCount > 2) fdCount = 2;
  iovec iov{const_cast<void*>(data), size};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))];
  std::memset(control, 0, sizeof control);
  msghdr msg;
  std::memset(&msg, 0, sizeof msg);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (fdCount > 0) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(fdCount * sizeof(int));
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(fdCount * sizeof(int));
    std::memcpy(CMSG_DATA(c), fds, fdCount * sizeof(int));
  }
  ssize_t sent;
  do {
    sent = ::sendmsg(sock, &msg, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent;
}

long recvWithFds(int sock, void* data, std::size_t size, int* fds, std::size_t* fdCount, int flags) {
  *fdCount = 0;
  iovec iov{data, size};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))];
  msghdr msg;
  std::memset(&msg, 0, sizeof msg);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do {
    n = ::recvmsg(sock, &msg, flags | MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return n;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count && *fdCount < 2; ++i)
      std::memcpy(&fds[(*fdCount)++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
  }
  return n;
}

int writeAllFd(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

int writeWholeFile(const char* path, const char* data, std::size_t size, int mode) {
  int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return errno;
  int err = writeAllFd(fd, data, size);
  ::close(fd);
  return err;
}

}  // namespace greenlight::sandbox::detail
