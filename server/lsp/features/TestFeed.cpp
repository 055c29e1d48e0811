#include "lsp/features/TestFeed.h"

#include <filesystem>

#include "core/testing/Discovery.h"
#include "lsp/Server.h"
#include "protocol/Uri.h"

namespace greenlight::lsp {
namespace {

namespace ct = core::testing;
namespace fs = std::filesystem;
using protocol::Json;

// At most one `running` notification per run this often: a suite of 500 fast tests is a handful
// of notifications, and a slow test still shows within a blink of finishing.
constexpr auto kFlushEvery = std::chrono::milliseconds(100);

std::string normalise(const std::string& path) {
  std::string out = fs::path(path).lexically_normal().string();
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

const char* statusName(ct::TestStatus s) {
  switch (s) {
    case ct::TestStatus::Passed: return "passed";
    case ct::TestStatus::Failed: return "failed";
    case ct::TestStatus::Error: return "errored";
    case ct::TestStatus::Timeout: return "errored";
    case ct::TestStatus::Skipped: return "skipped";
  }
  return "errored";
}

Json location(const std::string& file, int line) {
  std::uint32_t l = line > 0 ? static_cast<std::uint32_t>(line - 1) : 0;
  return Json{{"uri", protocol::uriFromPath(file)},
              {"range", {{"start", {{"line", l}, {"character", 0}}}, {"end", {{"line", l}, {"character", 0}}}}}};
}

bool under(const std::string& root, const std::string& file) {
  if (root.empty()) return false;
  auto rel = fs::path(file).lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// Where a failure shows: the assertion in the test's own file, else the innermost frame in the
// workspace, else the test's definition.
std::optional<Json> failureLocation(const std::string& root, const ct::TestResult& t) {
  for (auto it = t.frames.rbegin(); it != t.frames.rend(); ++it)
    if (!it->file.empty() && it->line > 0 && normalise(it->file) == normalise(t.file)) return location(it->file, it->line);
  for (auto it = t.frames.rbegin(); it != t.frames.rend(); ++it)
    if (!it->file.empty() && it->line > 0 && under(root, normalise(it->file))) return location(it->file, it->line);
  if (!t.file.empty()) return location(t.file, t.line);
  return std::nullopt;
}

}  // namespace

std::string testIdRoot(const std::optional<std::string>& workspaceFolder, const std::string& key) {
  if (workspaceFolder && under(normalise(*workspaceFolder), normalise(key))) return normalise(*workspaceFolder);
  return normalise(ct::findWorkspaceRoot(key));
}

Json testResultJson(const std::string& root, const std::string& defaultFile, const ct::TestResult& t) {
  const std::string file = t.file.empty() ? defaultFile : t.file;
  const std::string id = ct::testId(root, file, t.name, t.id);
  std::string parent = ct::parentTestId(id);
  if (parent.empty() && id.find("::") == std::string::npos) parent = ct::testFileKey(root, defaultFile);
  Json j{{"id", id}, {"label", ct::testIdLabel(id)}, {"parent", parent.empty() ? Json() : Json(parent)},
         {"status", statusName(t.status)}};
  if (!t.outcome.empty()) j["outcome"] = t.outcome;
  else if (t.status == ct::TestStatus::Timeout) j["outcome"] = "timeout";
  j["durationMs"] = t.durationMs;
  std::string message = t.message;
  if (message.empty() && t.status == ct::TestStatus::Skipped) message = t.reason;
  if (!t.details.empty()) message += (message.empty() ? "" : "\n") + t.details;
  if (!message.empty()) j["message"] = message;
  if (!t.expected.empty()) j["expected"] = t.expected;
  if (!t.actual.empty()) j["actual"] = t.actual;
  std::optional<Json> where;
  if (t.status == ct::TestStatus::Failed || t.status == ct::TestStatus::Error || t.status == ct::TestStatus::Timeout)
    where = failureLocation(root, t);
  else if (!t.file.empty())
    where = location(t.file, t.line);
  if (where) j["location"] = *where;
  return j;
}

void TestFeed::Run::queue(const std::vector<ct::TestNode>& tests) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  for (const auto& n : tests) {
    if (n.kind != ct::TestNodeKind::Test && n.kind != ct::TestNodeKind::Case) continue;
    pending_.push_back(Json{{"id", n.id}, {"label", n.label}, {"parent", n.parent.empty() ? Json() : Json(n.parent)},
                            {"status", "queued"}});
  }
}

void TestFeed::Run::add(const ct::TestResult& result) {
  Json j = testResultJson(root_, defaultFile_, result);
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  pending_.push_back(j);
  done_.push_back(std::move(j));
}

TestFeed::~TestFeed() {
  if (timer_) timer_->cancel();
}

std::shared_ptr<TestFeed::Run> TestFeed::begin(const std::string& uri, const std::string& trigger, const std::string& root,
                                               const std::string& defaultFile) {
  auto run = std::make_shared<Run>();
  run->id_ = nextId_++;
  run->uri_ = uri;
  run->trigger_ = trigger;
  run->root_ = root;
  run->defaultFile_ = defaultFile;
  active_.push_back(run);
  send(*run, "started", {});
  schedule();
  return run;
}

void TestFeed::finish(const std::shared_ptr<Run>& run, const ct::RunResult* result, bool cancelled, const std::string& error) {
  if (!run) return;
  std::vector<Json> done;
  {
    std::lock_guard<std::mutex> lock(run->mutex_);
    if (run->closed_) return;
    run->closed_ = true;
    done = std::move(run->done_);
    run->pending_.clear();
  }
  std::erase(active_, run);
  std::vector<Json> all;
  if (result) {
    for (const auto& t : result->tests) all.push_back(testResultJson(run->root_, run->defaultFile_, t));
  } else if (cancelled) {
    all = std::move(done);  // what finished before the cancel still happened; the rest did not run
  }
  // What the run executed of the covered files (issue 35): every executable line with its count.
  Json coverage = nullptr;
  if (result && !cancelled && !result->coverage.empty()) {
    coverage = Json::array();
    for (const auto& fc : result->coverage) {
      Json lines = Json::array();
      for (const auto& [line, n] : fc.hits) lines.push_back(Json::array({line, n}));
      coverage.push_back(Json{{"uri", protocol::uriFromPath(fc.file)}, {"lines", std::move(lines)}});
    }
  }
  // Why a run has no coverage when greenlight dropped it (RunResult::coverageNote).
  const std::string note = result && !cancelled ? result->coverageNote : std::string();
  send(*run, cancelled ? "cancelled" : "finished", std::move(all), error, std::move(coverage), note);
}

void TestFeed::send(Run& run, const char* state, std::vector<Json> results, const std::string& error, Json coverage,
                    const std::string& coverageNote) {
  Json r{{"id", run.id_}, {"trigger", run.trigger_}, {"state", state}};
  if (!error.empty()) r["error"] = error;
  if (!coverageNote.empty()) r["coverageNote"] = coverageNote;
  Json params{{"uri", run.uri_}, {"run", std::move(r)}, {"results", Json(std::move(results))}};
  if (!coverage.is_null()) params["coverage"] = std::move(coverage);
  server_.sendNotification("greenlight/testResults", std::move(params));
}

void TestFeed::schedule() {
  if (ticking_ || active_.empty()) return;
  if (!timer_) timer_ = std::make_unique<boost::asio::steady_timer>(server_.ioContext());
  ticking_ = true;
  timer_->expires_after(kFlushEvery);
  timer_->async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (!self || ec) return;
    self->ticking_ = false;
    self->flush();
    self->schedule();
  });
}

void TestFeed::flush() {
  for (const auto& run : std::vector<std::shared_ptr<Run>>(active_)) {
    std::vector<Json> pending;
    {
      std::lock_guard<std::mutex> lock(run->mutex_);
      pending = std::move(run->pending_);
      run->pending_.clear();
    }
    if (!pending.empty()) send(*run, "running", std::move(pending));
  }
}

}  // namespace greenlight::lsp
