#include "sandbox/steps/SeedCopy.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace greenlight::sandbox::detail {
namespace {

constexpr int kMaxDepth = 48;

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

int copyFile(int srcDir, int dstDir, const char* name, const struct stat& st) {
  int in = ::openat(srcDir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (in < 0) return errno;
  int out = ::openat(dstDir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 0777);
  if (out < 0) {
    int e = errno;
    ::close(in);
    return e;
  }
  int result = 0;
  off_t remaining = st.st_size;
  while (remaining > 0) {
    ssize_t n = ::sendfile(out, in, nullptr, static_cast<size_t>(remaining));
    if (n < 0) {
      if (errno == EINTR) continue;
      result = errno;
      break;
    }
    if (n == 0) break;  // the file shrank meanwhile
    remaining -= n;
  }
  ::close(in);
  ::close(out);
  return result;
}

int copyDir(int srcDir, int dstDir, int depth, bool chown, uid_t uid, gid_t gid) {
  if (depth > kMaxDepth) return ELOOP;
  alignas(8) char buf[4096];
  for (;;) {
    long n = ::syscall(SYS_getdents64, srcDir, buf, sizeof buf);
    if (n < 0) return errno;
    if (n == 0) return 0;
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
      off += d->d_reclen;
      const char* name = d->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
      struct stat st;
      if (::fstatat(srcDir, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno;
      int err = 0;
      if (S_ISDIR(st.st_mode)) {
        if (::mkdirat(dstDir, name, (st.st_mode & 0777) | 0700) != 0) return errno;
        int s = ::openat(srcDir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (s < 0) return errno;
        int t = ::openat(dstDir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (t < 0) {
          err = errno;
          ::close(s);
          return err;
        }
        err = copyDir(s, t, depth + 1, chown, uid, gid);
        ::close(s);
        ::close(t);
      } else if (S_ISREG(st.st_mode)) {
        err = copyFile(srcDir, dstDir, name, st);
      } else if (S_ISLNK(st.st_mode)) {
        char target[4096];
        ssize_t len = ::readlinkat(srcDir, name, target, sizeof target - 1);
        if (len < 0) return errno;
        target[len] = '\0';
        if (::symlinkat(target, dstDir, name) != 0) return errno;
      } else {
        continue;
      }
      if (err != 0) return err;
      if (chown && ::fchownat(dstDir, name, uid, gid, AT_SYMLINK_NOFOLLOW) != 0) return errno;
    }
  }
}

}  // namespace

int seedCopy(const char* source, const char* target, bool chown, uid_t uid, gid_t gid) {
  int s = ::open(source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (s < 0) return errno;
  int t = ::open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (t < 0) {
    int e = errno;
    ::close(s);
    return e;
  }
  int err = copyDir(s, t, 0, chown, uid, gid);
  ::close(s);
  ::close(t);
  return err;
}

}  // namespace greenlight::sandbox::detail
