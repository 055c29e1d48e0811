// Feedback -> diagnostics: one error per failing test, placed where the user must look.
//
//  - an exception, a timeout with a frame, a memory error: the deepest frame inside the file
//    under test (the raising / spinning line); else the deepest frame in any file of the run;
//    else the test's own line;
//  - a failed assertion: the deepest frame in the file under test when there is one (same-file
//    tests, doctests); else the assertion line in the test file, PLUS a diagnostic on the
//    definition of the function under test when it can be told (the function at LINE, or the
//    callee named in the assertion), its related information pointing at the assertion;
//  - compile errors: one per gcc/clang error, where the compiler put it;
//  - sandbox refusals and memory limits: the running test's line.
// Codes are those of DESIGN.md; messages name the test and expected vs actual; `data` carries
// the test, status, expected/actual, frames and the captured output (capped at 4 KiB).
//
// Thread-safety: pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

struct DiagnosticContext {
  std::string sourceFile;  // the file under test
  std::string sourceText;  // its text as run
  Language language = Language::Python;
  std::optional<FunctionAt> function;          // the function at LINE, when known
  std::map<std::string, std::string> texts;    // texts of the run's files, for ranges
};

std::vector<Diagnostic> buildDiagnostics(const RunResult& result, const DiagnosticContext& context);

nlohmann::ordered_json diagnosticToJson(const Diagnostic& diagnostic);

}  // namespace greenlight::core::testing
