// `greenlight.generate` and `greenlight.fix`: the refine loop (core/refine/Engine.h) behind a
// cancellable $/progress, ending in ONE versioned workspace/applyEdit (DESIGN.md "LSP surface";
// the wire details are those of the generate/fix contract the editors test against).
//
// ## Threading model
//
//  - The LOOP owns the jobs map and everything that talks about documents: a command is parsed,
//    its target found (cheap, on the document's current text), an older job on the same target
//    superseded, the progress begun, and the job posted to the pool. Completion comes back to
//    the loop (postToLoop), which rebases the edit onto the text the document has NOW, sends the
//    applyEdit, publishes diagnostics and replies. All feature state is loop-only.
//  - A POOL thread runs one job start to end: provider resolution (it may probe local servers
//    for a second or two), then RefineEngine::run, which blocks that thread for the whole loop
//    (the model streams on the ChatClient's I/O thread, the tests run in the sandbox under that
//    pool thread). Progress reports are sent from there (Progress is any-thread).
//  - Cancellation: $/cancelRequest or the progress' cancel (the Server cancels the request's
//    token and answers -32800), greenlight.cancel, didClose of the document, a newer job on
//    the same target, and shutdown all cancel the job's own CancellationSource, which the engine
//    checks before every long step and which stops the model call and the sandbox at once.
//    Jobs this feature cancelled itself are answered -32800 here.
//
// Lifetime: as RunTests.cpp: the feature lives in the Server's handler closures; pool work
// reaches it only through `guard_` (alive flag + mutex) and posts back through postToLoop.
#include "lsp/features/Generate.h"

#include <sys/stat.h>

#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>

#include "core/providers/ChatClient.h"
#include "core/providers/Resolve.h"
#include "core/refine/Engine.h"
#include "core/refine/ResultJson.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "lsp/Server.h"
#include "lsp/features/FixLocation.h"
#include "lsp/features/GenerateEdit.h"
#include "lsp/features/RunTestsDiagnostics.h"
#include "lsp/features/TestBoard.h"
#include "lsp/features/TestFeed.h"
#include "protocol/Uri.h"
#include "support/Log.h"

namespace greenlight::lsp {
namespace {

namespace fs = std::filesystem;
namespace ct = core::testing;
namespace rf = core::refine;
namespace pv = core::providers;

constexpr const char* kGenerateCommand = "greenlight.generate";
constexpr const char* kFixCommand = "greenlight.fix";
constexpr const char* kShowBest = "Show best attempt";
constexpr const char* kRetry = "Retry with more rounds";

std::string normalise(const std::string& path) { return fs::path(path).lexically_normal().string(); }

std::string displayName(const rf::Target& t) {
  return t.name.empty() ? std::string("code") : t.name + "()";
}

struct Guard {
  std::mutex mutex;
  bool alive = true;
};

struct Job {
  std::uint64_t id = 0;
  bool fix = false;
  std::string uri, path;
  int line = 0;  // 1-based, in startText
  rf::Target target;
  std::string startText;
  std::optional<std::int64_t> startVersion;
  core::Config config;
  std::string workspaceRoot;
  protocol::PositionEncoding encoding = protocol::PositionEncoding::Utf16;
  int rounds = 0, candidates = 0;
  support::CancellationSource cancel;
  std::optional<RequestContext> ctx;  // unset for a server-initiated retry
  int ctxRegistration = -1;
  std::shared_ptr<Progress> progress;
  std::string cancelReason;
  std::shared_ptr<const std::map<std::string, std::string>> overlay;  // other open documents
  bool retriedApply = false;
  bool confirmed = false;  // the user said yes to applying unverified code
  std::shared_ptr<TestFeed::Run> feed;  // greenlight/testResults of the chosen candidate's run
  std::optional<rf::AcceptedTests> tests;  // tests first: the tests the user accepted (the whole file)
};

class GenerateFeature {
 public:
  GenerateFeature(Server& server, std::shared_ptr<TestBoard> board) : server_(server), board_(std::move(board)) {}
  ~GenerateFeature() {
    {
      std::lock_guard<std::mutex> lock(guard_->mutex);
      guard_->alive = false;
    }
    for (auto& [id, job] : jobs_) job->cancel.cancel();
  }
  GenerateFeature(const GenerateFeature&) = delete;
  GenerateFeature& operator=(const GenerateFeature&) = delete;

  void execute(const std::vector<protocol::Json>& args, RequestContext ctx, bool fix);
  std::size_t cancelFor(const std::optional<std::string>& path, const std::string& why);
  void didChange(const DocumentEvent& e);

 private:
  void start(std::shared_ptr<Job> job);
  void work(const std::shared_ptr<Job>& job);  // pool thread
  void finish(const std::shared_ptr<Job>& job, rf::RefineResult result, std::string noProvider);  // loop
  void applyResult(const std::shared_ptr<Job>& job, const rf::RefineResult& result);             // loop
  std::string addTestsEdit(const std::shared_ptr<Job>& job, const rf::TestsOutcome& tests, protocol::WorkspaceEdit& edit,
                           bool annotate);  // loop
  void reply(const std::shared_ptr<Job>& job, const rf::RefineResult& result, bool applied);
  void publishBestAttempt(const std::shared_ptr<Job>& job, const rf::RefineResult& result);
  void clearFixed(const std::shared_ptr<Job>& job, const rf::RefineResult& result);
  void offerFollowUps(const std::shared_ptr<Job>& job, const rf::RefineResult& result);
  std::optional<std::string> writeBestAttempt(const std::shared_ptr<Job>& job, const rf::RefineResult& result);
  std::optional<std::string> textOf(const std::string& path);

  Server& server_;
  std::shared_ptr<TestBoard> board_;
  std::shared_ptr<Guard> guard_ = std::make_shared<Guard>();
  std::uint64_t nextId_ = 1;
  // ---- loop only
  std::map<std::uint64_t, std::shared_ptr<Job>> jobs_;
  // Waiting for the next didChange of a URI to re-send a refused edit (a client that refuses
  // an edit for a version it has not yet reported, e.g. Neovim's 150 ms change debounce).
  std::map<std::string, std::vector<std::function<void()>>> onNextChange_;
  // ---- any thread (the pool), created on first use
  std::mutex clientMutex_;
  std::unique_ptr<pv::ChatClient> client_;
  std::unique_ptr<ct::TestService> tests_;
};

std::optional<std::string> GenerateFeature::textOf(const std::string& path) {
  if (auto t = server_.documents().textForPath(path)) return t;
  return ct::readSource(path, nullptr);
}

void GenerateFeature::execute(const std::vector<protocol::Json>& args, RequestContext ctx, bool fix) {
  protocol::JsonPath root;
  protocol::JsonPath arg = root.index(0);
  const char* shape = fix ? "{uri, position, diagnostic}" : "{uri, position, rounds?, candidates?}";
  if (args.empty()) throw protocol::JsonError(arg, std::string("missing: expected ") + shape);
  const protocol::Json& a = args[0];
  protocol::requireObject(a, arg);
  std::string uri;
  protocol::Position position;
  std::optional<int> rounds, candidates;
  protocol::requiredField(a, "uri", uri, arg);
  protocol::requiredField(a, "position", position, arg);
  protocol::optionalField(a, "rounds", rounds, arg);
  protocol::optionalField(a, "candidates", candidates, arg);
  if (rounds && (*rounds < 1 || *rounds > 10)) throw protocol::JsonError(arg.field("rounds"), "expected 1..10");
  if (candidates && (*candidates < 1 || *candidates > 8)) throw protocol::JsonError(arg.field("candidates"), "expected 1..8");
  protocol::Json diagnostic = a.contains("diagnostic") ? a["diagnostic"] : protocol::Json();
  std::string error;
  auto path = protocol::pathFromUri(uri, &error);
  if (!path) throw protocol::JsonError(arg.field("uri"), error);
  std::string file = normalise(*path);
  // Tests first: the tests the user accepted (possibly edited), the whole text of their file.
  std::optional<rf::AcceptedTests> accepted;
  if (!fix && a.contains("tests") && !a["tests"].is_null()) {
    protocol::JsonPath tp = arg.field("tests");
    protocol::requireObject(a["tests"], tp);
    std::string testsUri, testsText;
    protocol::requiredField(a["tests"], "uri", testsUri, tp);
    protocol::requiredField(a["tests"], "text", testsText, tp);
    auto testsPath = protocol::pathFromUri(testsUri, &error);
    if (!testsPath) throw protocol::JsonError(tp.field("uri"), error);
    if (normalise(*testsPath) == file) throw protocol::JsonError(tp.field("uri"), "the tests' file is the file to generate in");
    accepted = rf::AcceptedTests{normalise(*testsPath), std::move(testsText)};
  }

  auto job = std::make_shared<Job>();
  job->fix = fix;
  job->rounds = rounds.value_or(0);
  job->candidates = candidates.value_or(0);
  auto fail = [&](const std::string& why) {
    rf::RefineResult r;
    r.file = file;
    r.error = why;
    r.usageError = true;
    server_.showMessage(protocol::MessageType::Warning, "greenlight: " + why);
    ctx.reply.result(protocol::Json(rf::refineResultToJson(r, false)));
  };
  // Where: the document the command names, or for a fix the function the failure is about.
  int line = static_cast<int>(position.line) + 1;
  if (fix) {
    auto exists = [this](const std::string& p) {
      std::error_code ec;
      return server_.documents().getByPath(p).has_value() || fs::is_regular_file(p, ec);
    };
    auto where = locateFix(file, static_cast<int>(position.line), diagnostic,
                           [this](const std::string& p) { return textOf(p); }, exists, &error);
    if (!where) return fail(error);
    file = normalise(where->path);
    line = where->line;
  }
  auto doc = server_.documents().getByPath(file);
  std::string text;
  if (doc) {
    job->uri = doc->uri;
    job->startVersion = doc->version;
    text = doc->text;
  } else if (auto disk = ct::readSource(file, nullptr)) {
    job->uri = fix ? protocol::uriFromPath(file) : uri;
    text = *disk;
  } else {
    throw protocol::JsonError(arg.field("uri"), "no such file: " + file);
  }
  auto language = ct::languageForPath(file);
  if (!language || *language == ct::Language::Command)
    return fail(file + ": generate and fix support Python, JavaScript and C++ files");
  auto lookup = fix ? rf::findFixTarget(text, line, *language) : rf::findTarget(text, line, *language);
  if (!lookup.target) return fail(lookup.error);
  if (accepted && !server_.clientCapabilities().createFiles && !textOf(accepted->path))
    return fail("the editor cannot create files (workspace.workspaceEdit.resourceOperations lacks \"create\"), so the tests' "
                "file " + accepted->path + " cannot be written; nothing written");
  job->tests = std::move(accepted);
  job->path = file;
  job->line = line;
  job->target = *lookup.target;
  job->startText = std::move(text);
  job->ctx = std::move(ctx);
  start(job);
}

void GenerateFeature::start(std::shared_ptr<Job> job) {
  // A newer generation of the same target supersedes the older; other targets run on.
  for (auto& [id, other] : jobs_) {
    if (other->path != job->path || other->cancel.isCancelled()) continue;
    bool same = other->target.first <= job->target.last + 1 && job->target.first <= other->target.last + 1;
    same = same || (!job->target.commentText.empty() && other->target.commentText == job->target.commentText) ||
           (!job->target.stubText.empty() && other->target.stubText == job->target.stubText);
    if (!same) continue;
    other->cancelReason = "superseded by a newer generation of " + displayName(other->target);
    other->cancel.cancel();
  }
  job->id = nextId_++;
  job->config = server_.config();
  job->encoding = server_.positionEncoding();
  if (const auto& root = server_.workspaceRoot()) {
    auto rel = fs::path(job->path).lexically_relative(normalise(*root));
    if (!rel.empty() && *rel.begin() != "..") job->workspaceRoot = normalise(*root);
  }
  auto overlay = std::make_shared<std::map<std::string, std::string>>();
  for (auto& d : server_.documents().snapshot()) {
    if (!d.path.empty() && normalise(d.path) != job->path) (*overlay)[normalise(d.path)] = std::move(d.text);
  }
  job->overlay = std::move(overlay);
  const std::string title = (job->fix ? "Fixing " : "Generating ") + displayName(job->target);
  if (job->ctx) {
    job->progress = job->ctx->beginProgress(title, std::string("starting"), true);
    support::CancellationSource source = job->cancel;
    job->ctxRegistration = job->ctx->cancel.onCancel([source]() mutable { source.cancel(); });
  } else {
    std::weak_ptr<Job> weak = job;
    job->progress = server_.beginProgress(title, std::string("starting"), true, [weak] {
      if (auto j = weak.lock()) {
        j->cancelReason = "cancelled in the editor";
        j->cancel.cancel();
      }
    });
  }
  job->feed = board_->feed().begin(job->uri.empty() ? protocol::uriFromPath(job->path) : job->uri, job->fix ? "fix" : "generate",
                                   testIdRoot(server_.workspaceRoot(), job->path), job->path);
  jobs_[job->id] = job;
  GL_LOG(Info, (job->fix ? "fix" : "generate") << " " << job->id << ": " << job->path << ":" << job->line << " ("
                                               << displayName(job->target) << ")");
  bool posted = server_.threadPool().post([this, guard = guard_, job] {
    {
      std::lock_guard<std::mutex> lock(guard->mutex);
      if (!guard->alive) return;
    }
    work(job);
  });
  if (!posted) {
    job->cancelReason = "the server is shutting down";
    job->cancel.cancel();
    rf::RefineResult r;
    r.status = "cancelled";
    finish(job, std::move(r), "");
  }
}

void GenerateFeature::work(const std::shared_ptr<Job>& job) {
  rf::RefineResult result;
  std::string noProvider;
  if (job->cancel.isCancelled()) {
    result.status = "cancelled";
  } else {
    auto resolved = pv::resolveProvider(job->config);
    if (!resolved.found || !resolved.problem.empty()) {
      noProvider = resolved.found ? resolved.problem : "no LLM provider is configured";
      if (!resolved.hint.empty()) noProvider += " (" + resolved.hint + ")";
    } else {
      {
        std::lock_guard<std::mutex> lock(clientMutex_);
        if (!client_) client_ = std::make_unique<pv::ChatClient>();
        if (!tests_) {
          ct::TestService::Options options;
          options.workers = 1;  // runNow runs on the job's own thread
          tests_ = std::make_unique<ct::TestService>(options);
        }
      }
      rf::ProviderModel model(*client_, resolved.endpoint);
      rf::RefineEngine engine(model, *tests_);
      rf::RefineRequest request;
      request.path = job->path;
      request.text = job->startText;
      request.line = job->line;
      request.workspaceRoot = job->workspaceRoot;
      request.config = job->config;
      request.maxRounds = job->rounds;
      request.candidates = job->candidates;
      request.fix = job->fix;
      request.acceptedTests = job->tests;
      auto overlay = job->overlay;
      request.overlay = [overlay](const std::string& p) -> std::optional<std::string> {
        auto it = overlay->find(normalise(p));
        if (it == overlay->end()) return std::nullopt;
        return it->second;
      };
      auto progress = job->progress;
      // The LSP wants percentages that never go back: a fix's round 0 (the tests before any
      // model call) reports 0, and a round's phases share that round's slice.
      auto lastPct = std::make_shared<int>(0);
      result = engine.run(
          request,
          [progress, lastPct](const rf::RefineEvent& e) {
            int pct = 0;
            if (e.maxRounds > 0 && e.round > 0) {
              int step = e.phase == rf::Phase::Asking ? 0 : e.phase == rf::Phase::Writing ? 30 : e.phase == rf::Phase::Running ? 60 : 95;
              pct = ((e.round - 1) * 100 + step) / e.maxRounds;
            }
            *lastPct = std::max(*lastPct, std::min(pct, 100));
            progress->report(e.message, *lastPct);
          },
          job->cancel.token());
    }
  }
  std::lock_guard<std::mutex> lock(guard_->mutex);
  if (!guard_->alive) return;
  server_.postToLoop([this, guard = guard_, job, result = std::move(result), noProvider]() mutable {
    if (guard->alive) finish(job, std::move(result), noProvider);
  });
}

void GenerateFeature::reply(const std::shared_ptr<Job>& job, const rf::RefineResult& result, bool applied) {
  if (job->ctx) job->ctx->reply.result(protocol::Json(rf::refineResultToJson(result, applied)));
}

void GenerateFeature::finish(const std::shared_ptr<Job>& job, rf::RefineResult result, std::string noProvider) {
  jobs_.erase(job->id);
  if (job->ctx && job->ctxRegistration >= 0) job->ctx->cancel.removeCallback(job->ctxRegistration);
  // The tests of the candidate the job ends with (the code that lands, or the best attempt).
  if (result.status == "cancelled" || job->cancel.isCancelled())
    board_->feed().finish(job->feed, nullptr, true);
  else if (result.bestRun)
    board_->feed().finish(job->feed, &*result.bestRun, false);
  else
    board_->feed().finish(job->feed, nullptr, false, noProvider.empty() ? result.error : noProvider);
  const std::string name = displayName(job->target);
  if (result.status == "cancelled" || (job->cancel.isCancelled() && result.status != "passed")) {
    job->progress->end("cancelled");
    if (job->ctx && !job->ctx->cancel.isCancelled()) {
      job->ctx->reply.error(protocol::ErrorCode::RequestCancelled,
                            std::string(job->fix ? kFixCommand : kGenerateCommand) + ": " +
                                (job->cancelReason.empty() ? "cancelled" : job->cancelReason));
    }
    return;
  }
  if (job->cancel.isCancelled()) {
    // Passed, but cancelled before it could be applied: apply nothing.
    job->progress->end("cancelled");
    if (job->ctx && !job->ctx->cancel.isCancelled())
      job->ctx->reply.error(protocol::ErrorCode::RequestCancelled, "cancelled; nothing applied");
    return;
  }
  if (!noProvider.empty()) {
    result.status = "error";
    result.file = job->path;
    result.target = job->target;
    result.error = noProvider;
    job->progress->end("no LLM provider");
    server_.showMessage(protocol::MessageType::Error,
                        "greenlight: no LLM provider is configured. Set OPENAI_API_KEY or ANTHROPIC_API_KEY, or "
                        "greenlight.baseUrl to an OpenAI-compatible server (Ollama, llama.cpp), then retry.");
    reply(job, result, false);
    return;
  }
  const std::string headline = rf::resultHeadline(result);
  if (result.status == "tests_proposed") {
    // Nothing is written or applied: the client shows the proposal and calls again on Accept.
    job->progress->end(headline);
    reply(job, result, false);
    return;
  }
  if (result.status == "passed" && !result.edit) {
    // fix: the tests already pass; nothing to change.
    job->progress->end(headline);
    if (result.bestRun) clearFixed(job, result);
    reply(job, result, false);
    return;
  }
  if (result.status == "passed" || result.status == "unverified") {
    applyResult(job, result);
    return;
  }
  job->progress->end(headline);
  if (result.status == "failed") {
    publishBestAttempt(job, result);
    reply(job, result, false);
    offerFollowUps(job, result);
    return;
  }
  server_.showMessage(protocol::MessageType::Warning, "greenlight: " + name + ": " + result.error);
  reply(job, result, false);
}

void GenerateFeature::applyResult(const std::shared_ptr<Job>& job, const rf::RefineResult& result) {
  const std::string name = displayName(job->target);
  const std::string headline = rf::resultHeadline(result);
  auto doc = server_.documents().get(job->uri);
  std::string current;
  std::optional<std::int64_t> version;
  if (doc) {
    current = doc->text;
    version = doc->version;
  } else if (auto disk = ct::readSource(job->path, nullptr)) {
    current = *disk;  // not open in the editor: an unversioned edit of the file
  } else {
    current = job->startText;
  }
  const bool unverified = result.status == "unverified";
  const bool annotations = server_.clientCapabilities().changeAnnotations;
  if (unverified && !annotations && !job->confirmed) {
    // No test could check it and the client cannot show a confirming preview: ask first.
    protocol::ShowMessageRequestParams ask;
    ask.type = protocol::MessageType::Warning;
    ask.message = "greenlight: no tests found for " + name + ", so the generated code is unverified. Apply it?";
    ask.actions = {{"Apply unverified code"}, {"Discard"}};
    server_.sendRequest(
        "window/showMessageRequest", protocol::Json(ask),
        [this, guard = guard_, job, result](const protocol::Json& chosen) {
          if (!guard->alive) return;
          if (chosen.is_object() && chosen.value("title", "") == "Apply unverified code") {
            job->confirmed = true;
            applyResult(job, result);
            return;
          }
          job->progress->end("not applied (unverified)");
          rf::RefineResult out = result;
          out.error = "unverified code not applied";
          reply(job, out, false);
        },
        [this, guard = guard_, job, result](const protocol::ResponseError& e) {
          if (!guard->alive) return;
          job->progress->end("not applied (unverified)");
          rf::RefineResult out = result;
          out.error = "unverified code not applied: " + e.message;
          reply(job, out, false);
        });
    return;
  }
  const bool confirm = (unverified && !job->confirmed) || job->config.refine.preview;
  const std::string description = unverified ? "No test checks this code: review it before applying."
                                             : "greenlight ran the nearby tests on this code; they all passed.";
  PlannedEdit plan = planEdit(result, job->startText, job->uri, version, current, job->encoding, confirm, headline, description);
  if (!plan.edit) {
    const std::string why = name + " changed while it was being generated; nothing applied";
    server_.showMessage(protocol::MessageType::Warning, "greenlight: " + why);
    job->progress->end("target changed; nothing applied");
    rf::RefineResult r = result;
    r.error = "the target changed while it was being generated; nothing applied";
    reply(job, r, false);
    return;
  }
  if (result.tests && result.status == "passed") {
    if (std::string why = addTestsEdit(job, *result.tests, *plan.edit, confirm); !why.empty()) {
      server_.showMessage(protocol::MessageType::Warning, "greenlight: " + why);
      job->progress->end("nothing applied");
      rf::RefineResult r = result;
      r.error = why;
      reply(job, r, false);
      return;
    }
  }
  job->progress->report(std::string("applying the edit"), 100);
  server_.applyEdit(headline, *plan.edit,
                    [this, guard = guard_, job, result, headline, confirm](std::optional<protocol::ApplyWorkspaceEditResult> r,
                                                                            std::string error) {
    if (!guard->alive) return;
    if (r && r->applied) {
      job->progress->end(headline);
      if (result.status == "passed") clearFixed(job, result);
      reply(job, result, true);
      return;
    }
    // Refused because the client's document moved on (a change not yet sent): try once more
    // after its next didChange, against the new text. Not when the client asked the user
    // (needsConfirmation): the refusal is the user's answer, and asking again would re-open it.
    if (r && !confirm && !job->retriedApply && server_.documents().isOpen(job->uri) && !job->cancel.isCancelled()) {
      job->retriedApply = true;
      auto timer = std::make_shared<boost::asio::steady_timer>(server_.ioContext());
      auto fired = std::make_shared<bool>(false);
      auto again = [this, guard, job, result, timer, fired] {
        if (*fired || !guard->alive) return;
        *fired = true;
        timer->cancel();
        applyResult(job, result);
      };
      onNextChange_[job->uri].push_back(again);
      timer->expires_after(std::chrono::seconds(2));
      timer->async_wait([again](const boost::system::error_code& ec) {
        if (!ec) again();
      });
      return;
    }
    std::string why = r ? r->failureReason.value_or("the editor did not apply it") : error;
    job->progress->end("not applied");
    rf::RefineResult out = result;
    out.error = "not applied: " + why;
    reply(job, out, false);
  });
}

// The accepted tests join the code's edit (one undo for both): a CreateFile and the whole text
// for a new file; for an existing one, its whole current text replaced. "" or why it cannot be.
std::string GenerateFeature::addTestsEdit(const std::shared_ptr<Job>& job, const rf::TestsOutcome& tests,
                                          protocol::WorkspaceEdit& edit, bool annotate) {
  const auto doc = server_.documents().getByPath(tests.path);
  std::optional<std::string> current = doc ? std::optional<std::string>(doc->text) : ct::readFile(tests.path);
  protocol::TextDocumentEdit te;
  te.textDocument.uri = doc ? doc->uri : protocol::uriFromPath(tests.path);
  if (doc) te.textDocument.version = doc->version;
  protocol::TextEdit whole;
  if (annotate) whole.annotationId = kAnnotationId;
  whole.newText = tests.text;
  if (!current) {
    if (!server_.clientCapabilities().createFiles)
      return "the editor cannot create files (workspace.workspaceEdit.resourceOperations lacks \"create\"); nothing applied";
    protocol::CreateFile create;
    create.uri = te.textDocument.uri;
    if (annotate) create.annotationId = kAnnotationId;
    edit.createFiles.push_back(std::move(create));
  } else {
    protocol::LineIndex index(*current);
    whole.range.start = {0, 0};
    whole.range.end = index.position(*current, current->size(), job->encoding);
  }
  te.edits.push_back(std::move(whole));
  if (!edit.documentChanges) edit.documentChanges.emplace();
  edit.documentChanges->insert(edit.documentChanges->begin(), std::move(te));
  return "";
}

void GenerateFeature::didChange(const DocumentEvent& e) {
  auto it = onNextChange_.find(e.uri);
  if (it == onNextChange_.end()) return;
  auto waiting = std::move(it->second);
  onNextChange_.erase(it);
  for (auto& fn : waiting) fn();
}

// A verified candidate: the failures of the functions it fixed are gone at once.
void GenerateFeature::clearFixed(const std::shared_ptr<Job>& job, const rf::RefineResult& result) {
  std::map<std::string, FileDiagnostics> fresh;
  fresh[job->path] = FileDiagnostics{job->uri, server_.documents().version(job->uri), {}};
  // The new lines no test ran (issue 35), where the applied text has them.
  if (result.coverage && result.edit && !result.coverage->notRun.empty())
    fresh[job->path].diagnostics = notRunDiagnostics(result.coverage->notRun, result.newText, job->encoding);
  if (result.bestRun) {
    for (const auto& f : result.bestRun->files) {
      if (f == job->path) continue;
      auto doc = server_.documents().getByPath(f);
      fresh[f] = FileDiagnostics{doc ? doc->uri : protocol::uriFromPath(f), doc ? std::optional<std::int64_t>(doc->version) : std::nullopt, {}};
    }
    board_->recordResults(job->path, *result.bestRun);
  }
  board_->publish(job->path, fresh);
}

// The best attempt's failures: in the test files as they are (their text did not change), and
// one diagnostic on the target's first line in the document (the attempt is not in the buffer).
void GenerateFeature::publishBestAttempt(const std::shared_ptr<Job>& job, const rf::RefineResult& result) {
  if (!result.bestRun) return;
  auto overlay = job->overlay;
  const std::string source = job->path;
  FileSource files = [this, overlay, source](const std::string& path) {
    FileState state;
    if (auto doc = server_.documents().getByPath(path)) {
      state.text = doc->text;
      state.uri = doc->uri;
      state.version = doc->version;
    } else {
      state.text = ct::readSource(path, nullptr);
    }
    return state;
  };
  auto all = toLspDiagnostics(*result.bestRun, files, job->encoding, job->config.cxxCompiler);
  std::map<std::string, FileDiagnostics> fresh;
  for (auto& [path, fd] : all) {
    if (path == source) continue;
    for (auto& d : fd.diagnostics) d.message = "best attempt: " + d.message;
    fresh[path] = std::move(fd);
  }
  auto doc = server_.documents().get(job->uri);
  if (doc) {
    auto moved = rf::relocateTarget(job->target, doc->text);
    const rf::Target& t = moved ? *moved : job->target;
    int line0 = std::max(0, (t.kind == rf::TargetKind::Stub ? t.headerFirst : t.commentFirst) - 1);
    protocol::Diagnostic d;
    auto lineText = server_.documents().lineText(job->uri, static_cast<std::uint32_t>(line0)).value_or("");
    d.range.start = {static_cast<std::uint32_t>(line0), 0};
    d.range.end = {static_cast<std::uint32_t>(line0), static_cast<std::uint32_t>(protocol::measure(lineText, job->encoding))};
    d.severity = protocol::DiagnosticSeverity::Warning;
    d.code = "generate-failed";
    d.source = "greenlight";
    std::string first = result.bestFeedback.substr(0, result.bestFeedback.find('\n'));
    d.message = "greenlight could not generate " + displayName(job->target) + " in " + std::to_string(result.rounds.size()) +
                (result.rounds.size() == 1 ? " round" : " rounds") + ": " + result.error + (first.empty() ? "" : " — " + first);
    d.data = {{"generate", {{"status", "failed"}, {"feedback", result.bestFeedback}}}};
    fresh[source] = FileDiagnostics{doc->uri, doc->version, {d}};
  }
  board_->publish(source, fresh);
}

std::optional<std::string> GenerateFeature::writeBestAttempt(const std::shared_ptr<Job>& job, const rf::RefineResult& result) {
  if (result.newText.empty()) return std::nullopt;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  fs::path dir = xdg && *xdg ? fs::path(xdg) / "greenlight" / "attempts"
                             : fs::path(home && *home ? home : "/tmp") / ".cache" / "greenlight" / "attempts";
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path src(job->path);
  fs::path file = dir / (src.stem().string() + ".best-attempt-" + std::to_string(job->id) + src.extension().string());
  fs::permissions(file, fs::perms::owner_write, fs::perm_options::add, ec);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return std::nullopt;
  out << result.newText;
  out.close();
  // Read-only: it is a view of an attempt, not a file to edit.
  fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read, fs::perm_options::replace, ec);
  return file.string();
}

void GenerateFeature::offerFollowUps(const std::shared_ptr<Job>& job, const rf::RefineResult& result) {
  protocol::ShowMessageRequestParams p;
  p.type = protocol::MessageType::Warning;
  int total = result.testsPassed + result.testsFailed;
  p.message = "greenlight: no candidate for " + displayName(job->target) + " passed in " + std::to_string(result.rounds.size()) +
              (result.rounds.size() == 1 ? " round" : " rounds") +
              (total > 0 ? " (best " + std::to_string(result.testsPassed) + "/" + std::to_string(total) + ")" : "");
  if (!result.newText.empty()) p.actions.push_back({kShowBest});
  p.actions.push_back({kRetry});
  server_.sendRequest(
      "window/showMessageRequest", protocol::Json(p),
      [this, guard = guard_, job, result](const protocol::Json& chosen) {
        if (!guard->alive || !chosen.is_object()) return;
        std::string title = chosen.value("title", "");
        if (title == kShowBest) {
          auto file = writeBestAttempt(job, result);
          if (!file) {
            server_.showMessage(protocol::MessageType::Error, "greenlight: could not write the best attempt to the cache directory");
            return;
          }
          if (server_.clientCapabilities().showDocument) {
            protocol::ShowDocumentParams sd;
            sd.uri = protocol::uriFromPath(*file);
            sd.takeFocus = true;
            server_.sendRequest("window/showDocument", protocol::Json(sd), [](const protocol::Json&) {});
          } else {
            server_.showMessage(protocol::MessageType::Info, "greenlight: the best attempt is in " + *file);
          }
        } else if (title == kRetry) {
          auto again = std::make_shared<Job>();
          again->fix = job->fix;
          again->path = job->path;
          again->uri = job->uri;
          auto doc = server_.documents().get(job->uri);
          again->startText = doc ? doc->text : job->startText;
          again->startVersion = doc ? std::optional<std::int64_t>(doc->version) : std::nullopt;
          auto moved = rf::relocateTarget(job->target, again->startText);
          if (!moved) {
            server_.showMessage(protocol::MessageType::Warning,
                                "greenlight: " + displayName(job->target) + " changed; run the command again on it");
            return;
          }
          again->target = *moved;
          again->line = moved->kind == rf::TargetKind::Stub ? moved->headerFirst : moved->commentFirst;
          int rounds = job->rounds > 0 ? job->rounds : job->config.refine.maxRounds;
          again->rounds = std::min(10, rounds * 2);
          again->candidates = job->candidates;
          start(again);
        }
      });
}

std::size_t GenerateFeature::cancelFor(const std::optional<std::string>& path, const std::string& why) {
  std::size_t n = 0;
  for (auto& [id, job] : jobs_) {
    if ((path && job->path != *path) || job->cancel.isCancelled()) continue;
    job->cancelReason = why;
    job->cancel.cancel();
    ++n;
  }
  return n;
}

}  // namespace

void registerGenerate(Server& server, const std::shared_ptr<TestBoard>& board) {
  auto feature = std::make_shared<GenerateFeature>(server, board);
  server.onCommand(kGenerateCommand, [feature](const std::vector<protocol::Json>& args, RequestContext ctx) {
    feature->execute(args, std::move(ctx), false);
  });
  server.onCommand(kFixCommand, [feature](const std::vector<protocol::Json>& args, RequestContext ctx) {
    feature->execute(args, std::move(ctx), true);
  });
  // Weak: the board is owned by the features (and the feature by the server's hooks), so a
  // strong reference here would be a cycle that keeps the feature and its workers alive after
  // the server is gone.
  board->addCanceller([weak = std::weak_ptr(feature)](const std::optional<std::string>& path, const std::string& why) -> std::size_t {
    auto feature = weak.lock();
    if (!feature) return 0;
    return feature->cancelFor(path, why);
  });
  server.onDidChange([feature](const DocumentEvent& e) { feature->didChange(e); });
  server.onDidClose([feature](const DocumentEvent& e) {
    if (!e.path.empty()) feature->cancelFor(normalise(e.path), "the document was closed");
  });
  server.onShutdown([feature] { feature->cancelFor(std::nullopt, "the server is shutting down"); });
}

}  // namespace greenlight::lsp
