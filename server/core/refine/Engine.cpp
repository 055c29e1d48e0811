#include "core/refine/Engine.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "core/providers/CodeExtract.h"
#include "core/refine/CommentExamples.h"
#include "core/refine/Feedback.h"
#include "core/refine/Prompt.h"
#include "support/Log.h"

namespace greenlight::core::refine {

namespace fs = std::filesystem;
namespace t = testing;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The loop's own cancellation: the caller's token, or refine.timeoutSeconds running out.
class LoopBudget {
 public:
  LoopBudget(support::CancellationToken caller, double seconds) : caller_(std::move(caller)) {
    support::CancellationSource source = source_;
    registration_ = caller_.onCancel([source]() mutable { source.cancel(); });
    watchdog_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      auto limit = std::chrono::duration<double>(seconds);
      if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
        timedOut_ = true;
        source_.cancel();
      }
    });
  }
  ~LoopBudget() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    watchdog_.join();
    caller_.removeCallback(registration_);
  }
  LoopBudget(const LoopBudget&) = delete;
  LoopBudget& operator=(const LoopBudget&) = delete;

  support::CancellationToken token() const { return source_.token(); }
  bool cancelled() const { return source_.isCancelled(); }
  bool timedOut() const { return timedOut_; }

 private:
  support::CancellationToken caller_;
  support::CancellationSource source_;
  int registration_ = -1;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> timedOut_{false};
  std::thread watchdog_;
};

std::string roundPrefix(int round, int maxRounds) {
  return "round " + std::to_string(round) + "/" + std::to_string(maxRounds) + ": ";
}

std::string bounded(const std::string& s, std::size_t cap) {
  if (s.size() <= cap) return s;
  std::size_t cut = cap;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "\n… (" + std::to_string(s.size() - cut) + " more bytes)";
}

int plannedTests(const t::TestPlan& plan, int synthetic) {
  if (synthetic > 0) return synthetic;
  if (!plan.selected.empty()) return static_cast<int>(plan.selected.size()) + (plan.doctestFunctions.empty() ? 0 : 1);
  return static_cast<int>(plan.staticTests.size()) + (plan.hasDoctests ? 1 : 0);
}

}  // namespace

RefineResult RefineEngine::run(const RefineRequest& req, const std::function<void(const RefineEvent&)>& onEvent,
                               support::CancellationToken cancel) {
  RefineResult result;
  result.file = req.path;
  result.model = model_.describe();
  auto emit = [&](const RefineEvent& e) {
    if (onEvent) onEvent(e);
  };
  const auto language = t::languageForPath(req.path);
  if (!language || *language == t::Language::Command) {
    result.error = req.path + ": generate supports Python, JavaScript and C++ files";
    result.usageError = true;
    return result;
  }
  TargetLookup lookup = req.fix ? findFixTarget(req.text, req.line, *language) : findTarget(req.text, req.line, *language);
  if (!lookup.target) {
    result.error = lookup.error;
    result.usageError = true;
    return result;
  }
  Target target = *lookup.target;
  result.target = target;
  const int maxRounds = std::max(1, req.maxRounds > 0 ? req.maxRounds : req.config.refine.maxRounds);
  const int candidates = std::max(1, req.candidates > 0 ? req.candidates : req.config.refine.candidates);
  const double budgetSeconds = req.timeoutSeconds > 0 ? req.timeoutSeconds : req.config.refine.timeoutSeconds;
  const std::string root = req.workspaceRoot.empty() ? t::findWorkspaceRoot(req.path) : req.workspaceRoot;
  LoopBudget budget(cancel, budgetSeconds);
  const auto token = budget.token();
  auto stopped = [&](RefineResult& r) {
    if (budget.timedOut()) {
      r.timedOut = true;
      r.status = "failed";
      r.error = "stopped after refine.timeoutSeconds (" + std::to_string(static_cast<int>(budgetSeconds)) + " s)";
    } else {
      r.status = "cancelled";
      r.error = "cancelled";
    }
    return r;
  };

  // The overlay every run sees: the candidate's text for the file, the synthetic tests, and the
  // caller's unsaved texts for everything else.
  std::optional<SyntheticTests> synthetic;
  auto overlayWith = [&](std::shared_ptr<const std::string> sourceText) -> t::OverlayProvider {
    auto syn = synthetic ? std::make_shared<SyntheticTests>(*synthetic) : nullptr;
    auto other = req.overlay;
    std::string path = req.path;
    return [sourceText, syn, other, path](const std::string& p) -> std::optional<std::string> {
      if (p == path) return *sourceText;
      if (syn && p == syn->path) return syn->text;
      return other ? other(p) : std::nullopt;
    };
  };

  // The plan: the same discovery as `greenlight run`, narrowed to the target's function.
  auto original = std::make_shared<const std::string>(req.text);
  t::DiscoveryRequest dr;
  dr.path = req.path;
  dr.workspaceRoot = root;
  dr.config = &req.config;
  dr.overlay = overlayWith(original);
  if (target.kind == TargetKind::Stub) dr.line = target.headerFirst;
  else dr.functionName = target.name;
  std::string discoveryError;
  auto plan = t::discoverTests(dr, &discoveryError);
  if (!plan) {
    result.error = discoveryError;
    return result;
  }
  if (plan->empty()) {
    synthetic = synthesizeTests(target, req.path, req.text);
    if (synthetic) {
      result.testsFromComment = true;
      dr.extraTestFiles = {synthetic->path};
      dr.overlay = overlayWith(original);
      plan = t::discoverTests(dr, &discoveryError);
      if (!plan) {
        result.error = discoveryError;
        return result;
      }
    } else {
      result.noTests = true;
    }
  }
  const int expectedTests = plannedTests(*plan, synthetic ? static_cast<int>(synthetic->names.size()) : 0);

  PromptInput prompt;
  prompt.target = target;
  prompt.filePath = relativePath(req.path, root);
  prompt.fileText = req.text;
  prompt.sameFileTests = plan->sameFileTests || plan->hasDoctests;
  prompt.testsFromComment = result.testsFromComment;
  if (synthetic) {
    prompt.testNames = synthetic->names;
    prompt.exportHint = synthetic->exportHint;
  } else {
    prompt.testNames = plan->selected;
  }
  for (const auto& f : plan->testFiles) {
    if (synthetic && f == synthetic->path) continue;
    if (auto text = t::readSource(f, req.overlay)) prompt.tests.push_back({relativePath(f, root), *text});
  }
  if (const std::string secret = model_.secret(); !secret.empty()) prompt.secrets.push_back(secret);

  FeedbackContext fctx;
  fctx.workspaceRoot = root;
  fctx.timeLimitSeconds = req.config.sandbox.timeLimitSeconds;
  fctx.memoryLimitMB = req.config.sandbox.memoryLimitMB;
  fctx.outputLimitKB = req.config.sandbox.outputLimitKB;
  fctx.processes = req.config.sandbox.processes;
  fctx.secrets = prompt.secrets;
  for (const auto& f : plan->testFiles) {
    if (auto text = dr.overlay(f)) fctx.texts[f] = *text;
    else if (auto disk = t::readSource(f, {})) fctx.texts[f] = *disk;
  }

  // Runs the tests on `text` (the whole file with a candidate in place).
  auto runTests = [&](const std::string& text, const std::string& functionName, int round, int candidate,
                      int candidateCount) -> t::RunOutcome {
    RefineEvent e;
    e.phase = Phase::Running;
    e.round = round;
    e.maxRounds = maxRounds;
    e.tests = expectedTests;
    e.candidate = candidate;
    e.candidates = candidateCount;
    e.message = roundPrefix(round, maxRounds) + "running " + std::to_string(expectedTests) +
                (expectedTests == 1 ? " test" : " tests") +
                (candidateCount > 1 ? " (candidate " + std::to_string(candidate) + "/" + std::to_string(candidateCount) + ")" : "");
    emit(e);
    t::RunRequest rr;
    rr.path = req.path;
    rr.workspaceRoot = root;
    rr.config = req.config;
    rr.functionName = functionName;
    if (target.kind == TargetKind::Stub && functionName.empty()) rr.line = target.headerFirst;
    rr.extraTestFiles = dr.extraTestFiles;
    rr.overlay = overlayWith(std::make_shared<const std::string>(text));
    rr.cancel = token;
    return tests_.runNow(std::move(rr));
  };

  auto scoreOf = [](const t::RunOutcome& o, std::size_t length) {
    Score s;
    const auto& r = o.result;
    s.ran = r.error.empty() && !o.noTests && !r.cancelled;
    s.passed = r.summary.passed;
    s.failed = r.summary.failed;
    s.errors = r.summary.errors;
    bool compileError = false;
    for (const auto& m : r.compilerMessages) compileError = compileError || m.severity == "error" || m.severity == "fatal error";
    s.allPassed = s.ran && s.passed > 0 && s.failed == 0 && s.errors == 0 && !compileError;
    s.length = length;
    return s;
  };

  struct Chosen {
    CandidateReport report;
    Spliced spliced;
    std::optional<t::RunResult> run;
  };
  std::optional<Chosen> best;

  // greenlight.fix: what the current code does is round 0's feedback.
  if (req.fix) {
    if (token.isCancelled()) return stopped(result);
    auto start = Clock::now();
    auto outcome = runTests(req.text, target.name, 0, 1, 1);
    result.testsMs += msSince(start);
    if (token.isCancelled() || outcome.result.cancelled) return stopped(result);
    fctx.texts[req.path] = req.text;
    Score s = scoreOf(outcome, target.stubText.size());
    if (s.allPassed) {
      result.status = "passed";
      result.code = target.stubText;
      result.newText = req.text;
      result.testsPassed = s.passed;
      result.bestRun = outcome.result;
      result.error = "the tests already pass; nothing to fix";
      return result;
    }
    prompt.fix = true;
    prompt.fixFeedback = shapeFeedback(outcome.result, fctx);
  }

  std::map<std::string, CandidateReport> seen;  // normalised code -> its report (identical candidates run once)
  providers::ChatRequest chat;
  chat.system = systemPrompt(target.language);
  chat.temperature = req.config.temperature;
  chat.maxTokens = req.config.maxTokens;
  chat.stream = true;
  std::string lastProviderError;

  for (int round = 1; round <= maxRounds; ++round) {
    if (token.isCancelled()) return stopped(result);
    RoundReport report;
    report.round = round;
    const int n = round == 1 ? candidates : 1;
    RefineEvent asking;
    asking.phase = Phase::Asking;
    asking.round = round;
    asking.maxRounds = maxRounds;
    asking.candidates = n;
    asking.message = roundPrefix(round, maxRounds) + "asking the model" +
                     (n > 1 ? " for " + std::to_string(n) + " candidates" : "");
    emit(asking);

    // While the model writes, the sandbox readies this round's run (a warm interpreter, when
    // spares and sandbox.warmInterpreters are on): its start-up is then off the round.
    {
      t::RunRequest warmup;
      warmup.path = req.path;
      warmup.workspaceRoot = root;
      warmup.config = req.config;
      warmup.functionName = target.name;
      if (target.kind == TargetKind::Stub && target.name.empty()) warmup.line = target.headerFirst;
      warmup.extraTestFiles = dr.extraTestFiles;
      warmup.overlay = overlayWith(std::make_shared<const std::string>(req.text));
      tests_.prepare(std::move(warmup));
    }
    chat.messages = buildMessages(prompt);
    std::atomic<int> tokens{0};
    std::mutex writingMutex;
    auto lastWriting = Clock::time_point{};  // the first token is always reported
    auto modelStart = Clock::now();
    auto replies = model_.complete(chat, n, token, [&](int, std::string_view) {
      int now = ++tokens;
      std::lock_guard<std::mutex> lock(writingMutex);
      if (Clock::now() - lastWriting < std::chrono::milliseconds(100)) return;
      lastWriting = Clock::now();
      RefineEvent w;
      w.phase = Phase::Writing;
      w.round = round;
      w.maxRounds = maxRounds;
      w.tokens = now;
      w.message = roundPrefix(round, maxRounds) + "writing… " + std::to_string(now) + (now == 1 ? " token" : " tokens");
      emit(w);
    });
    report.modelMs = msSince(modelStart);
    result.modelMs += report.modelMs;
    if (token.isCancelled()) {
      result.rounds.push_back(report);
      return stopped(result);
    }

    // Every completion was paid for, including those after a passing one (which are not run).
    for (const auto& reply : replies) {
      if (reply.usage.inputTokens) result.promptTokens += *reply.usage.inputTokens;
      if (reply.usage.outputTokens) result.completionTokens += *reply.usage.outputTokens;
    }
    std::optional<Chosen> roundBest;
    int index = 0;
    for (auto& reply : replies) {
      ++index;
      CandidateReport c;
      c.reply = bounded(reply.text, 4000);
      Spliced spliced;
      std::optional<t::RunResult> run;
      if (!reply.ok()) {
        c.status = "provider_error";
        c.feedback = reply.error.message;
        lastProviderError = reply.error.message;
      } else {
        auto extracted = providers::extractCode(reply.text, fenceTag(target.language));
        std::string code = extracted.code.empty() ? "" : normalizeCandidate(extracted.code, target);
        if (code.empty()) {
          c.status = "no_code";
          c.feedback = "The reply held no " + fenceTag(target.language) +
                       " code. Answer with one fenced code block that holds the complete code of the target.";
        } else if (std::string why = rejectCandidate(code, target); !why.empty()) {
          c.status = "rejected";
          c.code = code;
          c.feedback = "The code was not run: " + why + ".";
        } else if (auto it = seen.find(code); it != seen.end()) {
          c = it->second;
          c.status = "duplicate";
          c.feedback = "This code is identical to an earlier candidate, which did not pass:\n" + it->second.feedback;
        } else {
          c.code = code;
          spliced = splice(req.text, target, code);
          std::string name = !target.name.empty() ? target.name : firstDefinedName(code, target.language);
          auto start = Clock::now();
          auto outcome = runTests(spliced.text, name, round, index, static_cast<int>(replies.size()));
          double ms = msSince(start);
          report.testsMs += ms;
          result.testsMs += ms;
          if (token.isCancelled() || outcome.result.cancelled) {
            report.candidates.push_back(c);
            result.rounds.push_back(report);
            return stopped(result);
          }
          c.score = scoreOf(outcome, code.size());
          c.passed = c.score.passed;
          c.failed = c.score.failed;
          c.errors = c.score.errors;
          fctx.texts[req.path] = spliced.text;
          if (c.score.allPassed) {
            c.status = "passed";
          } else if (!c.score.ran) {
            c.status = "error";
            c.feedback = shapeFeedback(outcome.result, fctx);
            if (c.feedback.empty()) c.feedback = "The tests could not be run on this code.";
          } else {
            c.status = "failed";
            c.feedback = shapeFeedback(outcome.result, fctx);
          }
          run = outcome.result;
          seen[code] = c;
          RefineEvent scored;
          scored.phase = Phase::Scored;
          scored.round = round;
          scored.maxRounds = maxRounds;
          scored.tests = c.passed + c.failed + c.errors;
          scored.passed = c.passed;
          scored.candidate = index;
          scored.candidates = static_cast<int>(replies.size());
          scored.message = roundPrefix(round, maxRounds) + std::to_string(c.passed) + "/" +
                           std::to_string(scored.tests) + " passed";
          emit(scored);
        }
      }
      Chosen chosen{c, spliced, run};
      if (!roundBest || better(c.score, roundBest->report.score) ||
          (!roundBest->report.score.ran && roundBest->report.code.empty() && !c.code.empty()))
        roundBest = chosen;
      report.candidates.push_back(std::move(c));
      if (chosen.report.status == "passed") break;  // the first that passes every test wins
    }
    result.rounds.push_back(report);
    if (roundBest && (!best || better(roundBest->report.score, best->report.score) || (!best->report.score.ran && !roundBest->report.code.empty() && best->report.code.empty())))
      best = roundBest;

    // No test to run: one round, the code is shown unverified.
    if (result.noTests) break;
    if (best && best->report.status == "passed") break;
    bool allProviderErrors = !report.candidates.empty();
    for (const auto& c : report.candidates) allProviderErrors = allProviderErrors && c.status == "provider_error";
    if (allProviderErrors) {
      result.error = lastProviderError;
      break;
    }
    if (roundBest) prompt.history.push_back({roundBest->report.code, roundBest->report.reply, roundBest->report.feedback});
  }

  if (result.noTests) {
    if (best && !best->report.code.empty() && best->report.status != "rejected") {
      Spliced sp = splice(req.text, target, best->report.code);
      result.status = "unverified";
      result.code = best->report.code;
      result.edit = sp.edit;
      result.newText = sp.text;
      if (target.name.empty()) result.target->name = firstDefinedName(best->report.code, target.language);
    } else {
      result.status = result.error.empty() ? "failed" : "error";
      if (result.error.empty())
        result.error = best ? best->report.feedback : "the model returned no code";
    }
    return result;
  }
  if (!best) {
    result.status = "error";
    if (result.error.empty()) result.error = "the model returned nothing";
    return result;
  }
  result.code = best->report.code;
  result.testsPassed = best->report.passed;
  result.testsFailed = best->report.failed + best->report.errors;
  result.bestRun = best->run;
  if (!best->report.code.empty()) {
    Spliced sp = best->spliced.text.empty() ? splice(req.text, target, best->report.code) : best->spliced;
    result.newText = sp.text;
    if (best->report.status == "passed") result.edit = sp.edit;
  }
  if (target.name.empty() && !best->report.code.empty()) result.target->name = firstDefinedName(best->report.code, target.language);
  if (best->report.status == "passed") {
    result.status = "passed";
    result.error.clear();
    return result;
  }
  result.bestFeedback = best->report.feedback;
  bool anyRan = best->report.score.ran;
  if (!anyRan && !result.error.empty()) {
    result.status = "error";  // the provider failed before any candidate could run
    return result;
  }
  result.status = "failed";
  if (result.error.empty()) {
    int total = best->report.passed + best->report.failed + best->report.errors;
    result.error = anyRan ? "best candidate passed " + std::to_string(best->report.passed) + "/" + std::to_string(total)
                          : "no candidate could be run: " + best->report.feedback.substr(0, best->report.feedback.find('\n'));
  }
  return result;
}

}  // namespace greenlight::core::refine
