// The Python harness, compiled once per interpreter. Compiling its ~600 lines is 10-15 ms of
// every run on a cold interpreter (bench/runners); unmarshalling the code object is 0.3 ms.
//
// The bytecode is produced in the sandbox by the interpreter itself in isolated mode
// (`-I -S`: no site, no .pth files, no user paths, so no workspace code takes part) and kept
// where sandboxed code never writes: memory, and $XDG_CACHE_HOME/greenlight (else
// ~/.cache/greenlight), keyed by the interpreter's path and fingerprint and the harness text.
// Any failure just means the harness runs from source. Thread-safe.
#pragma once

#include <optional>
#include <string>

#include "core/testing/Toolchain.h"
#include "sandbox/Sandbox.h"

namespace greenlight::core::testing {

// What `script`, run by `tool` in isolated mode in the sandbox with `input` on stdin and `arg` as
// its argument, prints as base64: kept in memory and in bytecodeCacheDir() as
// <name>-<key><suffix>, keyed by the interpreter's path and fingerprint, the script, the input
// and the argument. nullopt when it fails or `valid` refuses the bytes: remembered for the process,
// and on disk (<file>.refused) when the script itself exited non-zero.
struct PythonProduct {
  std::string name;    // "python-harness": the cache file's prefix, and the log's word
  std::string script;  // python -c
  std::string input;   // stdin
  std::string arg;     // argv[1]
  std::string suffix;  // the cache file's
  bool (*valid)(const std::string& bytes);
};
std::optional<std::string> cachedPythonProduct(const Tool& tool, const PythonProduct& product, sandbox::Policy policy);

// The .pyc bytes of `source` for `tool` (compiled as if from `displayPath`), or nullopt.
// `policy` is the sandbox to compile in (argv, stdin and profile are set here).
std::optional<std::string> pythonHarnessBytecode(const Tool& tool, const std::string& source,
                                                 const std::string& displayPath, sandbox::Policy policy);

// Where the on-disk cache lives ("" when neither XDG_CACHE_HOME nor HOME is set).
std::string bytecodeCacheDir();

}  // namespace greenlight::core::testing
