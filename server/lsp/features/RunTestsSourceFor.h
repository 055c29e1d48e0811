// Which source file a saved TEST file belongs to, so runOnSave on test_m.py runs m.py's nearby
// tests (and marks m.py) instead of the test file alone. The inverse of Discovery's naming
// rules (DESIGN.md "Nearby tests"): test_m.py / m_test.py -> m.py; m.test.js / m.spec.js ->
// m.js (.mjs, .cjs); m_test.cpp / test_m.cpp -> m.cpp (.cc, .hpp, .h); a test file under
// tests/, test/ or __tests__/ also looks one directory up.
//
// Thread-safety: pure functions.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace greenlight::lsp {

// Candidate source paths for `testFile`, most likely first; empty when it is not a test file.
std::vector<std::string> sourceCandidatesFor(const std::string& testFile);

// The first candidate for which `exists` is true.
std::optional<std::string> sourceFor(const std::string& testFile, const std::function<bool(const std::string&)>& exists);

}  // namespace greenlight::lsp
