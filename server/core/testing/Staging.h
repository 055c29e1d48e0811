// The host side of a run's scratch directory (see Runner.h for what the sandbox sees).
//
// Thread-safety: one Staging per run; no shared state.
#pragma once

#include <string>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/OutputParsing.h"

namespace greenlight::core::testing {

inline constexpr char kSandboxSrc[] = "/work/src";
inline constexpr char kSandboxGl[] = "/work/.gl";

class Staging {
 public:
  Staging() = default;
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  ~Staging();  // removes the host directories

  // Creates the scratch tree for `plan`: copies the source and test files (overlay first) and
  // the same-language files under their common directory. False + `error` on failure.
  // `alsoUnder`: a directory the staged tree must contain too (a Python package's parent, so
  // the package keeps its name under /work/src).
  bool prepare(const TestPlan& plan, const OverlayProvider& overlay, std::string* error, const std::string& alsoUnder = "");
  // In place, for the project runners (pytest, unittest): nothing is copied; the project is
  // bound read-only at its own path (Runner.h), and each file of the plan (source, tests,
  // supportFiles) whose text differs from the disk (unsaved text, a candidate) gets a private
  // copy that is bind-mounted over its own path (overlayBinds), so every import — relative,
  // through a src/ layout, an editable install — reads it. Paths need no mapping.
  // `stable`: the copies live at paths that stay the same from run to run of the same plan
  // (rewritten in place, every file of the plan bound whether or not it changed), so a warm
  // spare whose binds were made before the run serves it (sandbox spares are keyed by binds).
  bool prepareInPlace(const TestPlan& plan, const OverlayProvider& overlay, std::string* error, bool stable = false);
  // Only the scratch root with an empty /work/.gl (a helper process: a runner's probe).
  bool prepareScratch(std::string* error);
  // host copy -> the path it covers inside the sandbox
  const std::vector<std::pair<std::string, std::string>>& overlayBinds() const { return binds_; }
  // Writes a harness file into /work/.gl; returns its sandbox path.
  std::string addHarnessFile(const std::string& name, std::string_view content);
  // A private host directory for outputs (C++ binaries), created on first use.
  const std::string& outDir();

  const std::string& hostRoot() const { return root_; }     // becomes /work
  const std::string& base() const { return base_; }         // host dir mirrored at /work/src
  std::string toSandbox(const std::string& hostPath) const;  // host file -> /work/src/...
  const PathMap& pathMap() const { return map_; }
  // Host texts of the staged source/test files (for the fingerprint and narrowing).
  const std::vector<std::pair<std::string, std::string>>& stagedTexts() const { return texts_; }
  // Records the text a run compiled for a file, for a runner that stages in place on its own
  // (CMake): the first one recorded is the file under test.
  void addText(std::string path, std::string text) { texts_.emplace_back(std::move(path), std::move(text)); }

 private:
  std::string root_, base_, out_;
  PathMap map_;
  std::vector<std::pair<std::string, std::string>> texts_;
  std::vector<std::pair<std::string, std::string>> binds_;
};

// The common directory of `files`, kept inside `root` when they all are.
std::string commonDirectory(const std::vector<std::string>& files);

}  // namespace greenlight::core::testing
