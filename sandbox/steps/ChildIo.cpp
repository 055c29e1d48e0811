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

int writeWholeFile(const char* path, const char* data, std::size_t size, int mode) {
  int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return errno;
  std::size_t off = 0;
  while (off < size) {
    ssize_t n = ::write(fd, data + off, size - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      return e;
    }
    off += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return 0;
}

}  // namespace greenlight::sandbox::detail
