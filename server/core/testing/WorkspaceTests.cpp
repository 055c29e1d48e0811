#include "core/testing/WorkspaceTests.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

namespace greenlight::core::testing {

namespace fs = std::filesystem;

namespace {

std::string normal(const std::string& path) {
  std::string p = fs::path(path).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

bool startsWith(const std::string& s, std::string_view prefix) { return s.compare(0, prefix.size(), prefix) == 0; }
bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// `path` is `root` or below it.
bool within(const std::string& root, const std::string& path) {
  return path == root || (startsWith(path, root) && (root == "/" || path[root.size()] == '/'));
}

// A directory strictly between `root` and `path` (or `path` itself when `self`) is skipped.
bool underSkipped(const std::string& root, const std::string& path, bool self) {
  for (fs::path d = self ? fs::path(path) : fs::path(path).parent_path(); d.string().size() > root.size(); d = d.parent_path()) {
    if (skippedTestDirectory(d.string())) return true;
  }
  return false;
}

std::string folderId(const std::string& root, const std::string& dir) { return testFileKey(root, dir) + "/"; }

class Listing {
 public:
  Listing(const std::string& root, const OverlayProvider& overlay, const WorkspaceScanLimits& limits,
          const std::function<bool()>& cancelled)
      : root_(root),
        overlay_(overlay),
        limits_(limits),
        cancelled_(cancelled),
        deadline_(std::chrono::steady_clock::now() + limits.maxTime) {}

  void walk(const std::vector<std::string>& starts) {
    std::deque<std::pair<std::string, bool>> queue;  // dir, asked for
    for (const auto& s : starts) queue.emplace_back(s, true);
    while (!queue.empty()) {
      auto [dir, asked] = queue.front();
      queue.pop_front();
      if (!asked && exhausted()) {
        state(dir, FolderState::Unresolved);
        continue;
      }
      if (!walked_.insert(dir).second) continue;
      if (dir != root_) state(dir, FolderState::Walked);
      std::vector<std::string> subdirs, found;
      std::size_t here = 0;
      std::error_code ec;
      for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
           it.increment(ec)) {
        // One directory is read whole unless it alone is past the budget: then the listing
        // says it is incomplete (a folder asked for is never handed back as unresolved).
        ++entries_;
        if (++here > limits_.maxEntriesPerFolder || found.size() >= limits_.maxTestFiles) {
          truncated_ = true;
          break;
        }
        std::error_code sec;
        const auto st = it->symlink_status(sec);
        if (sec) continue;
        const std::string path = it->path().string();
        if (fs::is_directory(st)) {  // a symlinked directory is not followed: no cycles
          if (!skippedTestDirectory(path)) subdirs.push_back(path);
        } else if ((fs::is_regular_file(st) || (fs::is_symlink(st) && fs::is_regular_file(it->path(), sec))) &&
                   isTestFilePath(path)) {
          found.push_back(path);
        }
      }
      std::sort(subdirs.begin(), subdirs.end());
      for (auto& d : subdirs) queue.emplace_back(std::move(d), false);
      std::sort(found.begin(), found.end());
      for (const auto& f : found) {
        // Reading a file's tests is the walk's cost: past the time budget a file is listed
        // without them (unlisted), for the editor to ask as the user expands it.
        if (timeUp()) unlisted_.insert(f);
        files_.insert(f);
        if (!unlisted_.count(f)) trees_[f] = treeOf(f);
      }
    }
  }

  void addFile(const std::string& file) {
    std::error_code ec;
    if (!within(root_, file) || underSkipped(root_, file, false) || !isTestFilePath(file) || !fs::is_regular_file(file, ec))
      return;
    files_.insert(file);
    trees_[file] = treeOf(file);
  }

  WorkspaceTests result() {
    WorkspaceTests out;
    std::vector<TestNode> nodes;
    std::set<std::string> withTests;  // folders that hold something
    for (const auto& file : files_) {
      std::vector<TestNode> tree;
      if (unlisted_.count(file)) {
        tree.push_back({testFileKey(root_, file), fs::path(file).filename().string(), TestNodeKind::File, "", file, 1, 1});
        out.unlistedFiles.push_back(tree.front().id);
      } else {
        tree = std::move(trees_[file]);
        // A Python file named like a test that defines none (a helper, test_utils.py) is not
        // shown; a C++ file of plain asserts in main() is one runnable file, as listTests lists it.
        if (tree.empty() || (tree.size() < 2 && languageForPath(file) == Language::Python)) continue;
      }
      const std::string dir = fs::path(file).parent_path().string();
      tree.front().parent = dir == root_ ? "" : folderId(root_, dir);
      chain(dir, &withTests);
      nodes.insert(nodes.end(), std::make_move_iterator(tree.begin()), std::make_move_iterator(tree.end()));
    }
    for (const auto& [dir, st] : states_) {
      if (st == FolderState::Unresolved) chain(dir, &withTests);
    }
    for (const auto& dir : withTests) {
      WorkspaceFolder f;
      f.id = folderId(root_, dir);
      f.label = fs::path(dir).filename().string();
      f.path = dir;
      const std::string parent = fs::path(dir).parent_path().string();
      f.parent = parent == root_ ? "" : folderId(root_, parent);
      auto it = states_.find(dir);
      f.state = it == states_.end() ? FolderState::Passed : it->second;
      out.truncated = out.truncated || f.state == FolderState::Unresolved;
      out.folders.push_back(std::move(f));
    }
    out.nodes = std::move(nodes);
    out.truncated = out.truncated || truncated_ || !out.unlistedFiles.empty();
    return out;
  }

 private:
  bool timeUp() { return (cancelled_ && cancelled_()) || std::chrono::steady_clock::now() >= deadline_; }
  bool exhausted() { return timeUp() || entries_ >= limits_.maxEntries || files_.size() >= limits_.maxTestFiles; }

  // The file's nodes as listTests gives them (the file itself is the plan's test file).
  std::vector<TestNode> treeOf(const std::string& file) const {
    auto language = languageForPath(file);
    if (!language) return {};
    TestPlan plan;
    plan.language = *language;
    plan.sourceFile = file;
    plan.sourceIsTestFile = true;
    plan.workspaceRoot = root_;
    return testTree(plan, overlay_);
  }
  void state(const std::string& dir, FolderState st) { states_[dir] = st; }
  // `dir` and its parents up to the root are folders of the listing.
  void chain(const std::string& dir, std::set<std::string>* folders) {
    for (fs::path d(dir); d.string().size() > root_.size() && within(root_, d.string()); d = d.parent_path()) {
      if (!folders->insert(d.string()).second) break;
    }
  }

  const std::string root_;
  const OverlayProvider& overlay_;
  const WorkspaceScanLimits limits_;
  const std::function<bool()>& cancelled_;
  const std::chrono::steady_clock::time_point deadline_;
  std::size_t entries_ = 0;
  bool truncated_ = false;
  std::set<std::string> walked_;
  std::map<std::string, FolderState> states_;
  std::set<std::string> files_;  // sorted: the listing is in path order
  std::set<std::string> unlisted_;  // files listed without their tests (past the time budget)
  std::map<std::string, std::vector<TestNode>> trees_;
};

}  // namespace

bool skippedTestDirectory(const std::string& dir) {
  const fs::path p(dir);
  const std::string name = p.filename().string();
  if (name.empty() || name[0] == '.') return true;
  static const std::set<std::string, std::less<>> kNames = {
      "node_modules", "bower_components", "jspm_packages", "__pycache__", "site-packages", "dist-packages",
      "build",        "dist",             "out",           "target",      "_build",        "htmlcov",
      "coverage",     "venv",             "__pypackages__"};
  if (kNames.count(name) || startsWith(name, "build-") || startsWith(name, "cmake-build-") || endsWith(name, ".egg-info"))
    return true;
  std::error_code ec;
  // A virtualenv under any name, a CMake build tree under any name.
  return fs::exists(p / "pyvenv.cfg", ec) || fs::exists(p / "CMakeCache.txt", ec);
}

WorkspaceTests listWorkspaceTests(const std::string& rootIn, const std::vector<std::string>& dirs,
                                  const std::vector<std::string>& files, const OverlayProvider& overlay,
                                  const WorkspaceScanLimits& limits, const std::function<bool()>& cancelled) {
  const std::string root = normal(rootIn);
  Listing listing(root, overlay, limits, cancelled);
  // No listing walks the filesystem root (isFilesystemRoot: an editor opened at /).
  if (isFilesystemRoot(root)) return {};
  std::vector<std::string> starts;
  for (const auto& d : dirs) {
    const std::string dir = normal(d);
    std::error_code ec;
    if (!within(root, dir) || !fs::is_directory(dir, ec) || (dir != root && underSkipped(root, dir, true))) continue;
    starts.push_back(dir);
  }
  listing.walk(starts);
  for (const auto& f : files) listing.addFile(normal(f));
  return listing.result();
}

}  // namespace greenlight::core::testing
