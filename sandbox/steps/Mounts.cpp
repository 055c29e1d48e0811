// Step: filesystem. A new root on tmpfs holding only what the plan lists (system binds
// read-only/nosuid/nodev, a minimal /etc written from cached contents, /dev with four device
// binds, fresh /proc, size-capped tmpfs /tmp and /work, the seed copy, user binds), then
// pivot_root, the old root detached, and the new root itself made read-only. Files new to a
// read-only bind (an unsaved test file of a project) appear through a read-only overlayfs over
// their directory whose first lower layer is a staging tmpfs, detached once mounted.
//
// Bind sources are resolved under the old root (kOldRoot) after pivot_root, so a host path
// under /tmp is still reachable although the new root's tmpfs was mounted over /tmp.
#include <fcntl.h>
#include <linux/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

// <sys/mount.h> and <linux/mount.h> clash; declare the two mount(2) entry points we need.
extern "C" int mount(const char* source, const char* target, const char* fstype, unsigned long flags,
                     const void* data) noexcept;
extern "C" int umount2(const char* target, int flags) noexcept;

#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/SeedCopy.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {
namespace {

constexpr const char* kStep = "mounts";
constexpr unsigned long kMsRdonly = 1, kMsBind = 4096, kMsRec = 16384, kMsPrivate = 1 << 18, kMsNosuid = 2,
                        kMsNodev = 4, kMsNoexec = 8;

int setAttr(const char* path, unsigned int flags, std::uint64_t set) {
  mount_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.attr_set = set;
  return static_cast<int>(::syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &attr, sizeof attr));
}

bool fail(const LaunchPlan& plan, const char* call, const char* path) {
  reportFailure(plan.statusFd, kStep, call, path, errno);
  return false;
}

bool applyOp(const LaunchPlan& plan, const MountOp& op) {
  const char* target = op.target.c_str();
  switch (op.kind) {
    case MountKind::Dir:
      if (::mkdir(target, op.mode) != 0 && errno != EEXIST) return fail(plan, "mkdir", target);
      return true;
    case MountKind::WriteFile: {
      int err = writeWholeFile(target, op.data.data(), op.data.size(), static_cast<int>(op.mode));
      if (err != 0) {
        errno = err;
        return fail(plan, "write", target);
      }
      return true;
    }
    case MountKind::Symlink:
      if (::symlink(op.data.c_str(), target) != 0 && errno != EEXIST) return fail(plan, "symlink", target);
      return true;
    case MountKind::Tmpfs:
      if (::mount("tmpfs", target, "tmpfs", kMsNosuid | kMsNodev, op.data.c_str()) != 0)
        return fail(plan, "mount tmpfs", target);
      return true;
    case MountKind::Proc:
      if (::mount("proc", target, "proc", kMsNosuid | kMsNodev | kMsNoexec, nullptr) != 0)
        return fail(plan, "mount proc", target);
      return true;
    case MountKind::Seed: {
      int err = seedCopy(op.source.c_str(), target, plan.chownSeed, plan.hostUid, plan.hostGid);
      if (err != 0) {
        errno = err;
        return fail(plan, "copy", op.source.c_str() + std::strlen(kOldRoot));
      }
      return true;
    }
    case MountKind::Seal:
      if (setAttr(target, 0, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV) != 0)
        return fail(plan, "mount_setattr", target);
      return true;
    case MountKind::Overlay:
      // Only lower layers: the overlay is read-only by construction; MS_RDONLY says so too.
      if (::mount("overlay", target, "overlay", kMsRdonly | kMsNosuid | kMsNodev, op.data.c_str()) != 0)
        return fail(plan, "mount overlay", target);
      return true;
    case MountKind::Detach:
      // The overlays hold private clones of their layers: the staging tmpfs can go, leaving no
      // trace in the new root.
      if (::umount2(target, 2 /* MNT_DETACH */) != 0) return fail(plan, "umount2", target);
      if (::rmdir(target) != 0) return fail(plan, "rmdir", target);
      return true;
    case MountKind::Bind: {
      if (op.isDir) {
        if (::mkdir(target, 0755) != 0 && errno != EEXIST) return fail(plan, "mkdir", target);
      } else {
        // A file already there (inside a read-only bind: an overlay over a project's file) is
        // its own mount point; only a missing one is created.
        struct stat st;
        if (::lstat(target, &st) != 0) {
          int fd = ::open(target, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
          if (fd < 0 && errno != EEXIST) return fail(plan, "create", target);
          if (fd >= 0) ::close(fd);
        }
      }
      if (::mount(op.source.c_str(), target, nullptr, kMsBind | kMsRec, nullptr) != 0)
        return fail(plan, "mount bind", op.source.c_str() + std::strlen(kOldRoot));
      std::uint64_t attrs = MOUNT_ATTR_NOSUID | (op.device ? MOUNT_ATTR_NOEXEC : MOUNT_ATTR_NODEV);
      if (!op.writable) attrs |= MOUNT_ATTR_RDONLY;
      if (setAttr(target, AT_RECURSIVE, attrs) != 0) return fail(plan, "mount_setattr", target);
      return true;
    }
  }
  return true;
}

}  // namespace

bool mountFilesystem(const LaunchPlan& plan) {
  if (plan.mode == Mode::NoNamespaces) return true;
  if (::mount(nullptr, "/", nullptr, kMsRec | kMsPrivate, nullptr) != 0) {
    if (plan.mode == Mode::UserNs && errno == EPERM) {
      // The namespace was created but grants no capability (AppArmor's restriction on
      // unprivileged user namespaces): let the parent fall back to the degraded layers.
      ChildMessage m;
      std::memset(&m, 0, sizeof m);
      m.kind = MessageKind::UserNsUseless;
      m.err = errno;
      sendMessage(plan.statusFd, m);
      ::_exit(125);
    }
    return fail(plan, "mount", "/ (MS_PRIVATE)");
  }
  if (::mount("tmpfs", kNewRootBase, "tmpfs", kMsNosuid | kMsNodev, plan.newRootOptions.c_str()) != 0)
    return fail(plan, "mount tmpfs", "new root");
  if (::chdir(kNewRootBase) != 0) return fail(plan, "chdir", kNewRootBase);
  if (::mkdir(kOldRoot + 1, 0700) != 0) return fail(plan, "mkdir", kOldRoot);
  if (::syscall(SYS_pivot_root, ".", kOldRoot + 1) != 0) return fail(plan, "pivot_root", kNewRootBase);
  if (::chdir("/") != 0) return fail(plan, "chdir", "/");

  for (const MountOp& op : plan.mounts) {
    if (!applyOp(plan, op)) return false;
  }
  if (::umount2(kOldRoot, 2 /* MNT_DETACH */) != 0) return fail(plan, "umount2", kOldRoot);
  if (::rmdir(kOldRoot) != 0) return fail(plan, "rmdir", kOldRoot);
  if (setAttr("/", 0, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV) != 0)
    return fail(plan, "mount_setattr", "/ (read-only)");
  return true;
}

}  // namespace greenlight::sandbox::detail
