// The tests of a whole workspace, for the editors' test views before any file is opened (the
// `greenlight/listWorkspaceTests` request; README "The language server: commands and test
// views"), as the Python and Jest extensions show them.
//
// A bounded, breadth-first walk of a folder: the test files it finds (isTestFilePath: the same
// recognition discovery uses) become the same nodes and ids as greenlight/listTests gives
// (testTree, TestIds.h), under folder nodes. Directories no project keeps tests in are not
// entered: dot directories, node_modules, virtualenvs (a pyvenv.cfg), __pycache__,
// site-packages, *.egg-info, build trees (build, build-*, cmake-build-*, dist, out, target,
// _build, a CMakeCache.txt), coverage output. The walk stops at a budget of directory entries,
// test files and time; the folders it did not reach are returned *unresolved*, and the editor
// asks for each again as the user expands it, so a large repository is listed folder by folder.
// Reading the tests of a file is most of the cost: past the time budget a test file is listed
// without its tests (unlistedFiles), to be read when the user expands it.
//
// Reads files (through the overlay: unsaved text first) and runs nothing.
// Thread-safety: pure functions; call them from a worker, never from the loop.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/TestIds.h"

namespace greenlight::core::testing {

struct WorkspaceScanLimits {
  std::size_t maxEntries = 20000;   // directory entries looked at before the walk stops descending
  std::size_t maxEntriesPerFolder = 50000;  // one folder's entries read at most (then: truncated)
  std::size_t maxTestFiles = 1000;  // test files listed (each is read)
  std::chrono::milliseconds maxTime{2000};
};

// A folder of the listing: `id` is its path relative to the root with a trailing '/'
// ("tests/unit/"), never a test file's id; `parent` is "" for a folder directly under the root.
enum class FolderState {
  Walked,      // its content is all in the listing
  Unresolved,  // not walked (the budget ran out): list it on its own
  Passed,      // only on the way to what was asked for (a changed file's folders): not walked
};

struct WorkspaceFolder {
  std::string id;
  std::string label;  // the directory's name
  std::string path;   // absolute
  std::string parent;
  FolderState state = FolderState::Walked;
};

struct WorkspaceTests {
  std::vector<WorkspaceFolder> folders;  // parents first
  // The test files' nodes, each file's as testTree gives them (parents first); a file node's
  // `parent` is its folder's id ("" under the root).
  std::vector<TestNode> nodes;
  // Ids of test files listed without their tests: the time budget ran out before they were
  // read. Ask for them on their own (listTests) as the user expands them.
  std::vector<std::string> unlistedFiles;
  bool truncated = false;  // some folder is unresolved or some file unlisted
};

// Whether the walk skips the directory `dir` (see above). `dir` is absolute.
bool skippedTestDirectory(const std::string& dir);

// The tests under the directories `dirs` (walked within `limits`) and in the files `files`
// (each listed when it is a test file outside skipped directories; a path that is neither a
// test file nor a directory lists nothing), with every folder between them and `root`. Ids are
// relative to `root`, as greenlight/listTests makes them. `cancelled` (may be empty) stops the
// walk early: what was found so far is returned, the rest unresolved.
WorkspaceTests listWorkspaceTests(const std::string& root, const std::vector<std::string>& dirs,
                                  const std::vector<std::string>& files, const OverlayProvider& overlay,
                                  const WorkspaceScanLimits& limits = {}, const std::function<bool()>& cancelled = {});

}  // namespace greenlight::core::testing
