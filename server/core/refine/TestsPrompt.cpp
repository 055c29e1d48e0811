#include "core/refine/TestsPrompt.h"

#include <sstream>

#include "core/providers/Redact.h"
#include "core/refine/Feedback.h"
#include "core/refine/ReplyText.h"

namespace greenlight::core::refine {

using testing::Language;

namespace {

std::string fenceOf(Language language, const std::string& body) {
  std::string b = body;
  while (!b.empty() && b.back() == '\n') b.pop_back();
  return "```" + fenceTag(language) + "\n" + b + "\n```\n";
}

std::string frameworkWords(const TestsPlacement& p) {
  if (p.framework == "pytest")
    return "pytest: plain `def test_...():` functions without parameters (no fixtures, no parametrize: the tests run "
           "before their file exists) with `assert`, `pytest.raises` for expected errors";
  if (p.framework == "unittest") return "unittest: a `unittest.TestCase` class with `test_...` methods";
  if (p.framework == "python")
    return "plain `def test_...():` functions with `assert` and only the standard library (no pytest); expect an error with "
           "try/except";
  if (p.framework == "node:test")
    return "node:test and node:assert: `test('...', () => { assert.deepStrictEqual(...) })`, `assert.throws` for expected "
           "errors";
  if (p.framework == "vitest")
    return "vitest: `import { describe, it, expect } from 'vitest';` then `it('...', () => { expect(...).toEqual(...) })`, "
           "`expect(() => ...).toThrow()` for expected errors";
  if (p.framework == "jest")
    return "jest with its globals (no import of them): `test('...', () => { expect(...).toEqual(...) })`, "
           "`expect(() => ...).toThrow()` for expected errors";
  if (p.framework == "jest:@jest/globals")
    return "jest: `import { describe, test, expect } from '@jest/globals';` (as the project's tests do), "
           "`expect(() => ...).toThrow()` for expected errors";
  if (p.framework == "mocha:chai")
    return "mocha with chai, as the project's tests do: `const { expect } = require('chai');`, `describe`/`it` globals, "
           "`expect(...).to.deep.equal(...)`, `expect(() => ...).to.throw()` for expected errors";
  if (p.framework == "mocha:node:assert")
    return "mocha (`describe`/`it` globals) with node:assert: `assert.deepStrictEqual(...)`, `assert.throws` for expected "
           "errors";
  if (p.framework == "assert")
    return "a C++ program: `#include <cassert>`, each check an `assert(...)` in `int main()` (which returns 0); an expected "
           "exception checked with try/catch";
  if (p.framework == "catch2") return "Catch2: `TEST_CASE(\"...\") { REQUIRE(...); }`, `REQUIRE_THROWS_AS` for expected errors";
  if (p.framework == "gtest") return "GoogleTest: `TEST(Suite, Name) { EXPECT_EQ(...); }`, `EXPECT_THROW` for expected errors";
  if (p.framework == "doctest")
    return "doctest: `TEST_CASE(\"...\") { CHECK(...); }`, `CHECK_THROWS_AS` for expected errors; no main (the target has one)";
  if (p.framework == "boost")
    return "Boost.Test: `BOOST_AUTO_TEST_CASE(name) { BOOST_TEST(...); }`, `BOOST_CHECK_THROW` for expected errors; no main";
  return p.framework;
}

}  // namespace

std::string testsSystemPrompt(Language language) {
  return "You are greenlight, a careful " + std::string(language == Language::Python ? "Python" : language == Language::Cxx ? "C++" : "JavaScript") +
         " tester working inside the user's editor. You write the tests for code that does not exist yet, from its "
         "specification alone: the comment and the signature. The user reviews your tests; then an implementation "
         "is written to pass them.\n"
         "Rules:\n"
         "1. Test only what the specification says. Every test must fail on a stub that raises or returns nothing.\n"
         "2. Use the project's framework and style, and import the target exactly as told.\n"
         "3. Answer with exactly one fenced code block tagged " + fenceTag(language) +
         ", holding the whole test code (imports included). Never write the implementation.\n"
         "4. The tests run without network access, without a terminal and with limited time and memory.\n"
         "5. After the code block, say nothing more.\n";
}

std::vector<providers::Message> buildTestsMessages(const TestsPromptInput& in, const PromptLimits& limits) {
  const Target& t = in.target;
  const Language lang = t.language;
  PromptInput marked;
  marked.target = t;
  marked.fileText = in.fileText;
  std::ostringstream m;
  m << "Write the tests for " << (t.name.empty() ? std::string("the code") : t.name + "()")
    << ", which does not exist yet, from its specification alone.\n\n";
  m << "File: " << in.filePath << "\n" << fenceOf(lang, markedFile(marked, limits)) << "\n";
  if (!t.comment.empty()) {
    m << "The specification (the comment above it):\n";
    std::istringstream c(t.comment);
    for (std::string l; std::getline(c, l);) m << "  " << l << "\n";
  }
  if (!t.signature.empty()) m << "\nSignature: " << t.signature << "\n";
  m << "\nThe tests go in " << in.testPath << (in.placement.exists ? " (it exists: your tests are added at its end)" : " (a new file)")
    << ".\nFramework: " << frameworkWords(in.placement) << ".\n";
  m << "Import the target as: " << in.placement.importLine << "\n";
  if (!in.placement.exampleText.empty()) {
    m << "\nAnother test file of the project, for its style and imports:\nFile: " << in.examplePath << "\n"
      << fenceOf(lang, boundHeadTail(in.placement.exampleText, 120, limits.testFileBytes / 2));
  }
  m << "\nWrite 3 to 6 focused tests, each named for what it checks. Answer with one ```" << fenceTag(lang)
    << " block holding only the test code.\n";
  return {{"user", providers::redactSecrets(m.str(), in.secrets)}};
}

std::string testsFromReply(const std::string& reply, Language language) {
  auto units = replyUnits(stripReasoning(reply), language);
  std::string best;
  for (const auto& u : units.units) {
    if (u.diff || u.code.empty()) continue;
    if (u.fenced || best.empty()) best = u.code;
  }
  return best;
}

}  // namespace greenlight::core::refine
