#include "core/refine/Engine.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/refine/CommentExamples.h"
#include "core/refine/CxxBuildTests.h"
#include "core/refine/Feedback.h"
#include "core/refine/Prompt.h"
#include "core/refine/ReplyCode.h"
#include "core/refine/TestsPrompt.h"
#include "core/testing/adapters/TestJob.h"
#include "support/Log.h"
#include "support/TextLines.h"

namespace greenlight::core::refine {

using support::lineViews;

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

// Whether any of `names` has a result of its own ("Class.test_x" and "describe > it" as the
// runner reports them included).
bool collected(const t::RunResult& run, const std::vector<std::string>& names) {
  for (const auto& r : run.tests) {
    for (const auto& n : names) {
      if (r.name == n || (r.name.size() > n.size() && r.name.compare(r.name.size() - n.size(), n.size(), n) == 0)) return true;
    }
  }
  return false;
}

// The tests `text` defines that `original` (the file before, "" when it is new) did not:
// only those are the proposal's or the accepted tests' own.
std::vector<std::pair<std::string, int>> gainedTests(const std::string& text, const std::string& original,
                                                     const std::string& path, t::Language language) {
  std::set<std::string> before;
  for (const auto& [name, line] : testsIn(original, path, language)) before.insert(name);
  std::vector<std::pair<std::string, int>> gained;
  for (auto& test : testsIn(text, path, language))
    if (!before.count(test.first)) gained.push_back(std::move(test));
  return gained;
}

int plannedTests(const t::TestPlan& plan, int synthetic) {
  if (synthetic > 0) return synthetic;
  if (!plan.selected.empty()) return static_cast<int>(plan.selected.size()) + (plan.doctestFunctions.empty() ? 0 : 1);
  return static_cast<int>(plan.staticTests.size()) + (plan.hasDoctests ? 1 : 0);
}


// One run of the loop. The steps, in order (run()):
//   1. locate the target                      (locate)
//   2. plan the tests: discovery, else tests from the comment's examples (planTests)
//   3. build the prompt and the feedback context (preparePrompt)
//   4. fix only: what the current code does is round 0's feedback (fixBaseline)
//   5. rounds: ask the model (askModel), then per reply evaluate it: take its code
//      (codeFromReply), reject, dedupe, splice, run, score (evaluate); keep the best (playRound)
//   6. the result: passed / unverified / failed with the best attempt (finish)
class RefineLoop {
 public:
  RefineLoop(Model& model, t::TestService& tests, const RefineRequest& req,
             const std::function<void(const RefineEvent&)>& onEvent, support::CancellationToken cancel)
      : model_(model), tests_(tests), req_(req), onEvent_(onEvent), cancel_(std::move(cancel)) {}

  RefineResult run();

 private:
  struct Chosen {
    CandidateReport report;
    Spliced spliced;
    std::optional<t::RunResult> run;
  };

  bool locate();
  bool planTests();
  bool useAcceptedTests();
  bool testsFirstApplies() const;
  void proposeTests();
  std::optional<std::string> askForTests(const TestsPlacement& placement);
  std::string stubText() const;
  void judgeAgainstStub(TestsProposal& proposal, const t::RunOutcome& outcome,
                        const std::vector<std::pair<std::string, int>>& fresh) const;
  void preparePrompt();
  bool fixBaseline();
  enum class RoundEnd { Continue, Stop, Cancelled };
  RoundEnd playRound(int round);
  std::vector<providers::ChatResult> askModel(int round, int n, RoundReport& report);
  CandidateReport evaluate(const providers::ChatResult& reply, int round, int index, int count, RoundReport& report,
                           Spliced& spliced, std::optional<t::RunResult>& run, bool& cancelled);
  RefineResult finish();

  void emit(const RefineEvent& e) const {
    if (onEvent_) onEvent_(e);
  }
  RefineResult& stopped();
  t::OverlayProvider overlayWith(std::shared_ptr<const std::string> sourceText) const;
  t::RunOutcome runTests(const std::string& text, const std::string& functionName, int round, int candidate,
                         int candidateCount);
  static Score scoreOf(const t::RunOutcome& o, std::size_t length);
  bool askForCoverage();

  Model& model_;
  t::TestService& tests_;
  const RefineRequest& req_;
  const std::function<void(const RefineEvent&)>& onEvent_;
  support::CancellationToken cancel_;

  RefineResult result_;
  Target target_;
  int maxRounds_ = 1, candidates_ = 1;
  double budgetSeconds_ = 0;
  std::string root_;
  std::unique_ptr<LoopBudget> budget_;
  support::CancellationToken token_;
  std::optional<SyntheticTests> synthetic_;
  t::DiscoveryRequest discovery_;
  std::optional<t::TestPlan> plan_;
  int expectedTests_ = 0;
  PromptInput prompt_;
  FeedbackContext fctx_;
  std::optional<Chosen> best_;
  std::map<std::string, CandidateReport> seen_;  // code + additions -> its report (identical candidates run once)
  providers::ChatRequest chat_;
  std::string lastProviderError_;
  int extraRounds_ = 0;  // refine.requireCoverage's one more round
  bool proposing_ = false;  // the stub check of proposed tests is running
  // Tests first in a C++ build (CxxBuildTests.h): the tests are an existing test target's file,
  // overlaid, and only its new cases run (the framework's filter), never the ones it had.
  bool inBuild_ = false;
  std::vector<std::string> newTests_;
  std::string testsFirstMode() const {
    return req_.testsFirst.empty() ? req_.config.generate.testsFirst : req_.testsFirst;
  }
};

RefineResult& RefineLoop::stopped() {
  if (budget_ && budget_->timedOut()) {
    result_.timedOut = true;
    result_.status = "failed";
    result_.error = "stopped after refine.timeoutSeconds (" + std::to_string(static_cast<int>(budgetSeconds_)) + " s)";
  } else {
    result_.status = "cancelled";
    result_.error = "cancelled";
  }
  return result_;
}

// The overlay every run sees: the candidate's text for the file, the synthetic tests, and the
// caller's unsaved texts for everything else.
t::OverlayProvider RefineLoop::overlayWith(std::shared_ptr<const std::string> sourceText) const {
  auto syn = synthetic_ ? std::make_shared<SyntheticTests>(*synthetic_) : nullptr;
  auto other = req_.overlay;
  std::string path = req_.path;
  return [sourceText, syn, other, path](const std::string& p) -> std::optional<std::string> {
    if (p == path) return *sourceText;
    if (syn && p == syn->path) return syn->text;
    return other ? other(p) : std::nullopt;
  };
}

Score RefineLoop::scoreOf(const t::RunOutcome& o, std::size_t length) {
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
}

// Runs the tests on `text` (the whole file with a candidate in place).
t::RunOutcome RefineLoop::runTests(const std::string& text, const std::string& functionName, int round, int candidate,
                                   int candidateCount) {
  RefineEvent e;
  e.phase = Phase::Running;
  e.round = round;
  e.maxRounds = maxRounds_;
  e.tests = expectedTests_;
  e.candidate = candidate;
  e.candidates = candidateCount;
  e.message = roundPrefix(round, maxRounds_) + "running " + std::to_string(expectedTests_) +
              (expectedTests_ == 1 ? " test" : " tests") +
              (candidateCount > 1 ? " (candidate " + std::to_string(candidate) + "/" + std::to_string(candidateCount) + ")" : "");
  if (!proposing_) emit(e);  // the stub check says so itself
  t::RunRequest rr;
  rr.path = req_.path;
  rr.workspaceRoot = root_;
  rr.config = req_.config;
  // Tests first: every test of the file the user accepted (or is shown) runs, also one that does
  // not call the target (the stub check must see it pass).
  const bool wholeFile = result_.tests || result_.proposal || proposing_;
  if (!wholeFile) {
    rr.functionName = functionName;
    if (target_.kind == TargetKind::Stub && functionName.empty()) rr.line = target_.headerFirst;
  }
  if (wholeFile && inBuild_) rr.selectTests = newTests_;
  rr.extraTestFiles = discovery_.extraTestFiles;
  rr.extraAreProjectTests = discovery_.extraAreProjectTests;
  rr.overlay = overlayWith(std::make_shared<const std::string>(text));
  rr.cancel = token_;
  return tests_.runNow(std::move(rr));
}

bool RefineLoop::locate() {
  const auto language = t::languageForPath(req_.path);
  if (!language || *language == t::Language::Command) {
    result_.error = req_.path + ": generate supports Python, JavaScript and C++ files";
    result_.usageError = true;
    return false;
  }
  TargetLookup lookup = req_.fix ? findFixTarget(req_.text, req_.line, *language) : findTarget(req_.text, req_.line, *language);
  if (!lookup.target) {
    result_.error = lookup.error;
    result_.usageError = true;
    return false;
  }
  target_ = *lookup.target;
  result_.target = target_;
  return true;
}

// The same discovery as `greenlight run`, narrowed to the target's function; without tests,
// the comment's examples become the tests.
bool RefineLoop::planTests() {
  auto original = std::make_shared<const std::string>(req_.text);
  discovery_.path = req_.path;
  discovery_.workspaceRoot = root_;
  discovery_.config = &req_.config;
  discovery_.overlay = overlayWith(original);
  if (target_.kind == TargetKind::Stub) discovery_.line = target_.headerFirst;
  else discovery_.functionName = target_.name;
  std::string discoveryError;
  if (req_.acceptedTests && !useAcceptedTests()) return false;
  plan_ = t::discoverTests(discovery_, &discoveryError);
  if (!plan_) {
    result_.error = discoveryError;
    return false;
  }
  if (plan_->empty() && !synthetic_) {
    synthetic_ = synthesizeTests(target_, req_.path, req_.text);
    if (synthetic_) {
      result_.testsFromComment = true;
      discovery_.extraTestFiles = {synthetic_->path};
      discovery_.overlay = overlayWith(original);
      plan_ = t::discoverTests(discovery_, &discoveryError);
      if (!plan_) {
        result_.error = discoveryError;
        return false;
      }
    } else {
      result_.noTests = true;
    }
  }
  // A C++ build's tests near the file of which none names or calls the target (a function new to
  // a tested module): they say nothing about it, so tests first applies as to an untested file.
  const std::string mode = testsFirstMode();
  if (!req_.fix && !req_.acceptedTests && !synthetic_ && isBuildRunner(plan_->runner) && !plan_->empty() &&
      !plan_->sourceIsTestFile && plan_->function && plan_->selected.empty() && (mode == "ask" || mode == "always"))
    result_.noTests = true;
  expectedTests_ = inBuild_ ? static_cast<int>(newTests_.size()) : plannedTests(*plan_, synthetic_ && result_.testsFromComment ? static_cast<int>(synthetic_->names.size()) : 0);
  return true;
}

// The tests the user accepted are the test file's text for every run (an overlay: nothing is
// written before the edit lands), found as the target's tests like the comment's examples.
bool RefineLoop::useAcceptedTests() {
  AcceptedTests accepted = *req_.acceptedTests;
  std::string why;
  // A C++ build places tests by its test targets: the plan as the file is now.
  std::optional<t::TestPlan> current;
  if (target_.language == t::Language::Cxx) {
    std::string ignored;
    current = t::discoverTests(discovery_, &ignored);
  }
  auto placement = placeTests(target_, req_.path, root_, &why, current ? &*current : nullptr);
  if (accepted.path.empty()) {
    if (!placement) {
      result_.error = why;
      result_.usageError = true;
      return false;
    }
    accepted.path = placement->path;
  }
  accepted.path = fs::path(accepted.path).lexically_normal().string();
  if (accepted.path == req_.path) {
    result_.error = "the tests' file is the file under generation: " + accepted.path;
    result_.usageError = true;
    return false;
  }
  auto names = testsIn(accepted.text, accepted.path, target_.language);
  if (names.empty()) {
    result_.error = "the accepted tests define no test (" + relativePath(accepted.path, root_) + ")";
    result_.usageError = true;
    return false;
  }
  SyntheticTests syn;
  syn.path = accepted.path;
  syn.text = accepted.text;
  for (const auto& [name, line] : names) syn.names.push_back(name);
  if (placement) syn.exportHint = placement->exportHint;
  synthetic_ = syn;
  // An existing source of the build's test target is overlaid, not an extra file (the build
  // compiles it with the project's flags; the single-file harness would not).
  inBuild_ = placement && placement->inBuild && t::readFile(syn.path).has_value();
  discovery_.extraTestFiles = inBuild_ ? std::vector<std::string>{} : std::vector<std::string>{syn.path};
  discovery_.extraAreProjectTests = !inBuild_;
  discovery_.overlay = overlayWith(std::make_shared<const std::string>(req_.text));
  TestsOutcome out;
  out.path = syn.path;
  out.text = syn.text;
  auto disk = t::readFile(syn.path);
  out.isNew = !disk.has_value();
  out.original = disk.value_or("");
  // The tests the file gains: an existing file's own tests are not new.
  for (const auto& [name, line] : gainedTests(syn.text, out.original, syn.path, target_.language)) out.names.push_back(name);
  out.count = static_cast<int>(out.names.size());
  if (inBuild_) newTests_ = out.names;
  result_.tests = out;
  return true;
}

bool RefineLoop::testsFirstApplies() const {
  if (!result_.noTests || req_.fix || req_.acceptedTests) return false;
  const std::string mode = testsFirstMode();
  return mode == "ask" || mode == "always";
}

// Tests from the comment and signature alone, checked against the stub; the result is the
// proposal, and nothing is written or applied. Steps: place, ask, check against the stub, judge.
void RefineLoop::proposeTests() {
  std::string why;
  auto placement = placeTests(target_, req_.path, root_, &why, plan_ ? &*plan_ : nullptr);
  if (!placement) {
    result_.status = "error";
    result_.error = why;
    return;
  }
  auto code = askForTests(*placement);
  if (!code) return;
  TestsProposal proposal;
  proposal.path = placement->path;
  proposal.exists = placement->exists;
  proposal.original = placement->original;
  proposal.text = proposedFileText(*placement, *code);
  const auto fresh = gainedTests(proposal.text, placement->exists ? placement->original : "", proposal.path, target_.language);
  for (const auto& [name, line] : fresh) proposal.names.push_back(name);

  synthetic_ = SyntheticTests{proposal.path, proposal.text, proposal.names, placement->exportHint};
  inBuild_ = placement->inBuild;
  newTests_ = proposal.names;
  discovery_.extraTestFiles = inBuild_ ? std::vector<std::string>{} : std::vector<std::string>{proposal.path};
  discovery_.extraAreProjectTests = !inBuild_;
  expectedTests_ = static_cast<int>(proposal.names.size());
  RefineEvent checking;
  checking.phase = Phase::Running;
  checking.message = "checking tests against the stub…";
  emit(checking);
  auto start = Clock::now();
  proposing_ = true;
  auto outcome = runTests(stubText(), target_.name, 0, 1, 1);
  proposing_ = false;
  result_.testsMs += msSince(start);
  if (token_.isCancelled() || outcome.result.cancelled) {
    stopped();
    return;
  }
  judgeAgainstStub(proposal, outcome, fresh);
  result_.proposal = std::move(proposal);
  result_.status = "tests_proposed";
  result_.noTests = false;
  result_.error.clear();
}

// The tests request: its own conversation, which never holds an implementation (only the file
// as the user has it). The tests' code, or nothing with the result's error (or cancellation) set.
std::optional<std::string> RefineLoop::askForTests(const TestsPlacement& placement) {
  TestsPromptInput in;
  in.target = target_;
  in.filePath = relativePath(req_.path, root_);
  in.fileText = req_.text;
  in.testPath = relativePath(placement.path, root_);
  in.placement = placement;
  in.examplePath = placement.examplePath.empty() ? "" : relativePath(placement.examplePath, root_);
  if (const std::string secret = model_.secret(); !secret.empty()) in.secrets.push_back(secret);
  providers::ChatRequest chat;
  chat.system = testsSystemPrompt(target_.language);
  chat.messages = buildTestsMessages(in);
  chat.temperature = req_.config.temperature;
  chat.maxTokens = req_.config.maxTokens;
  chat.stream = true;

  RefineEvent writing;
  writing.phase = Phase::Asking;
  writing.message = "writing tests…";
  emit(writing);
  auto start = Clock::now();
  auto replies = model_.complete(chat, 1, token_, [](int, std::string_view) {});
  result_.modelMs += msSince(start);
  for (const auto& reply : replies) {
    if (reply.usage.inputTokens) result_.promptTokens += *reply.usage.inputTokens;
    if (reply.usage.outputTokens) result_.completionTokens += *reply.usage.outputTokens;
  }
  if (token_.isCancelled()) {
    stopped();
    return std::nullopt;
  }
  if (replies.empty() || !replies.front().ok()) {
    result_.status = "error";
    result_.error = replies.empty() ? "the model returned nothing" : replies.front().error.message;
    return std::nullopt;
  }
  std::string code = testsFromReply(replies.front().text, target_.language);
  if (code.empty()) {
    result_.status = "error";
    result_.error = "the model wrote no tests";
    return std::nullopt;
  }
  return code;
}

// The file with the target as the user wrote it, or, for an insertion, with one that only raises.
std::string RefineLoop::stubText() const {
  if (target_.kind != TargetKind::Insert) return req_.text;
  const std::string stub = stubFor(target_, req_.path, req_.text);
  if (stub.empty()) return req_.text;
  return splice(req_.text, target_, normalizeCandidate(stub, target_), stubAdditions(target_, req_.path, req_.text)).text;
}

// What the run against the stub says about the proposed tests: an error when they did not run or
// collect, else the new ones that passed on the stub (they assert nothing about the target).
void RefineLoop::judgeAgainstStub(TestsProposal& proposal, const t::RunOutcome& outcome,
                                  const std::vector<std::pair<std::string, int>>& fresh) const {
  const auto& run = outcome.result;
  if (proposal.names.empty()) {
    proposal.error = "the proposed tests define no test function";
  } else if (!run.error.empty()) {
    proposal.error = "the proposed tests could not run: " + run.error;
  } else if (outcome.noTests || !t::anyTestRan(run.summary)) {
    std::string detail = run.stderrText.substr(0, run.stderrText.find('\n'));
    proposal.error = "the proposed tests did not collect: no test ran" + (detail.empty() ? std::string() : " (" + detail + ")");
  } else if (!collected(run, proposal.names)) {
    // Only an import / collection error came back (a syntax error, an import of a name the
    // module does not have): none of the proposed tests ran.
    std::string why;
    for (const auto& r : run.tests)
      if (why.empty() && !r.message.empty()) why = r.message;
    proposal.error = "the proposed tests did not collect" + (why.empty() ? std::string() : ": " + why);
  } else {
    for (auto& f : flagStubPasses(run, fresh, target_.name)) {
      bool ours = false;
      for (const auto& [name, line] : fresh) ours = ours || f.line == line;
      if (ours) proposal.flagged.push_back(std::move(f));
    }
  }
}

void RefineLoop::preparePrompt() {
  prompt_.target = target_;
  prompt_.filePath = relativePath(req_.path, root_);
  prompt_.fileText = req_.text;
  prompt_.sameFileTests = plan_->sameFileTests || plan_->hasDoctests;
  prompt_.testsFromComment = result_.testsFromComment;
  if (synthetic_) {
    prompt_.testNames = inBuild_ ? newTests_ : synthetic_->names;
    prompt_.exportHint = synthetic_->exportHint;
  } else {
    prompt_.testNames = plan_->selected;
  }
  for (const auto& f : plan_->testFiles) {
    if (synthetic_ && f == synthetic_->path && result_.testsFromComment) continue;
    // Through the loop's overlay: the accepted tests exist only there until the edit lands.
    if (auto text = t::readSource(f, discovery_.overlay)) prompt_.tests.push_back({relativePath(f, root_), *text});
  }
  if (const std::string secret = model_.secret(); !secret.empty()) prompt_.secrets.push_back(secret);

  fctx_.workspaceRoot = root_;
  fctx_.timeLimitSeconds = req_.config.sandbox.timeLimitSeconds;
  fctx_.memoryLimitMB = req_.config.sandbox.memoryLimitMB;
  fctx_.outputLimitKB = req_.config.sandbox.outputLimitKB;
  fctx_.processes = req_.config.sandbox.processes;
  fctx_.secrets = prompt_.secrets;
  for (const auto& f : plan_->testFiles) {
    if (auto text = discovery_.overlay(f)) fctx_.texts[f] = *text;
    else if (auto disk = t::readSource(f, {})) fctx_.texts[f] = *disk;
  }

  chat_.system = systemPrompt(target_.language);
  chat_.temperature = req_.config.temperature;
  chat_.maxTokens = req_.config.maxTokens;
  chat_.stream = true;
}

// greenlight.fix: what the current code does is round 0's feedback. False when the loop ends
// here (cancelled, or the tests already pass).
bool RefineLoop::fixBaseline() {
  if (token_.isCancelled()) {
    stopped();
    return false;
  }
  auto start = Clock::now();
  auto outcome = runTests(req_.text, target_.name, 0, 1, 1);
  result_.testsMs += msSince(start);
  if (token_.isCancelled() || outcome.result.cancelled) {
    stopped();
    return false;
  }
  fctx_.texts[req_.path] = req_.text;
  Score s = scoreOf(outcome, target_.stubText.size());
  if (s.allPassed) {
    result_.status = "passed";
    result_.code = target_.stubText;
    result_.newText = req_.text;
    result_.testsPassed = s.passed;
    result_.bestRun = outcome.result;
    result_.error = "the tests already pass; nothing to fix";
    return false;
  }
  prompt_.fix = true;
  prompt_.fixFeedback = shapeFeedback(outcome.result, fctx_);
  return true;
}

// Asks for `n` completions; the sandbox readies this round's run meanwhile.
std::vector<providers::ChatResult> RefineLoop::askModel(int round, int n, RoundReport& report) {
  RefineEvent asking;
  asking.phase = Phase::Asking;
  asking.round = round;
  asking.maxRounds = maxRounds_;
  asking.candidates = n;
  asking.message = roundPrefix(round, maxRounds_) + "asking the model" + (n > 1 ? " for " + std::to_string(n) + " candidates" : "");
  emit(asking);

  // While the model writes, the sandbox readies this round's run (a warm interpreter, when
  // spares and sandbox.warmInterpreters are on): its start-up is then off the round.
  {
    t::RunRequest warmup;
    warmup.path = req_.path;
    warmup.workspaceRoot = root_;
    warmup.config = req_.config;
    warmup.functionName = target_.name;
    if (target_.kind == TargetKind::Stub && target_.name.empty()) warmup.line = target_.headerFirst;
    warmup.extraTestFiles = discovery_.extraTestFiles;
    warmup.extraAreProjectTests = discovery_.extraAreProjectTests;
    warmup.overlay = overlayWith(std::make_shared<const std::string>(req_.text));
    tests_.prepare(std::move(warmup));
  }
  chat_.messages = buildMessages(prompt_);
  std::atomic<int> tokens{0};
  std::mutex writingMutex;
  auto lastWriting = Clock::time_point{};  // the first token is always reported
  auto modelStart = Clock::now();
  auto replies = model_.complete(chat_, n, token_, [&](int, std::string_view) {
    int now = ++tokens;
    std::lock_guard<std::mutex> lock(writingMutex);
    if (Clock::now() - lastWriting < std::chrono::milliseconds(100)) return;
    lastWriting = Clock::now();
    RefineEvent w;
    w.phase = Phase::Writing;
    w.round = round;
    w.maxRounds = maxRounds_;
    w.tokens = now;
    w.message = roundPrefix(round, maxRounds_) + "writing… " + std::to_string(now) + (now == 1 ? " token" : " tokens");
    emit(w);
  });
  report.modelMs = msSince(modelStart);
  result_.modelMs += report.modelMs;
  // Every completion was paid for, including those after a passing one (which are not run).
  for (const auto& reply : replies) {
    if (reply.usage.inputTokens) result_.promptTokens += *reply.usage.inputTokens;
    if (reply.usage.outputTokens) result_.completionTokens += *reply.usage.outputTokens;
  }
  return replies;
}

// One reply: its code (the target's definition, helpers and imports, the user's spec kept),
// rejected or deduplicated or spliced in and run.
CandidateReport RefineLoop::evaluate(const providers::ChatResult& reply, int round, int index, int count,
                                     RoundReport& report, Spliced& spliced, std::optional<t::RunResult>& run,
                                     bool& cancelled) {
  CandidateReport c;
  c.reply = bounded(reply.text, 4000);
  if (!reply.ok()) {
    c.status = "provider_error";
    c.feedback = reply.error.message;
    lastProviderError_ = reply.error.message;
    return c;
  }
  const ReplyCode taken = codeFromReply(reply.text, target_, req_.text);
  const std::string note = taken.note.empty() ? "" : "Note: " + taken.note + ".\n";
  std::string code = taken.code.empty() ? "" : normalizeCandidate(taken.code, target_);
  c.additions.imports = taken.imports;
  c.additions.exports = taken.exports;
  std::string key = code;
  for (const auto& i : taken.imports) key += "\n\x1f" + i;
  for (const auto& e : taken.exports) key += "\n\x1e" + e;
  if (code.empty()) {
    c.status = "no_code";
    c.feedback = note + "The reply held no " + fenceTag(target_.language) +
                 " code. Answer with one fenced code block that holds the complete code of the target.";
    return c;
  }
  if (std::string why = rejectCandidate(code, target_); !why.empty()) {
    c.status = "rejected";
    c.code = code;
    c.feedback = note + "The code was not run: " + why + ".";
    return c;
  }
  if (auto it = seen_.find(key); it != seen_.end()) {
    c = it->second;
    c.status = "duplicate";
    c.feedback = "This code is identical to an earlier candidate, which did not pass:\n" + it->second.feedback;
    return c;
  }
  c.code = code;
  spliced = splice(req_.text, target_, code, c.additions);
  std::string name = !target_.name.empty() ? target_.name : firstDefinedName(code, target_.language);
  auto start = Clock::now();
  auto outcome = runTests(spliced.text, name, round, index, count);
  double ms = msSince(start);
  report.testsMs += ms;
  result_.testsMs += ms;
  if (token_.isCancelled() || outcome.result.cancelled) {
    cancelled = true;
    return c;
  }
  if (outcome.result.error.empty() && !outcome.noTests && !t::anyTestRan(outcome.result.summary)) {
    // Every test near the target was skipped (or none was collected): nothing can verify it.
    c.code = code;
    c.status = "unverified";
    result_.noTests = true;
    result_.error = "no test ran: " + (outcome.result.summary.skipped
                                           ? std::to_string(outcome.result.summary.skipped) + " skipped"
                                           : std::string("the runner reported no test"));
    fctx_.texts[req_.path] = spliced.text;
    return c;
  }
  c.score = scoreOf(outcome, code.size());
  if (spliced.codeFirst > 0) {
    c.coverage = t::targetCoverage(outcome.result.coverage, req_.path, spliced.codeFirst, spliced.codeLast);
    if (c.coverage) c.score.allRun = c.coverage->complete();
  }
  c.passed = c.score.passed;
  c.failed = c.score.failed;
  c.errors = c.score.errors;
  fctx_.texts[req_.path] = spliced.text;
  if (c.score.allPassed) {
    c.status = "passed";
  } else if (!c.score.ran) {
    c.status = "error";
    c.feedback = shapeFeedback(outcome.result, fctx_);
    if (c.feedback.empty()) c.feedback = "The tests could not be run on this code.";
    c.feedback = note + c.feedback;
  } else {
    c.status = "failed";
    c.feedback = note + shapeFeedback(outcome.result, fctx_);
  }
  run = outcome.result;
  seen_[key] = c;
  RefineEvent scored;
  scored.phase = Phase::Scored;
  scored.round = round;
  scored.maxRounds = maxRounds_;
  scored.tests = c.passed + c.failed + c.errors;
  scored.passed = c.passed;
  scored.candidate = index;
  scored.candidates = count;
  scored.message = roundPrefix(round, maxRounds_) + std::to_string(c.passed) + "/" + std::to_string(scored.tests) + " passed";
  // What the passing tests verified; a failing candidate's coverage is not a verdict.
  if (c.coverage && c.score.allPassed) scored.message += " · " + t::linesRunText(*c.coverage, "new lines");
  emit(scored);
  return c;
}

RefineLoop::RoundEnd RefineLoop::playRound(int round) {
  if (token_.isCancelled()) return RoundEnd::Cancelled;
  RoundReport report;
  report.round = round;
  const int n = round == 1 ? candidates_ : 1;
  auto replies = askModel(round, n, report);
  if (token_.isCancelled()) {
    result_.rounds.push_back(report);
    return RoundEnd::Cancelled;
  }
  std::optional<Chosen> roundBest;
  int index = 0;
  for (auto& reply : replies) {
    ++index;
    Spliced spliced;
    std::optional<t::RunResult> run;
    bool cancelled = false;
    CandidateReport c = evaluate(reply, round, index, static_cast<int>(replies.size()), report, spliced, run, cancelled);
    if (cancelled) {
      report.candidates.push_back(c);
      result_.rounds.push_back(report);
      return RoundEnd::Cancelled;
    }
    Chosen chosen{c, spliced, run};
    if (!roundBest || better(c.score, roundBest->report.score) ||
        (!roundBest->report.score.ran && roundBest->report.code.empty() && !c.code.empty()))
      roundBest = chosen;
    report.candidates.push_back(std::move(c));
    // The first that passes every test and whose new lines all ran wins; one that passes with
    // lines no test ran waits for the others of its round.
    if (chosen.report.status == "passed" && chosen.report.score.allRun) break;
  }
  result_.rounds.push_back(report);
  if (roundBest && (!best_ || better(roundBest->report.score, best_->report.score) ||
                    (!best_->report.score.ran && !roundBest->report.code.empty() && best_->report.code.empty())))
    best_ = roundBest;

  // No test to run: one round, the code is shown unverified.
  if (result_.noTests) return RoundEnd::Stop;
  if (best_ && best_->report.status == "passed") return askForCoverage() ? RoundEnd::Continue : RoundEnd::Stop;
  bool allProviderErrors = !report.candidates.empty();
  for (const auto& c : report.candidates) allProviderErrors = allProviderErrors && c.status == "provider_error";
  if (allProviderErrors) {
    result_.error = lastProviderError_;
    return RoundEnd::Stop;
  }
  if (roundBest) prompt_.history.push_back({roundBest->report.code, roundBest->report.reply, roundBest->report.feedback});
  return RoundEnd::Continue;
}

// refine.requireCoverage: a passing candidate whose new lines did not all run gets one more
// round, told which lines no test ran (with their text), asked to drop dead code or say why.
// True when that round is to be played.
bool RefineLoop::askForCoverage() {
  const CandidateReport& b = best_->report;
  if (!req_.config.refine.requireCoverage || extraRounds_ > 0 || !b.coverage || b.coverage->complete()) return false;
  const std::vector<std::string_view> lines = lineViews(best_->spliced.text, true);
  std::string feedback = "Every test passed (" + std::to_string(b.passed) + "), but no test runs " +
                         std::to_string(b.coverage->notRun.size()) + " of the " + std::to_string(b.coverage->lines.size()) +
                         " lines of your code:\n";
  for (int line : b.coverage->notRun) {
    std::string_view l = line >= 1 && line <= static_cast<int>(lines.size()) ? lines[line - 1] : "";
    feedback += "  line " + std::to_string(line - best_->spliced.codeFirst + 1) + ": " + std::string(l) + "\n";
  }
  feedback += "Untested code is unverified code. Drop what the task does not need (dead code, special cases nobody "
              "asked for); if a line is needed, keep it and say why in a short comment on it. Keep every test passing.";
  prompt_.history.push_back({b.code, b.reply, feedback});
  extraRounds_ = 1;
  result_.coverageRound = true;
  result_.coverageReason = "requireCoverage: " + t::linesRunText(*b.coverage, "new lines") +
                           " in the passing candidate; one more round asked to drop or justify the others";
  return true;
}

RefineResult RefineLoop::finish() {
  if (result_.noTests) {
    if (best_ && !best_->report.code.empty() && best_->report.status != "rejected" && best_->report.status != "no_code") {
      Spliced sp = splice(req_.text, target_, best_->report.code, best_->report.additions);
      result_.status = "unverified";
      result_.code = best_->report.code;
      result_.additions = best_->report.additions;
      result_.edit = sp.edit;
      result_.edits = sp.edits;
      result_.newText = sp.text;
      if (target_.name.empty()) result_.target->name = firstDefinedName(best_->report.code, target_.language);
    } else {
      result_.status = result_.error.empty() ? "failed" : "error";
      if (result_.error.empty()) result_.error = best_ ? best_->report.feedback : "the model returned no code";
    }
    return result_;
  }
  if (!best_) {
    result_.status = "error";
    if (result_.error.empty()) result_.error = "the model returned nothing";
    return result_;
  }
  const CandidateReport& b = best_->report;
  result_.code = b.code;
  result_.additions = b.additions;
  result_.testsPassed = b.passed;
  result_.testsFailed = b.failed + b.errors;
  result_.bestRun = best_->run;
  result_.coverage = b.coverage;
  if (!b.code.empty()) {
    Spliced sp = best_->spliced.text.empty() ? splice(req_.text, target_, b.code, b.additions) : best_->spliced;
    result_.newText = sp.text;
    if (b.status == "passed") {
      result_.edit = sp.edit;
      result_.edits = sp.edits;
    }
  }
  if (target_.name.empty() && !b.code.empty()) result_.target->name = firstDefinedName(b.code, target_.language);
  if (result_.coverageRound) {
    result_.coverageReason += b.coverage ? "; chosen: the candidate that runs " + t::linesRunText(*b.coverage, "new lines")
                                         : "; chosen: a candidate whose coverage was not measured";
  }
  if (b.status == "passed") {
    result_.status = "passed";
    result_.error.clear();
    return result_;
  }
  result_.bestFeedback = b.feedback;
  bool anyRan = b.score.ran;
  if (!anyRan && !result_.error.empty()) {
    result_.status = "error";  // the provider failed before any candidate could run
    return result_;
  }
  result_.status = "failed";
  if (result_.error.empty()) {
    int total = b.passed + b.failed + b.errors;
    result_.error = anyRan ? "best candidate passed " + std::to_string(b.passed) + "/" + std::to_string(total)
                           : "no candidate could be run: " + b.feedback.substr(0, b.feedback.find('\n'));
  }
  return result_;
}

RefineResult RefineLoop::run() {
  result_.file = req_.path;
  result_.model = model_.describe();
  if (!locate()) return result_;
  maxRounds_ = std::max(1, req_.maxRounds > 0 ? req_.maxRounds : req_.config.refine.maxRounds);
  candidates_ = std::max(1, req_.candidates > 0 ? req_.candidates : req_.config.refine.candidates);
  budgetSeconds_ = req_.timeoutSeconds > 0 ? req_.timeoutSeconds : req_.config.refine.timeoutSeconds;
  root_ = req_.workspaceRoot.empty() ? t::findWorkspaceRoot(req_.path) : req_.workspaceRoot;
  budget_ = std::make_unique<LoopBudget>(cancel_, budgetSeconds_);
  token_ = budget_->token();
  if (!planTests()) return result_;
  if (testsFirstApplies()) {
    proposeTests();
    return result_;
  }
  preparePrompt();
  if (req_.fix && !fixBaseline()) return result_;
  for (int round = 1; round <= maxRounds_ + extraRounds_; ++round) {
    RoundEnd end = playRound(round);
    if (end == RoundEnd::Cancelled) return stopped();
    if (end == RoundEnd::Stop) break;
  }
  return finish();
}

}  // namespace

RefineResult RefineEngine::run(const RefineRequest& req, const std::function<void(const RefineEvent&)>& onEvent,
                               support::CancellationToken cancel) {
  RefineLoop loop(model_, tests_, req, onEvent, std::move(cancel));
  return loop.run();
}

}  // namespace greenlight::core::refine
