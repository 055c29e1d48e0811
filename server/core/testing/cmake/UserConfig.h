// How the user configures the project, so that greenlight's private build configures the same way,
// offline (issue 34 item 4):
//   - CMakePresets.json / CMakeUserPresets.json (and their `include`s): the configure preset the
//     user's build directory came from (its binaryDir), else the one named "default", else the
//     first that is not hidden and whose condition holds; its generator, toolchainFile and
//     cacheVariables (inherits resolved, ${sourceDir}-style macros and $env{} expanded);
//   - the cache of the user's build directory: the generator, the toolchain file (vcpkg's,
//     conan's), CMAKE_PREFIX_PATH / CMAKE_MODULE_PATH, the <Package>_DIR that find_package found,
//     VCPKG_* and FETCHCONTENT_* settings (Project.h carriedOptions adds build type, compilers,
//     flags and the project's option()s);
//   - dependencies fetched at configure time (FetchContent): the sources the user's build already
//     fetched (<build>/_deps/<name>-src, or FETCHCONTENT_BASE_DIR) are handed over as
//     FETCHCONTENT_SOURCE_DIR_<NAME>, fully disconnected when every declared dependency has one;
//   - dependencies downloaded at build time (ExternalProject_Add): the sources the user's build
//     downloaded (<binary dir>/<name>-prefix/src/<name>, <PREFIX>/src/<name>, or a SOURCE_DIR it
//     filled) are handed over through externalProjectShim(): a CMAKE_PROJECT_INCLUDE_BEFORE file
//     under which ExternalProject_Add's download step copies them into the project's own
//     SOURCE_DIR (where its list files may name them by path), with no update or patch step;
//     vcpkg's manifest install: the user's <build>/vcpkg_installed, not installed again.
// When the configure fails anyway, networkDiagnosis() says which dependency needs a download (or
// which command reached for the network) and how to allow it.
//
// Thread-safety: pure functions (they read files).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/testing/cmake/Project.h"

namespace greenlight::core::testing::cmake {

// A dependency a list file fetches: FetchContent_Declare, ExternalProject_Add, file(DOWNLOAD).
struct FetchedDependency {
  std::string name;    // as declared ("googletest"); "" for file(DOWNLOAD)
  std::string how;     // "FetchContent_Declare", "ExternalProject_Add", "file(DOWNLOAD)"
  std::string from;    // the URL or repository
  std::string file;    // the list file declaring it
  int line = 0;
  bool findPackageFirst = false;  // FIND_PACKAGE_ARGS / OVERRIDE_FIND_PACKAGE: may not download
  std::string prefix;     // ExternalProject_Add's PREFIX, as written ("" none)
  std::string sourceDir;  // its SOURCE_DIR, as written ("" none)
};
std::vector<FetchedDependency> fetchedDependencies(const std::vector<std::string>& listFiles);

// One configure preset, resolved (inherits merged, macros expanded).
struct ConfigurePreset {
  std::string name;
  std::string file;       // CMakePresets.json or CMakeUserPresets.json (or an included file)
  std::string generator;  // "" unset
  std::string binaryDir;  // absolute; "" unset
  std::string toolchainFile;
  std::vector<std::pair<std::string, std::string>> cacheVariables;  // NAME[:TYPE] -> value
  bool hidden = false;
  bool usable = true;  // its condition holds
};
// Every configure preset of the project in file order (CMakePresets.json first). `error`: a file
// that does not parse (named with its JSON path); the presets read so far are returned.
std::vector<ConfigurePreset> readConfigurePresets(const std::string& sourceDir, std::string* error);

struct UserConfiguration {
  std::vector<std::string> args;      // cmake arguments (-D..., --toolchain is a -D too)
  std::string generator;              // the user's generator ("" none known)
  std::vector<std::string> readOnly;  // host directories configure and build read beyond the project
  std::string source;                 // "preset 'x' (CMakePresets.json)", "the cache of build/", ""
  std::vector<std::string> reused;    // FetchContent / ExternalProject names whose sources come from the user's build
  // ExternalProject_Add name -> the sources the user's build downloaded for it.
  std::vector<std::pair<std::string, std::string>> externalSources;
  std::vector<FetchedDependency> missing;  // declared, no source to reuse: they need a download
  std::string presetError;            // a presets file that does not parse
};
// `user`: the user's build directory (Project.h findUserBuild), if any. `offline`: the configure
// has no network (FetchContent is told to stay disconnected only then).
UserConfiguration userConfiguration(const ProjectDir& project, const std::optional<UserBuild>& user, bool offline);

// The CMake file, for -DCMAKE_PROJECT_INCLUDE_BEFORE, that hands config.externalSources to
// ExternalProject_Add: it includes CMake's own ExternalProject module (whose include_guard makes
// the project's later include(ExternalProject) a no-op) and wraps ExternalProject_Add so that a
// dependency listed there gets a download step that copies its sources into <SOURCE_DIR> (the
// project's own, writable: BUILD_IN_SOURCE and hard-coded paths keep working) and empty
// UPDATE/PATCH commands, every argument of the project's call passed on as written (empty ones
// included). "" when there is nothing to hand over.
std::string externalProjectShim(const UserConfiguration& config);

// The sentence for a configure (or, `building`, a build) that failed (`output`: CMake's or the
// build tool's words, `syscall`: the system call the sandbox refused, if any), when the network
// is why: which dependency needs a download or which command reached for the network, and how to
// allow it. "" when the network is not why.
std::string networkDiagnosis(const ProjectDir& project, const UserConfiguration& config, const std::string& output,
                             const std::string& syscall, bool building = false);

}  // namespace greenlight::core::testing::cmake
