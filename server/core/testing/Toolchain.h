// Finds the interpreter or compiler a configured name ("python3", "node", "g++", or a path)
// stands for, the way the user's shell would, and what the sandbox must bind to run it.
//
// Resolution order for a bare name:
//  1. a virtualenv (python names only): the project's, as PythonEnvs.h finds them ($VIRTUAL_ENV,
//     uv's, <workspace>/.venv or venv, Poetry's);
//  2. node: the version the project pins in .nvmrc / .node-version, when nvm has it installed;
//     then PATH lookup (the caller's PATH, or the one in Request::environment); a node on PATH
//     that misses package.json's engines.node gives way to nvm's newest that meets it
//     (NodeVersions.h);
//  3. a pyenv shim found on PATH (a shell script that would `pyenv exec`) is followed to the
//     real binary: PYENV_VERSION, else the nearest .python-version from the workspace upward,
//     else $PYENV_ROOT/version; "system" continues the PATH search past the shims. When the
//     files do not settle it, `pyenv which <name>` is asked.
//  4. node not on PATH: nvm's default alias ($NVM_DIR/alias/default).
// The result's `path` is the real binary (symlinks resolved), `version` its --version line,
// and `bindPrefixes` the installation roots outside the system directories that the sandbox
// must bind read-only (e.g. /root/.pyenv/versions/3.11.7, or a venv and its base prefix).
//
// Thread-safety: resolveTool() may be called from any thread; results are cached per
// (name, workspace, PATH, PYENV_VERSION, VIRTUAL_ENV, NVM_DIR) for the life of the process
// (clearToolCache() empties it, e.g. when the user changes the interpreter setting).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace greenlight::core::testing {

struct ToolRequest {
  std::string name;           // "python3", "node", "g++", "/opt/py/bin/python", "./venv/bin/python"
  std::string workspaceRoot;  // for .python-version, .venv and relative paths; may be empty
  // Variables to use instead of the process environment (PATH, HOME, PYENV_ROOT, PYENV_VERSION,
  // VIRTUAL_ENV, NVM_DIR). Unset keys fall back to the process environment.
  std::map<std::string, std::string> environment;
  // Run `<tool> --version` (cached) to fill Tool::version. Off by default: it is one more
  // process start per `greenlight run` (~10 ms for CPython), and Tool::fingerprint already
  // tells an upgraded binary apart.
  bool queryVersion = false;
};

struct Tool {
  std::string requested;     // the name asked for
  std::string path;          // the real binary, absolute, symlinks resolved
  std::string invokedAs;     // what the shell would exec (the venv's python, a shim's target)
  std::string version;       // first line of --version output, e.g. "Python 3.11.7" (queryVersion)
  std::string fingerprint;   // "inode:size:mtime_ns" of `path`: changes when the binary is replaced
  std::string via;           // "path", "pyenv", "venv", "nvm", "nvmrc", "engines", "absolute"
  std::vector<std::string> bindPrefixes;  // read-only binds the sandbox needs; may be empty
  // Extra environment the tool needs inside the sandbox (e.g. VIRTUAL_ENV for a venv python).
  std::vector<std::string> environment;
};

// Returns nullopt and sets `error` (naming what was searched) when nothing is found.
std::optional<Tool> resolveTool(const ToolRequest& request, std::string* error);

void clearToolCache();

// True for directories the sandbox binds anyway (/usr, /bin, /lib*, /etc...); such prefixes
// are never returned in Tool::bindPrefixes.
bool isSystemPrefix(const std::string& path);

}  // namespace greenlight::core::testing
