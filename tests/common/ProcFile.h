// Reading /proc/<pid>/... of processes that may exit at any moment (tests scan the host's
// processes). std::istreambuf_iterator on an ifstream is not safe for that: when the process
// goes away mid-read, read(2) fails with ESRCH and libstdc++'s filebuf throws out of the
// iterator ("basic_filebuf::underflow error reading the file: No such process"), failing the
// test with an unexpected exception. This returns what could be read, "" when nothing.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace gltest {

inline std::string readProcFile(const std::string& path) {
  std::string data;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return data;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return data;
}

}  // namespace gltest
