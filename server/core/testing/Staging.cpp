#include "core/testing/Staging.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

// Other files copied beside the tests so that imports of siblings work; capped so that a huge
// directory cannot make every run slow.
constexpr std::size_t kMaxSiblingFiles = 400;
constexpr std::uintmax_t kMaxSiblingBytes = 8u << 20;
constexpr int kMaxDepth = 4;

bool skippedDir(const std::string& name) {
  static const std::set<std::string> k = {"node_modules", "__pycache__", ".venv", "venv", "dist", "target",
                                          ".tox", ".mypy_cache", ".pytest_cache", "CMakeFiles"};
  return name.empty() || name[0] == '.' || k.count(name) > 0 || name.rfind("build", 0) == 0;
}

bool sameFamily(const std::string& ext, Language language) {
  switch (language) {
    case Language::Python: return ext == ".py" || ext == ".json" || ext == ".txt";
    case Language::JavaScript:
      return ext == ".js" || ext == ".mjs" || ext == ".cjs" || ext == ".jsx" || ext == ".ts" || ext == ".mts" ||
             ext == ".cts" || ext == ".tsx" || ext == ".json";
    case Language::Cxx:
      return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx" || ext == ".cpp" || ext == ".cc" ||
             ext == ".cxx" || ext == ".inc" || ext == ".ipp";
    case Language::Command: return true;
  }
  return false;
}

bool writeFile(const std::string& path, std::string_view data) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  return static_cast<bool>(out);
}

}  // namespace

std::string commonDirectory(const std::vector<std::string>& files) {
  if (files.empty()) return "/";
  fs::path common = fs::path(files[0]).parent_path();
  for (const auto& f : files) {
    fs::path dir = fs::path(f).parent_path();
    while (!common.empty()) {
      auto rel = dir.lexically_relative(common);
      if (!rel.empty() && rel.native().rfind("..", 0) != 0) break;
      if (common == common.parent_path()) break;
      common = common.parent_path();
    }
  }
  return common.empty() ? "/" : common.string();
}

Staging::~Staging() {
  std::error_code ec;
  if (!root_.empty()) fs::remove_all(root_, ec);
  if (!out_.empty()) fs::remove_all(out_, ec);
}

namespace {

// The staged copy only lives for one run and is copied into the sandbox's own tmpfs before the
// payload starts, so it belongs in memory: on a disk-backed /tmp, creating and removing its
// handful of files and directories cost ~2 ms a run (journalled metadata), a tenth of a small
// Python run. /dev/shm may be noexec, which does not matter for a copy nothing executes in
// place (compiled binaries go to outDir(), on /tmp).
std::string makeStagingRoot(std::string* error) {
  std::string why;
  for (const char* dir : {"/dev/shm", "/tmp"}) {
    const std::string pattern = std::string(dir) + "/greenlight-run-XXXXXX";
    std::string tmpl = pattern;
    if (::mkdtemp(tmpl.data()) != nullptr) return tmpl;
    why += (why.empty() ? "" : "; ") + ("mkdtemp " + pattern + ": " + std::strerror(errno));
  }
  *error = why;
  return "";
}

}  // namespace

bool Staging::prepare(const TestPlan& plan, const OverlayProvider& overlay, std::string* error, const std::string& alsoUnder) {
  root_ = makeStagingRoot(error);
  if (root_.empty()) return false;
  std::vector<std::string> files = {plan.sourceFile};
  files.insert(files.end(), plan.testFiles.begin(), plan.testFiles.end());
  // The files they need (supportFiles: the modules a JS test imports) are staged too, and the
  // common directory takes them in, and `alsoUnder` (a Python package's parent).
  std::vector<std::string> anchors = files;
  anchors.insert(anchors.end(), plan.supportFiles.begin(), plan.supportFiles.end());
  if (!alsoUnder.empty()) anchors.push_back(alsoUnder + "/.");
  base_ = commonDirectory(anchors);
  map_.addPrefix(kSandboxSrc, base_);
  std::set<std::string> done;
  auto stage = [&](const std::string& host, bool required) -> bool {
    if (!done.insert(host).second) return true;
    auto text = readSource(host, overlay);
    if (!text) {
      if (required) *error = host + ": cannot read the file";
      return !required;
    }
    std::string rel = fs::path(host).lexically_relative(base_).string();
    if (!writeFile(root_ + "/src/" + rel, *text)) {
      *error = "staging " + host + ": cannot write " + root_ + "/src/" + rel;
      return false;
    }
    if (required) texts_.emplace_back(host, *text);
    return true;
  };
  for (const auto& f : files) {
    if (!stage(f, true)) return false;
  }
  for (const auto& f : plan.supportFiles) {
    if (!stage(f, false)) return false;
  }
  // Siblings: same-language files under the common directory (imports of helpers, headers).
  if (plan.language != Language::Command || true) {
    std::size_t count = 0;
    std::uintmax_t bytes = 0;
    std::error_code ec;
    fs::recursive_directory_iterator it(base_, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const auto& entry = *it;
      std::string name = entry.path().filename().string();
      if (entry.is_directory(ec)) {
        if (skippedDir(name) || it.depth() >= kMaxDepth) it.disable_recursion_pending();
        continue;
      }
      if (!entry.is_regular_file(ec) || !sameFamily(entry.path().extension().string(), plan.language)) continue;
      auto size = entry.file_size(ec);
      if (ec || bytes + size > kMaxSiblingBytes || count >= kMaxSiblingFiles) break;
      bytes += size;
      ++count;
      if (!stage(entry.path().string(), false)) return false;
    }
  }
  // node resolves packages from the importing file's directory upward: give /work/src the
  // workspace's node_modules (bound read-only at its own path).
  if (plan.language == Language::JavaScript) {
    std::error_code ec;
    for (fs::path dir = base_;; dir = dir.parent_path()) {
      if (fs::is_directory(dir / "node_modules", ec)) {
        fs::create_directory_symlink(dir / "node_modules", fs::path(root_) / "src" / "node_modules", ec);
        break;
      }
      if (dir.string() == plan.workspaceRoot || dir == dir.parent_path()) break;
    }
  }
  std::error_code ec;
  fs::create_directories(root_ + "/.gl", ec);
  return true;
}

namespace {

// The process's directory of stable overlay copies (removed at exit), one subdirectory per plan.
std::string stableOverlayDir(const TestPlan& plan, std::string* error) {
  static std::mutex mutex;
  static std::string base;
  std::lock_guard<std::mutex> lock(mutex);
  if (base.empty()) {
    std::string made = makeStagingRoot(error);
    if (made.empty()) return "";
    base = made;
    static const std::string removeAtExit = base;
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(removeAtExit, ec);
    });
  }
  const std::string key = plan.runner + "\n" + plan.rootDir + "\n" + plan.sourceFile;
  std::string dir = base + "/" + std::to_string(std::hash<std::string>{}(key));
  std::error_code ec;
  fs::create_directories(dir, ec);
  return dir;
}

// Rewrites `path` in place: its inode (what a bind mount holds) stays the same.
bool writeInPlace(const std::string& path, std::string_view data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return ::close(fd) == 0;
}

}  // namespace

bool Staging::prepareInPlace(const TestPlan& plan, const OverlayProvider& overlay, std::string* error, bool stable) {
  root_ = makeStagingRoot(error);
  if (root_.empty()) return false;
  std::error_code ec;
  fs::create_directories(root_ + "/.gl", ec);
  const std::string stableDir = stable ? stableOverlayDir(plan, error) : "";
  if (stable && stableDir.empty()) return false;
  std::vector<std::string> files = {plan.sourceFile};
  files.insert(files.end(), plan.testFiles.begin(), plan.testFiles.end());
  const std::size_t tracked = files.size();  // the source and the tests: their texts feed the diagnostics
  files.insert(files.end(), plan.supportFiles.begin(), plan.supportFiles.end());
  std::set<std::string> done;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string& path = files[i];
    if (!done.insert(path).second) continue;
    std::optional<std::string> unsaved = overlay ? overlay(path) : std::nullopt;
    std::optional<std::string> disk = readSource(path, nullptr);
    if (!unsaved && !disk) {
      if (i < tracked) {
        *error = path + ": cannot read the file";
        return false;
      }
      continue;
    }
    // A file only the editor has (tests first's accepted test file) gets a copy like any other:
    // the sandbox shows it at its path through an overlay of its directory (sandbox/NewFiles.h).
    if (stable && disk) {
      // Every file bound, from a copy at a path of its own that stays (its content: this run's).
      const std::string copy = stableDir + "/" + std::to_string(i) + "-" + fs::path(path).filename().string();
      if (!writeInPlace(copy, unsaved ? *unsaved : *disk)) {
        *error = "staging " + path + ": cannot write " + copy;
        return false;
      }
      binds_.emplace_back(copy, path);
    } else if (unsaved && unsaved != disk) {
      const std::string copy = root_ + "/.overlay/" + std::to_string(binds_.size()) + "-" + fs::path(path).filename().string();
      if (!writeFile(copy, *unsaved)) {
        *error = "staging " + path + ": cannot write " + copy;
        return false;
      }
      binds_.emplace_back(copy, path);
    }
    if (i < tracked) texts_.emplace_back(path, unsaved ? *unsaved : *disk);
  }
  base_ = commonDirectory(std::vector<std::string>(files.begin(), files.begin() + static_cast<long>(tracked)));
  return true;
}

bool Staging::prepareScratch(std::string* error) {
  root_ = makeStagingRoot(error);
  if (root_.empty()) return false;
  std::error_code ec;
  fs::create_directories(root_ + "/.gl", ec);
  return true;
}

std::string Staging::addHarnessFile(const std::string& name, std::string_view content) {
  writeFile(root_ + "/.gl/" + name, content);
  return std::string(kSandboxGl) + "/" + name;
}

const std::string& Staging::outDir() {
  if (out_.empty()) {
    char tmpl[] = "/tmp/greenlight-out-XXXXXX";
    if (::mkdtemp(tmpl) != nullptr) {
      out_ = tmpl;
      // The sandbox may run as an unprivileged mapped user: let it write the binary here.
      // The name is random and the directory only lives for this run.
      ::chmod(out_.c_str(), 0777);
    }
  }
  return out_;
}

std::string Staging::toSandbox(const std::string& hostPath) const {
  std::string rel = fs::path(hostPath).lexically_relative(base_).string();
  return std::string(kSandboxSrc) + "/" + rel;
}

}  // namespace greenlight::core::testing
