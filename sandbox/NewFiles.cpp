#include "sandbox/NewFiles.h"

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>

#include "sandbox/PlanBuilder.h"
#include "sandbox/PrivateParents.h"

namespace greenlight::sandbox::detail {
namespace {

namespace fs = std::filesystem;

// A test file is a few KB; this bounds what one run copies into the staging tmpfs.
constexpr std::size_t kMaxNewFileBytes = 8u << 20;

bool isDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string join(const std::string& dir, const std::string& rel) { return rel.empty() ? dir : dir + "/" + rel; }

std::string parentOf(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? std::string() : rel.substr(0, slash);
}

// The deepest directory bind strictly enclosing binds[i], or -1.
int enclosingBind(const std::vector<ResolvedBind>& binds, std::size_t i) {
  int best = -1;
  for (std::size_t j = 0; j < binds.size(); ++j) {
    if (j == i || !binds[j].isDir || !strictlyUnder(binds[i].target, binds[j].target)) continue;
    if (best < 0 || binds[j].target.size() > binds[static_cast<std::size_t>(best)].target.size())
      best = static_cast<int>(j);
  }
  return best;
}

}  // namespace

std::string resolveBinds(const Policy& policy, std::vector<ResolvedBind>& out) {
  for (const Bind& b : policy.binds) {
    std::error_code ec;
    fs::path real = fs::canonical(b.hostPath, ec);
    if (ec) return "bind " + b.hostPath + ": " + ec.message();
    std::string target = b.sandboxPath.empty() ? b.hostPath : b.sandboxPath;
    if (target.empty() || target[0] != '/') return "bind target must be absolute: " + target;
    target = fs::path(target).lexically_normal().string();
    if (target.size() > 1 && target.back() == '/') target.pop_back();
    if (target == "/" || target == "/proc" || strictlyUnder(target, "/proc") || target == "/dev" ||
        strictlyUnder(target, "/dev"))
      return "bind target not allowed: " + target;
    out.push_back({real.string(), target, b.writable, fs::is_directory(real, ec)});
  }
  return {};
}

std::string splitNewFiles(std::vector<ResolvedBind>& binds, std::vector<NewFileDir>& dirs) {
  std::vector<bool> isNew(binds.size(), false);
  for (std::size_t i = 0; i < binds.size(); ++i) {
    const ResolvedBind& b = binds[i];
    if (b.writable || b.isDir) continue;
    int e = enclosingBind(binds, i);
    if (e < 0) continue;
    const ResolvedBind& encl = binds[static_cast<std::size_t>(e)];
    // A writable enclosing bind takes a mount point as it always did.
    if (encl.writable) continue;
    const std::string rel = b.target.substr(encl.target.size() + 1);
    struct stat st;
    if (::lstat(join(encl.host, rel).c_str(), &st) == 0 || (errno != ENOENT && errno != ENOTDIR)) continue;
    // The nearest directory that exists; missing ones between are made in the staging layer.
    std::string dirRel = parentOf(rel);
    while (!dirRel.empty() && !isDirectory(join(encl.host, dirRel))) {
      if (::lstat(join(encl.host, dirRel).c_str(), &st) == 0)
        return "new file " + b.target + ": " + join(encl.host, dirRel) + " is not a directory";
      dirRel = parentOf(dirRel);
    }
    const std::string hostDir = join(encl.host, dirRel);
    const std::string target = join(encl.target, dirRel);
    if (hostDir.find_first_of(":,\\") != std::string::npos)
      return "new file " + b.target + ": its directory " + hostDir +
             " has ':', ',' or '\\' in its path, which overlayfs options cannot carry";
    NewFile file{b.host, b.target.substr(target.size() + 1)};
    isNew[i] = true;
    bool grouped = false;
    for (NewFileDir& d : dirs) {
      if (d.target == target) {
        d.files.push_back(file);
        grouped = true;
      }
    }
    if (!grouped) dirs.push_back({hostDir, target, {file}});
  }
  std::vector<ResolvedBind> kept;
  for (std::size_t i = 0; i < binds.size(); ++i) {
    if (!isNew[i]) kept.push_back(std::move(binds[i]));
  }
  binds = std::move(kept);
  return {};
}

std::string planNewFiles(const std::vector<NewFileDir>& dirs, std::vector<MountOp>& staging,
                         std::vector<MountOp>& overlays, MountOp& detach) {
  if (dirs.empty()) return {};
  auto dir = [&](const std::string& t) {
    MountOp op;
    op.kind = MountKind::Dir;
    op.target = t;
    op.mode = 0755;
    staging.push_back(std::move(op));
  };
  std::vector<MountOp> files;
  std::size_t total = 0;
  for (std::size_t k = 0; k < dirs.size(); ++k) {
    const std::string layer = std::string(kNewFilesStaging) + "/" + std::to_string(k);
    files.push_back({MountKind::Dir, layer, {}, {}, false, true, false, 0755});
    for (const NewFile& f : dirs[k].files) {
      // Directories the new file needs that the host directory lacks, outermost first.
      std::vector<std::string> made;
      for (std::string p = parentOf(f.rel); !p.empty(); p = parentOf(p)) made.insert(made.begin(), p);
      for (const std::string& p : made) files.push_back({MountKind::Dir, layer + "/" + p, {}, {}, false, true, false, 0755});
      struct stat st;
      if (::stat(f.source.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return "new file " + dirs[k].target + "/" + f.rel + ": " + f.source + " is not a regular file";
      if (static_cast<std::size_t>(st.st_size) > kMaxNewFileBytes)
        return "new file " + dirs[k].target + "/" + f.rel + ": larger than 8 MB";
      MountOp op;
      op.kind = MountKind::WriteFile;
      op.target = layer + "/" + f.rel;
      op.mode = 0644;
      if (!readFileInto(f.source.c_str(), static_cast<std::size_t>(st.st_size), op.data))
        return "new file " + dirs[k].target + "/" + f.rel + ": cannot read " + f.source;
      total += op.data.size();
      files.push_back(std::move(op));
    }
    MountOp overlay;
    overlay.kind = MountKind::Overlay;
    overlay.target = dirs[k].target;
    overlay.data = "lowerdir=" + layer + ":" + kOldRoot + dirs[k].hostDir;
    overlays.push_back(std::move(overlay));
  }
  dir(kNewFilesStaging);
  MountOp tmpfs;
  tmpfs.kind = MountKind::Tmpfs;
  tmpfs.target = kNewFilesStaging;
  tmpfs.data = "size=" + std::to_string(total + (1u << 20)) + ",nr_inodes=4096,mode=0755";
  staging.push_back(std::move(tmpfs));
  for (MountOp& op : files) staging.push_back(std::move(op));
  detach.kind = MountKind::Detach;
  detach.target = kNewFilesStaging;
  return {};
}

bool hasNewFiles(const Policy& policy) {
  bool candidate = false;
  for (const Bind& b : policy.binds) candidate = candidate || (!b.writable && !b.sandboxPath.empty() && b.sandboxPath != b.hostPath);
  if (!candidate) return false;
  std::vector<ResolvedBind> binds;
  std::vector<NewFileDir> dirs;
  if (!resolveBinds(policy, binds).empty()) return false;
  splitNewFiles(binds, dirs);
  return !dirs.empty();
}

}  // namespace greenlight::sandbox::detail
