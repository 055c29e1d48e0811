// A project whose only build description greenlight can read is a compile_commands.json (Make
// through `bear -- make`, Bazel's compile-commands extractors, a hand-written one): each
// translation unit's flags come from its entry, never guessed.
//
// The test programs: every entry that declares test cases (GoogleTest, Catch2, doctest,
// Boost.Test) is a test source. A run links the test sources it needs with
//   - the project's main for that framework when one entry provides it (a TU that defines main(),
//     CATCH_CONFIG_MAIN, DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN, BOOST_TEST_MODULE), else the
//     framework's own main (gtest_main, a generated CATCH_CONFIG_MAIN / doctest / Boost.Test
//     main compiled with the test file's own flags);
//   - every other entry that defines no main (the project's library sources);
//   - the framework's libraries (-lgtest, -lboost_unit_test_framework, ...), -pthread.
// greenlight writes a build.ninja for that into its private build directory (cmake/PrivateBuild.h:
// <cache>/cmake/<project>-<hash>/build): each TU with its entry's command, `-o` its own object
// and a depfile (so that ninja rebuilds only what an edit reaches, and its deps log says which
// headers each TU reads); the entries' directories are read-only, as is the whole project.
//
// Bazel's extractors name files through its symlinks: an entry's directory is the execroot
// (<output base>/execroot/_main, under ~/.cache/bazel), whose src/ links to the workspace's, or
// the workspace, whose bazel-out/ and external/ link into the output base. The entries' files are
// read through those links as the project's own paths (a test file opened as <workspace>/src/x.cc
// is the entry of execroot/_main/src/x.cc), and the directories outside the project the compiles
// read (outsideDirs) are bound read-only at their real paths into the sandboxed build and runs.
//
// Thread-safety: pure functions (they read files); writeNinja needs the PrivateBuild's Lock.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/testing/cmake/FileApi.h"
#include "core/testing/native/Programs.h"

namespace greenlight::core::testing::native {

struct CompileDb {
  std::string root;    // the project directory (the database's directory, or the one above build/)
  std::string path;    // compile_commands.json
  std::vector<cmake::CompileCommand> entries;  // files followed through `links`
  // The children of an entry's directory outside the project that link into it (Bazel's
  // execroot/_main/src), and the project's children that link out of it (bazel-out, external).
  std::vector<PathLink> links;
};

// The database of the project `file` belongs to: compile_commands.json in a directory above the
// file, or in its build/, out/ or _build/ (Bazel's extractors write it at the workspace root), up to
// the repository root; not a CMake or Meson build's (those have their own adapters): nullopt.
std::optional<CompileDb> findCompileDb(const std::string& file);

// The test programs for a run that reaches `sources` (test sources of the database; empty: all):
// one program per framework, holding those test sources. `buildDir`: where objects and binaries
// go. `ninja` receives the build.ninja text that builds them.
std::vector<Program> compileDbPrograms(const CompileDb& db, const std::string& buildDir, std::string* ninja,
                                       std::string* error);

// The host directories outside `projectDir` that the entries' compiles read: each entry's
// directory, the real places its include directories (-I, -isystem, -iquote, -idirafter) and its
// file's directory resolve to, and the real directory holding every symlink followed on the way
// there. A directory in a Bazel output base (the nearest ancestor holding execroot/) stands for
// the output base. Never "/", $HOME or a directory holding it or the project, nor the system
// directories the sandbox shows itself (/usr, /lib...); missing directories are left out. Sorted,
// none inside another.
std::vector<std::string> outsideDirs(const CompileDb& db, const std::string& projectDir);

// What links an entry's objects: its compiler, or that compiler's C++ sibling when it is a C
// driver (Bazel's default toolchain compiles C++ with /usr/bin/gcc, which links no libstdc++:
// g++ beside it, else the C driver with -lstdc++), absolute when the entry names it relative to
// its directory.
struct LinkDriver {
  std::string command;
  std::string extraLibs;
};
LinkDriver linkDriverFor(const cmake::CompileCommand& e);

// The test sources of the database (entries declaring test cases).
std::vector<std::string> testSources(const CompileDb& db);

}  // namespace greenlight::core::testing::native
