// Every word greenlight says to the model lives here and in Prompt.cpp (DESIGN.md "Prompt"): the
// rules, the file with the target marked, the nearby tests (bounded, whole files preferred, cut
// with a visible marker), and for a later round the previous candidate and its feedback. The
// golden prompts in tests/refine/golden/ pin the exact text: change both together and bump
// kPromptVersion.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/providers/Types.h"
#include "core/refine/Target.h"

namespace greenlight::core::refine {

inline constexpr const char* kPromptVersion = "greenlight-refine-1";

struct PromptFile {
  std::string path;  // as shown to the model (relative to the workspace)
  std::string text;
};

struct PromptTurn {
  std::string code;      // the candidate's code as it was spliced ("" when the reply had none)
  std::string reply;     // the raw reply, used when there was no code to show
  std::string feedback;  // what happened when it ran (Feedback.h), or why it was not run
};

struct PromptInput {
  Target target;
  std::string filePath;                  // the file under edit, relative
  std::string fileText;                  // its text as the user has it (unsaved included)
  std::vector<PromptFile> tests;         // nearby test files (whole texts)
  std::vector<std::string> testNames;    // the tests that will run (empty: all of the files')
  bool sameFileTests = false;            // Python: tests in the file itself / doctests
  bool testsFromComment = false;         // the tests are the comment's examples
  std::string exportHint;                // JavaScript: how the tests import the function
  bool fix = false;                      // greenlight.fix: the target is existing code that fails
  std::string fixFeedback;               // fix: the failure of the current code (round 0)
  std::vector<PromptTurn> history;       // earlier rounds of this generation, oldest first
  std::vector<std::string> secrets;      // redacted wherever they would appear
};

struct PromptLimits {
  std::size_t fileLines = 400;       // beyond: a window around the target plus the file's head
  std::size_t testFileBytes = 16000;
  std::size_t testBytesTotal = 32000;
};

// "python" / "javascript" / "cpp": the fence tag the reply must use.
std::string fenceTag(testing::Language language);

// The system prompt (the rules).
std::string systemPrompt(testing::Language language);

// The messages of the conversation for the next round (user, assistant, user, ...).
std::vector<providers::Message> buildMessages(const PromptInput& input, const PromptLimits& limits = {});

// The file as the model sees it: the target marked, long files windowed with cut markers.
std::string markedFile(const PromptInput& input, const PromptLimits& limits);

}  // namespace greenlight::core::refine
