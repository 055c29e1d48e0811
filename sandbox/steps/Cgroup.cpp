// Step: cgroup. With a writable, delegated cgroup v2 subtree the parent would create a child
// cgroup per run and write memory.max, pids.max, cpu.max, read memory.events (to tell an OOM
// kill apart) and use cgroup.kill. The probe below looks for one; where none exists (the usual
// case for a process that was not started by systemd with Delegate=yes, and the case on this
// build machine) the rlimits of Rlimits.cpp are the only resource limits and the verdict says
// "cgroup": false. Nothing runs in the child for this step.
#include "sandbox/Probe.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace greenlight::sandbox::detail {

bool probeDelegatedCgroup() {
  // Our own cgroup (v2 unified line "0::/path").
  int fd = ::open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[512];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* line = std::strstr(buf, "0::");
  if (line == nullptr) return false;
  std::string path(line + 3);
  path = path.substr(0, path.find('\n'));
  std::string dir = "/sys/fs/cgroup" + path;
  // Delegated means: we may create a child and the controllers we need are enabled for it.
  std::string controllers = dir + "/cgroup.subtree_control";
  int cfd = ::open(controllers.c_str(), O_RDONLY | O_CLOEXEC);
  if (cfd < 0) return false;
  n = ::read(cfd, buf, sizeof buf - 1);
  ::close(cfd);
  if (n <= 0) return false;
  buf[n] = '\0';
  bool hasMemory = std::strstr(buf, "memory") != nullptr, hasPids = std::strstr(buf, "pids") != nullptr;
  return hasMemory && hasPids && ::access(dir.c_str(), W_OK) == 0;
}

}  // namespace greenlight::sandbox::detail
