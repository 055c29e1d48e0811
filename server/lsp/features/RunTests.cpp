// Running the nearby tests from the editor: `greenlight.runTests`, `greenlight.cancel`,
// runOnSave, and the diagnostics that test runs publish.
//
// ## Threading model
//
// Three kinds of threads touch a run:
//  - the LOOP (the Server's event loop) owns every map in RunTestsFeature: runs in flight, the
//    debounce timers, and the diagnostics each source file's last run published. A run starts
//    on the loop: it snapshots the open documents (the overlay: the unsaved text is what runs,
//    and what positions are computed against), copies the config, begins $/progress, links the
//    request's cancel token to the run's own CancellationSource, and posts to the pool.
//  - the Server's THREAD POOL discovers the tests once (off the loop: it reads files) to know
//    how many will run (the progress percentage), then calls TestService::start(), which only
//    enqueues. A newer run for the same file cancels the older one on the loop before the newer
//    is posted, and start() is called under `guard_->mutex` only for runs not cancelled, so an
//    older run can never start after (and so supersede) a newer one.
//  - the TestService's WORKERS run the sandbox; per finished test they report progress (Progress
//    is any-thread), and at the end they convert the result to LSP diagnostics (pure work on the
//    run's own snapshot) and post the completion to the loop, which publishes, ends the progress
//    and replies. Posting everything through the loop keeps the order begin -> reports -> end ->
//    reply, and keeps all shared state loop-only.
//
// Lifetime: the feature lives in the Server's handler closures, so it is destroyed with the
// Server, after the Server's pool was joined and its outbox detached. Worker callbacks reach
// the feature only through `guard_` (alive flag + mutex): the destructor clears the flag, then
// destroys the TestService (which cancels and joins its workers), so no callback runs against
// a dead feature, and none reaches the Server except through postToLoop (dropped once the
// session ended). Callbacks never hold the feature itself (a worker must not be the one that
// destroys the TestService that owns it).
//
// Warm-up: an open or an edit of a file with tests announces a save, and the save a run. While
// the user types, the loop (throttled per file) posts a TestService::prepare() to the pool, which
// starts the run's interpreter in a spare; the run on save then starts warm, not cold.
//
// Cancellation: `$/cancelRequest` and a cancel pressed on the request's progress cancel the
// request's token; the Server answers -32800 at once; the linked run source kills the sandbox
// (TestService passes its eventfd to the sandbox). Runs this feature cancels itself (superseded
// by a newer run of the same file, greenlight.cancel, didClose, shutdown) answer -32800 here.
#include "lsp/features/RunTests.h"

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>

#include "core/testing/Discovery.h"
#include "core/testing/TestIds.h"
#include "core/testing/TestService.h"
#include "core/testing/adapters/TestJob.h"
#include "lsp/Server.h"
#include "lsp/features/RunTestsDiagnostics.h"
#include "lsp/features/RunTestsSourceFor.h"
#include "lsp/features/TestBoard.h"
#include "lsp/features/TestFeed.h"
#include "protocol/Uri.h"
#include "support/Log.h"

namespace greenlight::lsp {
namespace {

namespace ct = greenlight::core::testing;
namespace fs = std::filesystem;

constexpr const char* kRunCommand = "greenlight.runTests";
constexpr auto kDebounce = std::chrono::milliseconds(300);
// How often edits of one file may ask for its interpreter to be started ahead. The builder
// keeps at most one spare per shape and drops it after 60 s unused (sandbox kSpareIdleSeconds):
// an edit at least this long after the last ask brings a dropped one back.
constexpr auto kWarmUpEvery = std::chrono::seconds(20);

std::string normalise(const std::string& path) {
  std::string out = fs::path(path).lexically_normal().string();
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string summaryText(const ct::Summary& s, bool cached) {
  std::ostringstream out;
  out << s.passed << " passed, " << s.failed << " failed";
  if (s.errors) out << ", " << s.errors << (s.errors == 1 ? " error" : " errors");
  if (s.skipped) out << ", " << s.skipped << " skipped";
  if (cached) out << " (cached)";
  return out.str();
}

struct Guard {
  std::mutex mutex;
  bool alive = true;
};

using Docs = std::map<std::string, core::DocumentSnapshot>;  // by normalised path

// What a run reads instead of the disk: the open documents' text, as they were snapshot.
ct::OverlayProvider overlayOf(std::shared_ptr<const Docs> docs) {
  return [docs = std::move(docs)](const std::string& path) -> std::optional<std::string> {
    auto it = docs->find(normalise(path));
    if (it == docs->end()) return std::nullopt;
    return it->second.text;
  };
}

struct Run {
  std::uint64_t id = 0;
  std::string key;      // the file under test (normalised)
  std::string trigger;  // the file that asked (a saved test file maps to its source)
  std::optional<int> line;
  support::CancellationSource cancel;
  std::optional<RequestContext> ctx;  // set for greenlight.runTests
  int ctxRegistration = -1;
  std::shared_ptr<Progress> progress;
  std::shared_ptr<const Docs> docs;
  core::Config config;
  std::string workspaceRoot;
  protocol::PositionEncoding encoding = protocol::PositionEncoding::Utf16;
  std::string cancelReason;  // set on the loop when this feature cancels the run
  int total = 0;             // tests expected (0: unknown); written before start()
  std::atomic<int> finished{0};
  std::vector<std::string> tests;        // greenlight.runTests' `tests`: run only these ids
  std::shared_ptr<TestFeed::Run> feed;   // greenlight/testResults
};

// The tests a run of `plan` will report, for the feed's "queued": the whole tree, or the tests
// under the ids the editor asked for, or those the line narrowing selected.
std::vector<ct::TestNode> queuedTests(const ct::TestPlan& plan, const ct::OverlayProvider& overlay,
                                      const std::vector<std::string>& ids) {
  auto tree = ct::testTree(plan, overlay);
  std::set<std::string> wanted(ids.begin(), ids.end());
  if (wanted.empty() && !plan.selected.empty()) {
    for (const auto& n : tree) {
      if (n.kind != ct::TestNodeKind::Test) continue;
      for (const auto& name : plan.selected)
        if (ct::testId(plan.workspaceRoot, n.file, name) == n.id) wanted.insert(n.id);
      for (const auto& fn : plan.doctestFunctions)
        if (ct::testId(plan.workspaceRoot, n.file, "doctest:" + fn) == n.id) wanted.insert(n.id);
    }
  }
  if (wanted.empty()) return tree;
  std::vector<ct::TestNode> out;
  for (const auto& n : tree) {
    // A node is wanted when it or one of its ancestors was asked for.
    for (std::string id = n.id; !id.empty(); id = ct::parentTestId(id)) {
      if (wanted.count(id)) {
        out.push_back(n);
        break;
      }
    }
  }
  return out;
}

struct Completion {
  ct::RunOutcome outcome;
  std::map<std::string, FileDiagnostics> diagnostics;
};

class RunTestsFeature {
 public:
  RunTestsFeature(Server& server, std::shared_ptr<TestBoard> board) : server_(server), board_(std::move(board)) {}
  ~RunTestsFeature() {
    {
      std::lock_guard<std::mutex> lock(guard_->mutex);
      guard_->alive = false;
    }
    for (auto& [id, run] : runs_) run->cancel.cancel();
    // service_ (the last member) is destroyed next: it cancels and joins its workers.
  }
  RunTestsFeature(const RunTestsFeature&) = delete;
  RunTestsFeature& operator=(const RunTestsFeature&) = delete;

  void executeRun(const std::vector<protocol::Json>& args, RequestContext ctx);
  void didSave(const DocumentEvent& e);
  void warmUp(const DocumentEvent& e);  // didOpen, didChange
  void didClose(const DocumentEvent& e);
  void cancelAll(const std::string& why);
  // greenlight.cancel: every run (and pending debounced run-on-save), or those of `path`.
  std::size_t cancelFor(const std::optional<std::string>& path, const std::string& why);

 private:
  bool exists(const std::string& path) {
    if (server_.documents().getByPath(path)) return true;
    std::error_code ec;
    return fs::is_regular_file(path, ec);
  }
  std::string keyFor(const std::string& path) {
    return sourceFor(path, [this](const std::string& p) { return exists(p); }).value_or(path);
  }
  std::shared_ptr<const Docs> snapshotDocs();
  std::string workspaceRootFor(const std::string& key);
  void startRun(const std::string& key, const std::string& trigger, std::optional<int> line,
                std::optional<RequestContext> ctx, std::vector<std::string> tests = {});
  void prepareAndStart(const std::shared_ptr<Run>& run);  // pool thread
  void onDone(const std::shared_ptr<Run>& run, const ct::RunOutcome& outcome);  // service worker
  void complete(const std::shared_ptr<Run>& run, Completion completion);        // loop
  std::size_t cancelWhere(const std::function<bool(const Run&)>& match, const std::string& why);

  Server& server_;
  std::shared_ptr<TestBoard> board_;
  std::shared_ptr<Guard> guard_ = std::make_shared<Guard>();
  std::uint64_t nextRunId_ = 1;
  // ---- loop only
  std::map<std::uint64_t, std::shared_ptr<Run>> runs_;
  struct Debounce {
    std::unique_ptr<boost::asio::steady_timer> timer;
    std::uint64_t generation = 0;
  };
  std::map<std::string, Debounce> debounce_;  // by saved path
  std::map<std::string, std::chrono::steady_clock::time_point> warmedAt_;  // by edited path: last warm-up
  // ---- last: destroyed first (see the essay)
  ct::TestService service_;
};

void RunTestsFeature::executeRun(const std::vector<protocol::Json>& args, RequestContext ctx) {
  protocol::JsonPath root;
  protocol::JsonPath arg = root.index(0);
  if (args.empty()) throw protocol::JsonError(arg, "missing: expected {uri, position?}");
  const protocol::Json& a = args[0];
  protocol::requireObject(a, arg);
  std::string uri;
  std::optional<protocol::Position> position;
  std::vector<std::string> tests;
  protocol::requiredField(a, "uri", uri, arg);
  protocol::optionalField(a, "position", position, arg);
  if (a.contains("tests") && !a["tests"].is_null()) {
    protocol::JsonPath testsPath = arg.field("tests");
    if (!a["tests"].is_array()) throw protocol::JsonError(testsPath, "expected an array of test ids");
    for (std::size_t i = 0; i < a["tests"].size(); ++i) {
      std::string id;
      protocol::fromJson(a["tests"][i], id, testsPath.index(i));
      tests.push_back(std::move(id));
    }
  }
  protocol::JsonPath uriPath = arg.field("uri");
  std::string error;
  auto path = protocol::pathFromUri(uri, &error);
  if (!path) throw protocol::JsonError(uriPath, error);
  std::string file = normalise(*path);
  if (!exists(file)) throw protocol::JsonError(uriPath, "no such file: " + file);

  std::string key = keyFor(file);
  std::optional<int> line;
  // A position in a test file does not name a function of the source: run all its tests.
  if (position && key == file && tests.empty()) line = static_cast<int>(position->line) + 1;
  startRun(key, file, line, std::move(ctx), std::move(tests));
}

std::size_t RunTestsFeature::cancelFor(const std::optional<std::string>& path, const std::string& why) {
  std::size_t n = 0;
  for (auto& [saved, d] : debounce_) {
    if (path && saved != *path) continue;
    ++d.generation;
    if (d.timer) d.timer->cancel();
  }
  n += cancelWhere([&](const Run& r) { return !path || r.key == *path || r.trigger == *path; }, why);
  return n;
}

void RunTestsFeature::cancelAll(const std::string& why) {
  for (auto& [path, d] : debounce_) {
    ++d.generation;
    d.timer->cancel();
  }
  cancelWhere([](const Run&) { return true; }, why);
}

std::size_t RunTestsFeature::cancelWhere(const std::function<bool(const Run&)>& match, const std::string& why) {
  std::size_t n = 0;
  for (auto& [id, run] : runs_) {
    if (!match(*run) || run->cancel.isCancelled()) continue;
    run->cancelReason = why;
    run->cancel.cancel();
    ++n;
  }
  return n;
}

void RunTestsFeature::didSave(const DocumentEvent& e) {
  const core::Config& config = server_.config();
  if (!config.runOnSave || e.path.empty()) return;
  std::string path = normalise(e.path);
  if (!ct::languageForPath(path) && !config.testsCommand) return;  // nothing could run it
  std::string key = keyFor(path);
  // The run in flight tests text that is no longer saved: stop it now, not after the debounce.
  cancelWhere([&](const Run& r) { return r.key == key; }, "superseded by a newer save");
  Debounce& d = debounce_[path];
  if (!d.timer) d.timer = std::make_unique<boost::asio::steady_timer>(server_.ioContext());
  std::uint64_t generation = ++d.generation;
  d.timer->expires_after(kDebounce);
  d.timer->async_wait([this, guard = guard_, path, generation](const boost::system::error_code& ec) {
    if (ec) return;
    {
      std::lock_guard<std::mutex> lock(guard->mutex);
      if (!guard->alive) return;
    }
    auto it = debounce_.find(path);
    if (it == debounce_.end() || it->second.generation != generation) return;
    if (!exists(path)) return;
    startRun(keyFor(path), path, std::nullopt, std::nullopt);
  });
}

void RunTestsFeature::warmUp(const DocumentEvent& e) {
  const core::Config& config = server_.config();
  if (!config.runOnSave || !config.sandbox.warmInterpreters || e.path.empty()) return;
  std::string path = normalise(e.path);
  auto language = ct::languageForPath(path);
  // Only interpreters start ahead; a tests.command or a C++ build has nothing to warm.
  if (!language || (*language != ct::Language::Python && *language != ct::Language::JavaScript)) return;
  // Throttled before anything else: this runs on the loop for every keystroke, and keyFor()
  // looks at the disk.
  const auto now = std::chrono::steady_clock::now();
  auto [it, first] = warmedAt_.try_emplace(path, now);
  if (!first && now - it->second < kWarmUpEvery) return;
  it->second = now;
  std::string key = keyFor(path);
  ct::RunRequest request;
  request.path = key;
  request.workspaceRoot = workspaceRootFor(key);
  request.config = config;
  request.overlay = overlayOf(snapshotDocs());
  // Discovery and staging read files: off the loop. A file with no tests prepares nothing.
  server_.threadPool().post([this, guard = guard_, request = std::move(request)]() mutable {
    std::lock_guard<std::mutex> lock(guard->mutex);
    if (guard->alive) service_.prepare(std::move(request));
  });
}

std::shared_ptr<const Docs> RunTestsFeature::snapshotDocs() {
  auto docs = std::make_shared<Docs>();
  for (auto& doc : server_.documents().snapshot()) {
    if (!doc.path.empty()) (*docs)[normalise(doc.path)] = std::move(doc);
  }
  return docs;
}

std::string RunTestsFeature::workspaceRootFor(const std::string& key) {
  // The editor's folder bounds the search for nearby tests, when the file is inside it.
  if (const auto& root = server_.workspaceRoot()) {
    auto rel = fs::path(key).lexically_relative(normalise(*root));
    if (!rel.empty() && *rel.begin() != "..") return normalise(*root);
  }
  return {};
}

void RunTestsFeature::didClose(const DocumentEvent& e) {
  if (e.path.empty()) return;
  std::string path = normalise(e.path);
  warmedAt_.erase(path);
  auto it = debounce_.find(path);
  if (it != debounce_.end()) {
    ++it->second.generation;
    it->second.timer->cancel();
  }
  cancelWhere([&](const Run& r) { return r.key == path || r.trigger == path; }, "the document was closed");
}

void RunTestsFeature::startRun(const std::string& key, const std::string& trigger, std::optional<int> line,
                               std::optional<RequestContext> ctx, std::vector<std::string> tests) {
  // A newer run of the same file supersedes the older (TestService::start() would too, but
  // only once the newer reaches it; cancelling here also covers runs not started yet).
  cancelWhere([&](const Run& r) { return r.key == key; }, "superseded by a newer run of " + key);

  auto run = std::make_shared<Run>();
  run->id = nextRunId_++;
  run->key = key;
  run->trigger = trigger;
  run->line = line;
  run->config = server_.config();
  run->encoding = server_.positionEncoding();
  run->docs = snapshotDocs();
  run->workspaceRoot = workspaceRootFor(key);
  run->tests = std::move(tests);
  {
    auto doc = server_.documents().getByPath(key);
    run->feed = board_->feed().begin(doc ? doc->uri : protocol::uriFromPath(key), ctx ? "runTests" : "save",
                                     testIdRoot(server_.workspaceRoot(), key), key);
  }
  const std::string title = "Running tests";
  const std::string name = fs::path(key).filename().string();
  if (ctx) {
    run->progress = ctx->beginProgress(title, name, true);
    support::CancellationSource source = run->cancel;
    run->ctxRegistration = ctx->cancel.onCancel([source]() mutable { source.cancel(); });
    run->ctx = std::move(ctx);
  } else {
    std::weak_ptr<Run> weak = run;
    run->progress = server_.beginProgress(title, name, true, [weak] {
      if (auto r = weak.lock()) {
        r->cancelReason = "cancelled in the editor";
        r->cancel.cancel();
      }
    });
  }
  runs_[run->id] = run;
  GL_LOG(Debug, "runTests: run " << run->id << " for " << key << (line ? ":" + std::to_string(*line) : "")
                                 << " (asked by " << trigger << ")");
  bool posted = server_.threadPool().post([this, guard = guard_, run] {
    {
      std::lock_guard<std::mutex> lock(guard->mutex);
      if (!guard->alive) return;
    }
    prepareAndStart(run);
  });
  if (!posted) {
    run->cancelReason = "the server is shutting down";
    run->cancel.cancel();
    Completion c;
    c.outcome.result.file = key;
    c.outcome.result.cancelled = true;
    complete(run, std::move(c));
  }
}

void RunTestsFeature::prepareAndStart(const std::shared_ptr<Run>& run) {
  ct::OverlayProvider overlay = overlayOf(run->docs);
  std::vector<std::string> selection;  // greenlight.runTests' `tests`, as the runner's names
  // Discovery once more, here, only to know how many tests to expect (the percentage); the
  // engine discovers again on its worker (cheap: a scan of a few files).
  if (!run->cancel.isCancelled()) {
    ct::DiscoveryRequest dr;
    dr.path = run->key;
    dr.line = run->line;
    dr.workspaceRoot = run->workspaceRoot;
    dr.config = &run->config;
    dr.overlay = overlay;
    std::string error;
    if (auto plan = ct::discoverTests(dr, &error)) {
      if (!run->tests.empty()) {
        // Only what the editor asked for, when the runner can be narrowed to it (a describe
        // block or a whole file runs the whole plan; the feed still reports every result).
        if (auto names = ct::selectionForIds(*plan, run->tests, overlay)) {
          plan->selected = *names;
          selection = std::move(*names);
        }
      }
      if (!plan->hasDoctests) run->total = static_cast<int>(plan->selected.empty() ? plan->staticTests.size() : plan->selected.size());
      run->feed->queue(queuedTests(*plan, overlay, selection.empty() ? std::vector<std::string>() : run->tests));
    }
  }

  ct::RunRequest request;
  request.path = run->key;
  request.line = run->line;
  request.selectTests = selection;
  request.workspaceRoot = run->workspaceRoot;
  request.config = run->config;
  request.overlay = overlay;
  request.cancel = run->cancel.token();
  request.onTest = [run](const ct::TestResult& t) {
    run->feed->add(t);
    int n = ++run->finished;
    std::optional<int> percentage;
    if (run->total > 0 && n <= run->total) percentage = n * 100 / run->total;
    run->progress->report(t.name + " " + std::string(ct::testStatusName(t.status)), percentage);
  };
  request.onDone = [this, guard = guard_, run](const ct::RunOutcome& outcome) {
    {
      std::lock_guard<std::mutex> lock(guard->mutex);
      if (!guard->alive) return;
    }
    onDone(run, outcome);
  };

  std::lock_guard<std::mutex> lock(guard_->mutex);
  if (!guard_->alive) return;
  if (run->cancel.isCancelled()) {
    // Superseded or cancelled before it started: never start it (it would cancel a newer run).
    Completion c;
    c.outcome.result.file = run->key;
    c.outcome.result.cancelled = true;
    server_.postToLoop([this, guard = guard_, run, c = std::move(c)]() mutable {
      if (guard->alive) complete(run, std::move(c));
    });
    return;
  }
  service_.start(std::move(request));
}

void RunTestsFeature::onDone(const std::shared_ptr<Run>& run, const ct::RunOutcome& outcome) {
  Completion c;
  c.outcome = outcome;
  const ct::RunResult& result = outcome.result;
  if (!result.cancelled && result.error.empty()) {
    std::shared_ptr<const Docs> docs = run->docs;
    FileSource files = [docs](const std::string& path) {
      FileState state;
      auto it = docs->find(normalise(path));
      if (it != docs->end()) {
        state.text = it->second.text;
        state.uri = it->second.uri;
        state.version = it->second.version;
      } else {
        state.text = ct::readSource(path, nullptr);
      }
      return state;
    };
    try {
      c.diagnostics = toLspDiagnostics(result, files, run->encoding, run->config.cxxCompiler);
      addNotRunDiagnostics(c.diagnostics, result, run->line, files, run->encoding);
    } catch (const std::exception& e) {
      c.outcome.result.error = std::string("converting the run's diagnostics: ") + e.what();
    }
  }
  std::lock_guard<std::mutex> lock(guard_->mutex);
  if (!guard_->alive) return;
  server_.postToLoop([this, guard = guard_, run, c = std::move(c)]() mutable {
    if (guard->alive) complete(run, std::move(c));
  });
}

void RunTestsFeature::complete(const std::shared_ptr<Run>& run, Completion c) {
  runs_.erase(run->id);
  if (run->ctx && run->ctxRegistration >= 0) run->ctx->cancel.removeCallback(run->ctxRegistration);
  const ct::RunResult& result = c.outcome.result;
  const std::string name = fs::path(run->key).filename().string();

  // A run cancelled after its result was computed is stale too (a newer run owns the file now).
  if (result.cancelled || run->cancel.isCancelled()) {
    board_->feed().finish(run->feed, nullptr, true);
    run->progress->end("cancelled");
    // A request cancelled by the client was answered -32800 by the Server already (the Reply
    // drops a second answer); one this feature cancelled is answered here.
    if (run->ctx && !run->ctx->cancel.isCancelled()) {
      run->ctx->reply.error(protocol::ErrorCode::RequestCancelled,
                            "greenlight.runTests: " + (run->cancelReason.empty() ? "cancelled" : run->cancelReason));
    }
    return;
  }
  if (!result.error.empty()) {
    board_->feed().finish(run->feed, nullptr, false, result.error);
    run->progress->end("failed: " + result.error);
    if (run->ctx) {
      run->ctx->reply.error(protocol::ErrorCode::RequestFailed, "greenlight.runTests: " + result.error);
    } else {
      server_.logMessage(protocol::MessageType::Warning, "greenlight: running the tests of " + run->key + ": " + result.error);
    }
    return;
  }

  board_->feed().finish(run->feed, &result, false);
  board_->publish(run->key, c.diagnostics);
  if (!c.outcome.noTests) board_->recordResults(run->key, result);
  protocol::Json reply{{"file", run->key},
                       {"passed", result.summary.passed},
                       {"failed", result.summary.failed},
                       {"errors", result.summary.errors},
                       {"skipped", result.summary.skipped},
                       {"cached", result.cached}};
  if (!result.discoveryNote.empty()) reply["discovery"] = result.discoveryNote;
  if (c.outcome.noTests) {
    reply["noTests"] = true;
    run->progress->end("no tests found near " + name + (result.discoveryNote.empty() ? "" : ": " + result.discoveryNote));
  } else {
    if (result.cached) {
      // The engine reports nothing per test for a cached run: replay the results.
      int n = 0, total = static_cast<int>(result.tests.size());
      for (const auto& t : result.tests) {
        ++n;
        run->progress->report(t.name + " " + std::string(ct::testStatusName(t.status)), n * 100 / total);
      }
    }
    run->progress->end(summaryText(result.summary, result.cached));
  }
  if (run->ctx) run->ctx->reply.result(std::move(reply));
}

}  // namespace

void registerRunTests(Server& server, const std::shared_ptr<TestBoard>& board) {
  auto feature = std::make_shared<RunTestsFeature>(server, board);
  server.onCommand(kRunCommand, [feature](const std::vector<protocol::Json>& args, RequestContext ctx) {
    feature->executeRun(args, std::move(ctx));
  });
  // Weak: the board is owned by the features (and the feature by the server's hooks), so a
  // strong reference here would be a cycle that keeps the feature and its workers alive after
  // the server is gone.
  board->addCanceller([weak = std::weak_ptr(feature)](const std::optional<std::string>& path, const std::string& why) -> std::size_t {
    auto feature = weak.lock();
    if (!feature) return 0;
    return feature->cancelFor(path, why);
  });
  server.onDidSave([feature](const DocumentEvent& e) { feature->didSave(e); });
  server.onDidOpen([feature](const DocumentEvent& e) { feature->warmUp(e); });
  server.onDidChange([feature](const DocumentEvent& e) { feature->warmUp(e); });
  server.onDidClose([feature](const DocumentEvent& e) { feature->didClose(e); });
  server.onShutdown([feature] { feature->cancelAll("the server is shutting down"); });
}

}  // namespace greenlight::lsp
