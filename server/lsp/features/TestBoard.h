// What the test-related features share: the diagnostics each source file's last run published
// (a run of m.py owns m.py's and its test files' greenlight diagnostics; a newer run, or a
// verified fix, replaces them), the last result of each test (for the CodeLens' "✔ 3 passed"),
// the greenlight/testResults feed, and the cancel hooks `greenlight.cancel` calls.
//
// Threading: loop only (every member), like the features that own it. The features hold it by
// shared_ptr; it holds only a reference to the Server, which outlives the features.
#pragma once

#include <functional>
#include <memory>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/testing/TestTypes.h"
#include "lsp/features/RunTestsDiagnostics.h"
#include "lsp/features/TestFeed.h"
#include "protocol/Diagnostics.h"

namespace greenlight::lsp {

class Server;

class TestBoard {
 public:
  explicit TestBoard(Server& server) : server_(server), feed_(std::make_shared<TestFeed>(server)) {}

  // The greenlight/testResults stream every test run reports through (TestFeed.h).
  TestFeed& feed() { return *feed_; }

  // Replaces what `source`'s runs published with `fresh` (path -> diagnostics), publishing each
  // file whose union over sources changed (an empty list where something was shown).
  void publish(const std::string& source, const std::map<std::string, FileDiagnostics>& fresh);

  // Records a finished run's per-test outcomes for `source` (CodeLens titles) and tells the
  // listeners (CodeLens refresh).
  void recordResults(const std::string& source, const core::testing::RunResult& result);
  // The last outcome of each test of `source`'s runs: name -> status.
  const std::map<std::string, core::testing::TestStatus>* results(const std::string& source) const;
  // What the last run of `source` that measured coverage executed of it (nullptr: none).
  const core::testing::FileCoverage* coverage(const std::string& source) const;
  void onResults(std::function<void(const std::string& source)> listener) { listeners_.push_back(std::move(listener)); }

  // greenlight.cancel: every feature registers how to cancel its work (all, or one document's
  // when `path` is set); the result is how many tasks were cancelled.
  using Canceller = std::function<std::size_t(const std::optional<std::string>& path, const std::string& why)>;
  void addCanceller(Canceller c) { cancellers_.push_back(std::move(c)); }
  std::size_t cancel(const std::optional<std::string>& path, const std::string& why);

 private:
  Server& server_;
  std::shared_ptr<TestFeed> feed_;
  std::map<std::string, std::map<std::string, std::vector<protocol::Diagnostic>>> bySource_;
  std::map<std::string, std::string> uriOf_;  // path -> the URI last published for it
  std::set<std::string> shown_;               // paths whose last publish was non-empty
  std::map<std::string, std::map<std::string, core::testing::TestStatus>> results_;
  std::map<std::string, core::testing::FileCoverage> coverage_;  // source -> its last run's coverage
  std::vector<std::function<void(const std::string&)>> listeners_;
  std::vector<Canceller> cancellers_;
};

}  // namespace greenlight::lsp
