// What the model sees of a failed round (DESIGN.md "Feedback"): per failing test its name, the
// failing line of the test, the assertion with actual and expected values, where the wrong value
// came from (the return line and locals of the function under test, when traced), the exception
// and the last frames in the user's code with their source lines; the verdict in words; compiler
// errors as `file:line: message`; captured output bounded head + tail with `… N lines cut …`.
// Host paths are made relative to the workspace, staging paths removed, timings and addresses
// blanked, and secrets redacted, so identical failures read identically in every round and run.
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

struct FeedbackLimits {
  std::size_t maxLines = 160;       // the whole feedback
  std::size_t maxBytes = 12000;
  std::size_t outputLines = 12;     // per test's captured output
  std::size_t compilerMessages = 12;
};

struct FeedbackContext {
  std::string workspaceRoot;                 // paths below it are shown relative
  std::map<std::string, std::string> texts;  // host path -> text as run (to quote lines)
  double timeLimitSeconds = 10;
  int memoryLimitMB = 512;
  int outputLimitKB = 1024;
  int processes = 64;
  std::vector<std::string> secrets;          // never shown (API keys)
  FeedbackLimits limits;
};

// The feedback for one run; "" when every test passed.
std::string shapeFeedback(const testing::RunResult& result, const FeedbackContext& context);

// One sentence for a sandbox verdict that ended the run ("timed out after 2 s", "exceeded the
// memory limit of 512 MB", "the sandbox refused the system call ptrace"), "" when it ended normally.
std::string verdictInWords(const testing::RunResult& result, const FeedbackContext& context);

// Text from outside (messages, output): relative paths, no staging paths, no addresses, secrets
// redacted. `dropTimings` also blanks durations ("0.012s", "12 ms").
std::string sanitizeText(std::string_view text, const FeedbackContext& context, bool dropTimings);

// At most `maxLines` lines and `maxBytes` bytes: the head and the tail, joined by a line
// "… N lines cut …".
std::string boundHeadTail(std::string_view text, std::size_t maxLines, std::size_t maxBytes);

// `path` relative to `root` when below it, else unchanged.
std::string relativePath(const std::string& path, const std::string& root);

}  // namespace greenlight::core::refine
