// Private parents: a project under root's 0700 home, run by root.
//
// Dev containers and CI images run as root, and root's projects live under /root (0700). The
// sandbox never runs untrusted code as host uid 0: after building its mounts it drops to uid
// 65534 (Plan.h, RootThenUserNs), which may not search /root. Chmod-ing the user's directories
// would widen what every local process sees; the sandbox must widen nothing.
//
// How the project is reached. The mounts are made by the sandbox's own child while it is still
// real root, in its new mount namespace, before the drop (steps/Mounts.cpp): every bind source
// is resolved with root's rights under the old root, so /root/proj is bound from root's side of
// the 0700 directory. The bind is of exactly that tree (the source canonical, resolved in the
// parent before clone): what the sandbox can then see is the bound tree and nothing beside it,
// the same as a bind made from a descriptor opened before the drop would give. (A descriptor
// opened by the supervisor belongs to its mount namespace, which the kernel will not bind from
// into the child's copy; open_tree(OPEN_TREE_CLONE) would, but adds a descriptor per bind per run
// for no more reach.) The target paths inside are the host paths, so file paths in results,
// source maps, pytest's rootdir and CMake's build paths are the same inside and out.
//
// How the way in is kept traversable. The sandbox's root is a fresh tmpfs; the parents of a bind
// target that lie on it (/root for /root/proj) are made there, empty and 0755, root's: the
// private /root of the host never enters, only an empty stand-in at its path. That holds for
// every bind whose parents are not themselves inside another bind. This file handles the rest:
// a bind nested in an enclosing bind whose way in crosses a directory the dropped uid cannot
// search (the workspace /root bound read-only and the project /root/proj bound in it; a
// venv or build tree under a 0700 directory inside the bound workspace). The first such
// directory is covered by an empty tmpfs (root's, 0755) before the nested bind is made, the
// rest of the way in is made on it, and once every bind is in place the tmpfs is made
// read-only. Nothing is exposed that was not: the covered directory was unreadable to the
// sandbox anyway (it now reads as empty instead of EACCES), the tmpfs holds only the empty
// directories of the way in, and the nested bind shows what it showed before. A bind whose own
// directory is private stays private (a project directory that is 0700 itself is refused
// before the run, in the runner's words); files inside keep their own modes.
//
// Every other layer stays as it was: the binds read-only unless asked, Landlock's write rules,
// seccomp, no network, and the dropped uid.
#include "sandbox/PrivateParents.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace greenlight::sandbox::detail {
namespace fs = std::filesystem;

bool strictlyUnder(const std::string& path, const std::string& dir) {
  if (dir == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

namespace {

bool coveredBy(const std::string& path, const std::set<std::string>& covered) {
  for (const auto& c : covered) {
    if (path == c || strictlyUnder(path, c)) return true;
  }
  return false;
}

}  // namespace

bool searchableBy(const struct stat& st, uid_t uid, gid_t gid) {
  if (st.st_uid == uid) return (st.st_mode & S_IXUSR) != 0;
  if (st.st_gid == gid) return (st.st_mode & S_IXGRP) != 0;
  return (st.st_mode & S_IXOTH) != 0;
}

void planPrivateParents(const std::vector<PlannedBind>& binds, uid_t uid, gid_t gid,
                        std::vector<std::vector<MountOp>>& before, std::vector<MountOp>& seals) {
  before.assign(binds.size(), {});
  std::set<std::string> covered;
  for (std::size_t i = 0; i < binds.size(); ++i) {
    const std::string& target = binds[i].target;
    // The innermost bind made before this one that encloses it.
    const PlannedBind* outer = nullptr;
    for (std::size_t j = 0; j < i; ++j) {
      if (strictlyUnder(target, binds[j].target) && (!outer || binds[j].target.size() > outer->target.size()))
        outer = &binds[j];
    }
    if (!outer) continue;  // its parents are made on the new root's tmpfs: 0755 already
    // The way in: the enclosing target itself, then each directory down to the target's parent.
    std::vector<std::string> way = {outer->target};
    const fs::path rel = fs::path(target).parent_path().lexically_relative(outer->target);
    fs::path at(outer->target);
    for (const auto& part : rel) {
      if (part == ".") continue;
      at /= part;
      way.push_back(at.string());
    }
    for (const auto& dir : way) {
      if (coveredBy(dir, covered)) break;  // on a stand-in already: made 0755 below it
      const std::string rest = dir.size() > outer->target.size() ? dir.substr(outer->target.size()) : "";
      const std::string host = (outer->host == "/" ? "" : outer->host) + rest;
      struct stat st;
      if (::stat(host.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || searchableBy(st, uid, gid)) continue;
      MountOp tmpfs;
      tmpfs.kind = MountKind::Tmpfs;
      tmpfs.target = dir;
      tmpfs.data = "size=64k,nr_inodes=1024,mode=0755";
      before[i].push_back(std::move(tmpfs));
      MountOp seal;
      seal.kind = MountKind::Seal;
      seal.target = dir;
      seals.push_back(std::move(seal));
      covered.insert(dir);
      break;
    }
  }
}

}  // namespace greenlight::sandbox::detail

namespace greenlight::sandbox {

bool bindsReach(const std::vector<Bind>& binds, const std::string& path) {
  const std::string want = std::filesystem::path(path).lexically_normal().string();
  for (const Bind& b : binds) {
    if (!b.sandboxPath.empty() && b.sandboxPath != b.hostPath) continue;
    const std::string root = std::filesystem::path(b.hostPath).lexically_normal().string();
    if (want != root && !detail::strictlyUnder(want, root)) continue;
    if (::geteuid() != 0) return true;
    bool open = true;
    for (std::filesystem::path dir = std::filesystem::path(want).parent_path();; dir = dir.parent_path()) {
      if (dir.string().size() < root.size()) break;
      struct stat st;
      if (::stat(dir.c_str(), &st) == 0 && !detail::searchableBy(st, detail::kUnprivilegedHostUid, detail::kUnprivilegedHostGid)) {
        open = false;
        break;
      }
      if (dir == dir.parent_path()) break;
    }
    if (open) return true;
  }
  return false;
}

}  // namespace greenlight::sandbox
