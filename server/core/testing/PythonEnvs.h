// The virtualenvs a project's own commands run in, the way the tools that made them find them
// again. Read from files only (no process): what `pytest` or `python` would run in the user's
// shell in that project, most specific first.
//
//   $VIRTUAL_ENV             an activated venv (the shell's own choice)
//   $UV_PROJECT_ENVIRONMENT  uv's override of its project environment (relative to the root)
//   <root>/.venv, <root>/venv  uv's default, Poetry's `virtualenvs.in-project`, python -m venv
//   Poetry's own             <virtualenvs.path>/<name>-<sha256(realpath(root)) in base64url, 8>-py<X.Y>,
//                            the X.Y that Poetry's envs.toml says is active (else the newest)
//
// Thread-safety: pure functions.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace greenlight::core::testing {

// Looks an environment variable up ("" when unset).
using EnvLookup = std::function<std::string(const std::string&)>;

// Candidate venv directories (each holding pyvenv.cfg) for the project at `root`, in order.
std::vector<std::string> projectVenvs(const std::string& root, const EnvLookup& env);

// Poetry's name for the project's environment ("ledger-AbCdEf12") from the package name and the
// project directory as given (the caller passes the real path), "" when `name` is empty.
std::string poetryEnvName(const std::string& packageName, const std::string& projectDir);

// The virtualenv Poetry made for the project at `root` (whose pyproject.toml has [tool.poetry]),
// "" when it has none.
std::string poetryVenv(const std::string& root, const EnvLookup& env);

}  // namespace greenlight::core::testing
