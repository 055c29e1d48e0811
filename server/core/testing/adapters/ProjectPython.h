// Which Python runs a project's test runner: the interpreter the user's own command would use,
// checked to import the runner (pytest), in this order:
//   1. python.interpreter as the shell resolves it (Toolchain.h: the project's venv first —
//      $VIRTUAL_ENV, uv's, .venv, venv, Poetry's —, then PATH, pyenv);
//   2. every other venv of the project (PythonEnvs.h);
//   3. the interpreter behind the `pytest` (or `py.test`) on PATH, read from its shebang: a
//      Debian /usr/bin/pytest runs /usr/bin/python3 even where `python3` on PATH is a pyenv
//      shim without pytest;
//   4. `python` on PATH (`python -m pytest`).
// The first that can import the module wins. When none can, the caller says so (exit 2) with
// what was tried: a pytest project never falls back to the built-in harness, which would only
// report the import error as a failed test.
//
// Thread-safety: as interpreterImports() (its cache is locked); otherwise pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/testing/Toolchain.h"
#include "core/testing/adapters/Adapter.h"

namespace greenlight::core::testing {

struct PythonChoice {
  std::optional<Tool> tool;        // the interpreter that imports the module; nullopt: none does
  std::vector<std::string> tried;  // every candidate, in words, for the error
};

PythonChoice pythonWith(const std::string& module, const DiscoveryContext& ctx);

// The sentence for a pytest project whose interpreters cannot import pytest.
std::string noPythonWithMessage(const std::string& module, const std::string& why, const PythonChoice& choice);

}  // namespace greenlight::core::testing
