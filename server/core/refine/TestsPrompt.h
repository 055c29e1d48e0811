// The words of the tests-first request (TestsFirst.h): tests written from the comment and the
// signature alone. A separate request from the implementation's: it holds the comment, the
// signature, the file with the target marked (its stub, never an implementation), the project's
// framework, where the file goes and how it imports the target, and another test file of the
// project for its style. The refine prompts (Prompt.h) are untouched by it.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/providers/Types.h"
#include "core/refine/Prompt.h"
#include "core/refine/TestsFirst.h"

namespace greenlight::core::refine {

struct TestsPromptInput {
  Target target;
  std::string filePath;       // relative to the workspace
  std::string fileText;       // the file as the user has it (the target unimplemented)
  std::string testPath;       // relative: where the tests go
  TestsPlacement placement;
  std::string examplePath;    // relative
  std::vector<std::string> secrets;
};

std::string testsSystemPrompt(testing::Language language);
std::vector<providers::Message> buildTestsMessages(const TestsPromptInput& input, const PromptLimits& limits = {});

// The test code of the reply: its last fenced block in the language (the tests as revised), or
// the whole reply when it has no fence. "" when there is none.
std::string testsFromReply(const std::string& reply, testing::Language language);

}  // namespace greenlight::core::refine
