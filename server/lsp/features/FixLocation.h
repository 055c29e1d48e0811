// Where greenlight.fix works: the function a failing test's diagnostic is about, in the file
// under test. A diagnostic may sit in the source (on the line that returned the wrong value, or
// the definition) or in a test file (the assertion): then the function is the traced origin in
// its `data`, or the callee its message names ("slugify(...) returned ..."), looked up in the
// source that test file belongs to.
//
// Thread-safety: pure; `readText` is called on the calling thread.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "protocol/Json.h"

namespace greenlight::lsp {

struct FixLocation {
  std::string path;  // the file under test
  int line = 0;      // 1-based: a line inside the function to fix
  std::string function;  // its name, when known
  std::string test;      // the failing test's name, when known
};

// `path`/`line0`: the document and 0-based line the command was invoked on; `diagnostic`: the
// LSP diagnostic as published (may be null). `readText` gives a file's current text.
std::optional<FixLocation> locateFix(const std::string& path, int line0, const protocol::Json& diagnostic,
                                     const std::function<std::optional<std::string>(const std::string&)>& readText,
                                     const std::function<bool(const std::string&)>& exists, std::string* error);

// "slugify" from "test_x: AssertionError: slugify('a') returned 'b', expected 'c'", else "".
std::string calleeInMessage(const std::string& message);

}  // namespace greenlight::lsp
