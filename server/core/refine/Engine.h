// The generate → run → refine loop (DESIGN.md "Generate → run → refine"), LSP-agnostic: the
// CLI's `greenlight generate` and the LSP's greenlight.generate / greenlight.fix both drive it.
//
//   find the target → discover the nearby tests (else tests from the comment's examples, else
//   tests first: propose tests and stop, or with accepted tests run against those; else
//   unverified) → round 1: ask for `candidates` completions → for each: take the target's code,
//   its helpers and imports from the reply (ReplyCode.h, the user's docstring kept), reject what
//   must not run (no code, redefined tests), skip duplicates, splice it into the
//   unsaved text (an overlay; the file on disk is never touched) and run the nearby tests in the
//   sandbox → stop at the first candidate that passes every test; else the best one carries on
//   with its feedback into the next round, up to maxRounds and timeoutSeconds.
//
// ## Threading model
// run() blocks the calling thread (the CLI's main thread, an LSP pool worker) for the whole
// loop. The model's requests run on the ChatClient's I/O thread (several at once for N
// candidates); the tests run on the calling thread through TestService::runNow (its own
// sandbox supervision). Events (onEvent) are delivered on the calling thread, except the
// "writing… N tokens" reports, which come from the ChatClient's I/O thread while the model
// streams; an onEvent must therefore be thread-safe and quick. A watchdog thread enforces
// refine.timeoutSeconds by cancelling the loop's own token. Cancellation (the caller's token)
// is checked before every long step (model call, test run, round) and stops the model call and
// the sandbox at once (both watch the token's fd).
//
// Thread-safety: one RefineEngine may run several loops at once from different threads (it
// holds only references to thread-safe services).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/config/Config.h"
#include "core/refine/Model.h"
#include "core/refine/Score.h"
#include "core/refine/Splice.h"
#include "core/refine/Target.h"
#include "core/testing/Coverage.h"
#include "core/refine/TestsFirst.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "support/Cancellation.h"

namespace greenlight::core::refine {

struct RefineRequest {
  std::string path;           // absolute, normalised
  std::string text;           // the file's text to start from (the editor's unsaved text)
  int line = 1;               // 1-based: the comment / stub (generate) or the failing code (fix)
  std::string workspaceRoot;  // empty: findWorkspaceRoot(path)
  Config config;
  int maxRounds = 0;          // 0: config.refine.maxRounds
  int candidates = 0;         // 0: config.refine.candidates
  double timeoutSeconds = 0;  // 0: config.refine.timeoutSeconds
  testing::OverlayProvider overlay;  // unsaved texts of OTHER files (may be empty)
  bool fix = false;           // greenlight.fix: the target is the existing definition at `line`
  bool allowUnverified = true;  // without tests: still ask the model (the result is "unverified")
  // Tests first (TestsFirst.h): "" follows config.generate.testsFirst; "ask"/"always" propose
  // tests when the target has none (the result is "tests_proposed"), "never" keeps "unverified".
  std::string testsFirst;
  // Tests the user accepted: the loop runs against them (an overlay of the test file). An empty
  // path means where placeTests puts them.
  std::optional<AcceptedTests> acceptedTests;
};

enum class Phase { Asking, Writing, Running, Scored, Done };

struct RefineEvent {
  Phase phase = Phase::Asking;
  int round = 0, maxRounds = 0;
  int tokens = 0;             // Writing: completion tokens so far this round (all candidates)
  int tests = 0;              // Running: how many tests will run; Scored: how many ran
  int passed = 0;             // Scored
  int candidate = 0, candidates = 0;
  std::string message;        // the progress line: "round 2/3: 5/7 passed"
};

// The accepted tests of a tests-first generation, to be written with the code.
struct TestsOutcome {
  std::string path;          // absolute
  std::string text;          // the whole text the file is to have
  std::string original;      // its text before (when it exists)
  bool isNew = true;         // the file does not exist yet (created with the edit)
  int count = 0;             // the tests the file defines
  std::vector<std::string> names;
};

struct CandidateReport {
  // passed | failed | error (could not run) | rejected | no_code | duplicate | provider_error
  std::string status;
  int passed = 0, failed = 0, errors = 0;
  std::string feedback;       // what the next round would be told ("" when it passed)
  std::string code;           // normalised code ("" when there was none)
  Additions additions;        // the imports (and JavaScript exports) it adds elsewhere in the file
  std::string reply;          // the model's raw reply (bounded)
  Score score;
  // Which of its new lines (the target's lines in the spliced text) the tests ran; nullopt when
  // the run measured nothing (testing/Coverage.h).
  std::optional<testing::TargetCoverage> coverage;
};

struct RoundReport {
  int round = 0;
  double modelMs = 0, testsMs = 0;
  std::vector<CandidateReport> candidates;
};

struct RefineResult {
  // passed | failed | unverified | cancelled | error | tests_proposed
  std::string status = "error";
  std::optional<TestsProposal> proposal;  // tests_proposed: the tests to show (nothing written)
  std::optional<TestsOutcome> tests;      // ran against accepted tests: the test file to write with the code
  std::string file;
  std::optional<Target> target;
  std::string code;                 // the chosen candidate's code (best attempt when failed)
  Additions additions;              // what the chosen candidate adds elsewhere (imports, exports)
  std::optional<TextEdit> edit;     // passed / unverified: the target's edit
  std::vector<TextEdit> edits;      // passed / unverified: every edit to apply (the target's and the additions'), in text order
  std::string newText;              // the file with the chosen candidate spliced in
  std::string bestFeedback;         // failed: the best candidate's feedback
  std::optional<testing::RunResult> bestRun;  // the chosen candidate's test run
  std::vector<RoundReport> rounds;
  int testsPassed = 0, testsFailed = 0;       // of the chosen candidate
  double modelMs = 0, testsMs = 0;
  int promptTokens = 0, completionTokens = 0;
  bool noTests = false;             // no nearby test and no example in the comment
  bool testsFromComment = false;
  bool usageError = false;          // error caused by the request (bad line): CLI exit 2
  bool timedOut = false;            // stopped by refine.timeoutSeconds
  std::string error;                // status error / failed: why, one sentence
  std::string model;                // which model answered
  // The chosen candidate's new lines that the tests ran (nullopt: not measured).
  std::optional<testing::TargetCoverage> coverage;
  // refine.requireCoverage: a passing candidate left lines unrun, and one more round asked the
  // model to drop them or say why; `coverageReason` says what was decided.
  bool coverageRound = false;
  std::string coverageReason;
};

class RefineEngine {
 public:
  // `model` and `tests` must outlive the engine and be thread-safe.
  RefineEngine(Model& model, testing::TestService& tests) : model_(model), tests_(tests) {}

  RefineResult run(const RefineRequest& request, const std::function<void(const RefineEvent&)>& onEvent,
                   support::CancellationToken cancel = {});

 private:
  Model& model_;
  testing::TestService& tests_;
};

}  // namespace greenlight::core::refine
