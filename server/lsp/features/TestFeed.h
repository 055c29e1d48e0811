// The `greenlight/testResults` notification (DESIGN.md "LSP surface", README "Test views"):
// every test run, whatever started it (greenlight.runTests, the run on save, a generate/fix job),
// streams its results to the client as they arrive:
//
//   {"uri": U, "run": {"id": N, "trigger": "runTests"|"save"|"generate"|"fix",
//                      "state": "started"|"running"|"finished"|"cancelled",
//                      "error"?, "coverageNote"?},
//    "results": [{"id", "label", "parent", "status", "outcome"?, "durationMs"?, "message"?,
//                 "expected"?, "actual"?, "location"?: {"uri", "range"}}]}
//
// `started` comes first (results: []), then `running` notifications carrying what changed since
// the previous one (the tests expected, status "queued", then each finished test), at most one
// per run every kFlushEvery; the last one, `finished` or `cancelled`, carries the run's complete
// list, with `coverage` (the covered files' lines and counts) or, when greenlight dropped coverage
// to let the run finish, run.coverageNote saying why. Ids come from core/testing/TestIds.h, the
// same function `greenlight/listTests` uses.
//
// Threading: begin() and finish() on the loop. A Run's queue()/add() from any thread (the
// TestService's workers call add() per finished test): they only append under the Run's mutex;
// a timer on the loop sends what accumulated, so no worker ever calls into the Server.
#pragma once

#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/testing/TestIds.h"
#include "core/testing/TestTypes.h"
#include "protocol/Json.h"
#include "protocol/Positions.h"

namespace greenlight::lsp {

class Server;

// The root test ids are relative to, for a run or a listing of `key` (the file under test):
// the editor's workspace folder when it holds the file, else the nearest .git/.greenlight.json
// ancestor (what discovery uses, so the ids of listTests and testResults agree).
std::string testIdRoot(const std::optional<std::string>& workspaceFolder, const std::string& key);

// One core result as a `results` entry of the notification.
protocol::Json testResultJson(const std::string& root, const std::string& defaultFile,
                              const core::testing::TestResult& result);

class TestFeed : public std::enable_shared_from_this<TestFeed> {
 public:
  class Run {
   public:
    // The tests the run will report (status "queued"). Any thread.
    void queue(const std::vector<core::testing::TestNode>& tests);
    // One finished test. Any thread.
    void add(const core::testing::TestResult& result);
    std::int64_t id() const { return id_; }

   private:
    friend class TestFeed;
    std::int64_t id_ = 0;
    std::string uri_, trigger_, root_, defaultFile_;
    std::mutex mutex_;
    bool closed_ = false;                 // finished: later adds are dropped
    std::vector<protocol::Json> pending_;  // not sent yet
    std::vector<protocol::Json> done_;     // every finished test so far (for a cancelled run's list)
  };

  explicit TestFeed(Server& server) : server_(server) {}
  ~TestFeed();
  TestFeed(const TestFeed&) = delete;
  TestFeed& operator=(const TestFeed&) = delete;

  // Starts a run of the tests of `defaultFile` (the file under test) for the document `uri`;
  // sends `started`. Loop only.
  std::shared_ptr<Run> begin(const std::string& uri, const std::string& trigger, const std::string& root,
                             const std::string& defaultFile);
  // Ends it: `finished` with every result of `result` (null: none), or `cancelled`. `error`,
  // when set, is sent as run.error. Loop only; idempotent.
  void finish(const std::shared_ptr<Run>& run, const core::testing::RunResult* result, bool cancelled,
              const std::string& error = "");

 private:
  void send(Run& run, const char* state, std::vector<protocol::Json> results, const std::string& error = "",
            protocol::Json coverage = nullptr, const std::string& coverageNote = "");
  void flush();
  void schedule();

  Server& server_;
  std::int64_t nextId_ = 1;
  std::vector<std::shared_ptr<Run>> active_;  // loop only
  std::unique_ptr<boost::asio::steady_timer> timer_;
  bool ticking_ = false;
};

}  // namespace greenlight::lsp
