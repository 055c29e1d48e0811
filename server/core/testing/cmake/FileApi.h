// Reading a CMake project's build: the CMake File API (codemodel-v2, cache-v2, toolchains-v1),
// `ctest --show-only=json-v1`, compile_commands.json as a fallback, and which object files
// depend on which headers (Ninja's .ninja_deps, Make's depfiles, or a quick #include scan).
// From those: the targets and the CTest tests that compile or include a given file.
//
//   writeQuery(buildDir)                  before `cmake -S src -B buildDir` (or re-run cmake)
//   readReply(buildDir)                   -> CodeModel (targets, compile groups, link, toolchains)
//   parseCtestJson(`ctest --test-dir buildDir --show-only=json-v1`) + attachTargets(model)
//   readDeps(buildDir)                    -> DepsIndex (object -> source + headers)
//   testsUsing(model, tests, file, deps)  -> the tests near `file`
//
// Every path that comes out is absolute and lexically normalized. Pure parsing functions except
// writeQuery/readReply/readReplyDir/readDeps/readCompileCommands/scanIncludes, which read files.
// Thread-safety: no shared state.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/testing/cmake/FrameworkReports.h"

namespace greenlight::core::testing::cmake {

// ---- the File API query

// The client query greenlight writes: codemodel v2, cache v2, toolchains v1.
std::string queryJson();
// Writes <buildDir>/.cmake/api/v1/query/client-greenlight/query.json (creating directories).
bool writeQuery(const std::string& buildDir, std::string* error = nullptr);

// ---- the reply

struct CompileGroup {
  std::string language;                // "CXX", "C"
  std::string languageStandard;        // "17", "20"; "" when CMake adds no -std (compiler default)
  std::vector<std::string> fragments;  // compileCommandFragments, in order, each as CMake wrote it
                                       // (one fragment may hold several flags: split them with
                                       // splitCommandLine)
  std::vector<std::string> includes;        // -I, absolute, in order
  std::vector<std::string> systemIncludes;  // -isystem
  std::vector<std::string> defines;         // "NAME" or "NAME=value"
  std::string sysroot;
  std::string compiler;  // the toolchain's compiler for `language` ("/usr/bin/c++"); "" unknown
};

struct Source {
  std::string path;       // absolute
  int compileGroup = -1;  // index into Target::compileGroups; -1: not compiled (a header)
  bool generated = false;
};

struct LinkFragment {
  std::string fragment;
  std::string role;  // "flags", "libraries", "libraryPath", "frameworkPath"
};

struct Target {
  std::string id, name;
  std::string type;  // EXECUTABLE, STATIC_LIBRARY, SHARED_LIBRARY, MODULE_LIBRARY, OBJECT_LIBRARY,
                     // INTERFACE_LIBRARY, UTILITY
  std::string nameOnDisk;
  std::string sourceDir;  // absolute: the directory whose CMakeLists.txt defines it
  std::string buildDir;   // absolute: its build directory
  std::vector<std::string> artifacts;  // absolute
  std::vector<Source> sources;
  std::vector<CompileGroup> compileGroups;
  bool hasLink = false;  // executables and shared/module libraries
  std::string linkLanguage;
  std::vector<LinkFragment> link;  // paths as the build tool sees them, relative to the top build dir
  std::vector<std::string> dependencies;  // ids of the targets it depends on (build order)
  std::string definedIn;  // the CMakeLists.txt of the add_executable/add_library, absolute
  int definedLine = 0;

  // <top build>/<its build dir>/CMakeFiles/<name>.dir: where its object files go (Ninja, Make).
  std::string objectDir() const;
};

struct Toolchain {
  std::string language;  // "CXX"
  std::string compilerPath, compilerId, compilerVersion;
  std::vector<std::string> implicitIncludes;
};

struct CodeModel {
  std::string sourceDir, buildDir;  // the top-level source and build directories
  std::string generator;            // "Ninja", "Unix Makefiles"
  bool multiConfig = false;
  std::string configuration;  // "Debug" ("" for an unnamed single configuration)
  std::string cmakeVersion;   // "3.25.1"
  std::vector<Target> targets;
  std::vector<Toolchain> toolchains;
  std::map<std::string, std::string> cache;  // cache-v2 entries: name -> value

  const Target* find(std::string_view name) const;
  const Target* findById(std::string_view id) const;
  // The target with this artifact (an absolute path, e.g. a test command's argv[0]).
  const Target* byArtifact(std::string_view path) const;
  const Toolchain* toolchain(std::string_view language) const;
};

// Parses one reply. `read` returns a reply file's text by its name ("codemodel-v2-....json"),
// nullopt when it cannot. `indexText` is the index-*.json. Pure.
std::optional<CodeModel> parseReply(const std::string& indexText,
                                    const std::function<std::optional<std::string>(const std::string&)>& read,
                                    std::string* error = nullptr);
// Reads the newest index-*.json in `replyDir` and the files it names.
std::optional<CodeModel> readReplyDir(const std::string& replyDir, std::string* error = nullptr);
// readReplyDir(<buildDir>/.cmake/api/v1/reply).
std::optional<CodeModel> readReply(const std::string& buildDir, std::string* error = nullptr);

// The arguments that compile `source` of `target` as the reply describes it (compiler, defines,
// includes, fragments, -o <object> -c <source>), for a build run from model.buildDir.
// `object` defaults to objectDir()/<source relative to the target's source dir>.o.
std::vector<std::string> compileArguments(const CodeModel& model, const Target& target, const Source& source,
                                          std::string object = {});

// POSIX-shell-like splitting ('...', "...", backslash escapes) of a command line or a fragment.
std::vector<std::string> splitCommandLine(std::string_view text);

// ---- compile_commands.json (the fallback when there is no File API reply)

struct CompileCommand {
  std::string directory;  // absolute
  std::string file;       // absolute
  std::string output;     // as written ("" when absent)
  std::vector<std::string> arguments;  // "arguments", or "command" split
};
std::vector<CompileCommand> parseCompileCommands(std::string_view text, std::string* error = nullptr);
std::vector<CompileCommand> readCompileCommands(const std::string& buildDir, std::string* error = nullptr);
// The -I / -isystem / -iquote directories of a command (absolute against its directory).
std::vector<std::string> includeDirsOf(const CompileCommand& command);

// ---- ctest --show-only=json-v1

struct CtestTest {
  std::string name;                  // the CTest name
  std::vector<std::string> command;  // argv; empty for a test CTest cannot run (NOT_BUILT)
  std::string workingDirectory;
  nlohmann::json properties = nlohmann::json::object();  // name -> value, all of them
  std::vector<std::string> labels;
  bool disabled = false;
  bool willFail = false;
  int skipReturnCode = -1;
  double timeoutSec = 0;
  std::string definedIn;  // the file of the add_test call (absolute) when the reply has a backtrace
  int definedLine = 0;    // (tests discovered by gtest/catch/doctest_discover_tests have none)

  Framework framework = Framework::Plain;
  std::string frameworkName;  // the framework's own test name: "Suite.Name" from --gtest_filter,
                              // the unescaped Catch2 spec, doctest's --test-case; plain: `name`
  std::string target;         // the target whose artifact argv[0] is (attachTargets); "" none
};
std::vector<CtestTest> parseCtestJson(std::string_view text, std::string* error = nullptr);

// Sets `target` from argv[0] and the framework: --gtest_filter= (GoogleTest), --test-case=
// (doctest), else the target's framework (targetFramework) with the first argument as the
// Catch2 spec. `deps` (may be null) helps recognize the framework of a target.
struct DepsIndex;
void attachTargets(std::vector<CtestTest>& tests, const CodeModel& model, const DepsIndex* deps = nullptr);

// The framework a target's tests use: its link line (gtest, Catch2 v3's libraries), then the
// headers its objects include (gtest/gtest.h, catch.hpp / catch2/, doctest.h) from `deps` or,
// without deps, by scanning its sources' #include lines. Plain when none.
Framework targetFramework(const CodeModel& model, const Target& target, const DepsIndex* deps = nullptr);

// ---- which files an object depends on

struct DepsIndex {
  // object file (absolute) -> its inputs (absolute; the source first, as the compiler listed them)
  std::map<std::string, std::vector<std::string>> objects;
};
// Ninja's binary deps log (.ninja_deps, format version 3 or 4). Relative paths are made absolute
// against `buildDir`. Later records for an output replace earlier ones, as in ninja.
std::optional<DepsIndex> parseNinjaDepsLog(std::string_view bytes, const std::string& buildDir,
                                           std::string* error = nullptr);
// A Make-syntax depfile ("out.o: a.cpp b.h \\\n c.h"): target -> prerequisites (as written).
std::vector<std::pair<std::string, std::vector<std::string>>> parseDepfile(std::string_view text);
// <buildDir>/.ninja_deps when present, else every *.o.d under <buildDir> (Makefile generators).
DepsIndex readDeps(const std::string& buildDir);

// The files `source` includes, directly or not, resolved against its own directory (quotes) and
// `includeDirs` in order; headers found nowhere there (the system's) are left out. #if is
// ignored, so this may list more than the compiler reads. At most `maxFiles` files.
std::vector<std::string> scanIncludes(const std::string& source, const std::vector<std::string>& includeDirs,
                                      std::size_t maxFiles = 4000);

// ---- the question: what is near a file

struct FileUse {
  const Target* target = nullptr;
  // The target's own sources that are `file` or include it; empty when it only links a library
  // that does (`through` names that library).
  std::vector<std::string> via;
  std::string through;  // the linked library target's name, when the use is through one
};
// The targets that compile `file` (a source) or include it (a header), and the targets that link
// a library that does (static, shared, object libraries; transitively). Header inclusion comes
// from `deps` when it knows the object, else from scanIncludes over the target's sources.
std::vector<FileUse> targetsUsing(const CodeModel& model, const std::string& file, const DepsIndex* deps = nullptr);
// The CTest tests whose argv[0] is the artifact of a target of targetsUsing, or whose command
// names `file`. Needs attachTargets first.
std::vector<const CtestTest*> testsUsing(const CodeModel& model, const std::vector<CtestTest>& tests,
                                         const std::string& file, const DepsIndex* deps = nullptr);

}  // namespace greenlight::core::testing::cmake
