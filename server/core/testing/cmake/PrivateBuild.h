// greenlight's own build directory of a CMake project, and the sandboxed steps on it.
//
// Where: <cache>/cmake/<project dir name>-<hash of its path>/ (cache: $XDG_CACHE_HOME/greenlight,
// else ~/.cache/greenlight), holding
//   build/        the CMake build directory (configured once, with greenlight's File API query;
//                 the generator is the user's when it is Ninja or Unix Makefiles, else Ninja when
//                 installed; ccache as the compiler launcher when installed). Meson projects and
//                 compile_commands.json projects (native/) use the same directory for their
//                 ninja build.
//   configured-with  the configure's arguments: another configuration configures afresh
//   ccache/       the project's own ccache directory (never shared between projects: a build
//                 could plant objects for another project's sources)
//   overlay/      the texts of files whose editor text differs from the disk (see below)
//   overlay.json  which files those are; the hash of the text of every file of the last
//                 build's plans and when that build started
//   trace/        harness/cxx_trace.cc.inc built as a shared object (LD_PRELOADed into tests)
//   lock          flock()ed while a thread or process configures, builds or runs
// The user's own build directory is never written; its presets and cache give the options to
// configure with, and the sources its FetchContent fetched are reused (UserConfig.h).
//
// Every step is sandboxed (no network): configure, build and the CTest listing see the project
// read-only at its own path, the build directory and the ccache directory writable, and each
// overlay text bind-mounted read-only over its file, so #include and CMake's absolute paths read
// the overlay. A build from an overlay leaves objects newer than the disk's source; so that the
// next build does not take them for current, overlay.json remembers every file built from an
// overlay: while the overlay text stays the same its copy keeps its mtime (nothing recompiles);
// a new text gets a new copy (newer than the objects: they recompile); when the file is back to
// its disk text, the copy goes and every object whose recorded dependencies name the file is
// deleted (ninja/make rebuild it, usually from ccache). The same happens to a file whose disk
// text changed since the last build while its mtime stayed older than that build (copied with
// its times kept, restored from a backup): ninja would not see the change.
//
// Thread-safety: one object per project directory for the process (of()); its caches are
// locked; configure/syncOverlays/build need the Lock (which also excludes other processes).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/testing/Runner.h"
#include "core/testing/cmake/FileApi.h"
#include "core/testing/cmake/Project.h"
#include "core/testing/cmake/UserConfig.h"

namespace greenlight::core::testing::cmake {

struct OverlayBind {
  std::string copy;  // host file holding the text
  std::string path;  // the project file it covers
};

class PrivateBuild {
 public:
  // The build of the project at `sourceDir`; nullptr when there is no cache directory.
  static std::shared_ptr<PrivateBuild> of(const std::string& sourceDir);

  const std::string& sourceDir() const { return sourceDir_; }
  const std::string& root() const { return root_; }
  std::string buildDir() const { return root_ + "/build"; }

  // Exclusive use across threads and processes; released when destroyed.
  class Lock {
   public:
    explicit Lock(int fd) : fd_(fd) {}
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    ~Lock();

   private:
    int fd_;
  };
  // Blocks until the build is free. nullptr + `error` when the lock file cannot be made.
  std::unique_ptr<Lock> lock(std::string* error);

  // Whether the build directory is configured and newer than every list file of `project`.
  bool upToDate(const ProjectDir& project) const;
  // Configures (or re-configures) when not upToDate or the user's configuration changed. Hold
  // the Lock. False + `error` (CMake's own words; which download the configure needs when the
  // network is why) when CMake fails.
  bool configure(const ProjectDir& project, const RunOptions& options, std::string* error);

  // The File API reply (cached until CMake writes a new one).
  std::shared_ptr<const CodeModel> model(std::string* error);
  // The build's recorded dependencies (cached until they change).
  std::shared_ptr<const DepsIndex> deps();
  // `ctest --show-only=json-v1` in the sandbox, targets attached (cached, also on disk, until a
  // CTest file of the build changes: the discover functions write theirs when a test target links).
  std::shared_ptr<const std::vector<CtestTest>> tests(const RunOptions& options, std::string* error);

  // Brings overlay/ in line with the editor's texts of `files` (see above) and returns what to
  // bind. Hold the Lock. False + `error` for a file that exists only in the editor.
  bool syncOverlays(const std::vector<std::string>& files, const OverlayProvider& overlay,
                    std::vector<OverlayBind>* binds, std::string* error);

  struct BuildResult {
    sandbox::Verdict verdict;
    std::string output;  // the build tool's stdout + stderr
    double seconds = 0;
    // A build that failed offline because a dependency needed a download (ExternalProject_Add
    // with nothing to reuse): which one, and how to allow it (UserConfig.h networkDiagnosis).
    std::string networkNote;
  };
  // `cmake --build build --target T... --parallel N` in the sandbox. Hold the Lock.
  BuildResult build(const std::vector<std::string>& targets, const std::vector<OverlayBind>& binds,
                    const RunOptions& options, double timeLimitSeconds);
  // The seconds of the last successful build of `targets` (0: none yet in this process).
  double lastBuildSeconds(const std::vector<std::string>& targets) const;

  // harness/cxx_trace.cc.inc as a shared object built by the project's C++ compiler (once,
  // under trace/, named for its text and the compiler), to LD_PRELOAD into the test binaries.
  // "" when it cannot be built: the runs go without traces. Hold the Lock.
  std::string traceLibrary(const RunOptions& options, const CodeModel& model);

  // A sandboxed step on this build: the source tree read-only (the directory above it that holds
  // .git when there is one), build/ and ccache/ writable, the overlay binds, workdir build/.
  sandbox::Policy stepPolicy(const RunOptions& options, double seconds, const std::vector<OverlayBind>& binds) const;
  // Host directories outside the project the build reads (the user's configuration's fetched
  // sources, a toolchain's root, a package prefix; a compile_commands.json's directories, such as
  // Bazel's output base): bound read-only into every step and test run.
  std::vector<std::string> readOnlyDirs() const;
  // Makes `dirs` those directories, less the ones inside another, inside the project or this
  // build, or holding either. configure() sets them from the user's configuration.
  void useReadOnlyDirs(std::vector<std::string> dirs);
  // The directory bound read-only as the project.
  const std::string& projectBind() const { return projectBind_; }

  explicit PrivateBuild(std::string sourceDir, std::string root);

 private:
  std::string sourceDir_, root_, projectBind_;
  mutable std::mutex mutex_;
  std::string modelKey_;
  std::shared_ptr<const CodeModel> model_;
  std::string depsKey_;
  std::shared_ptr<const DepsIndex> deps_;
  std::string testsKey_;
  std::shared_ptr<const std::vector<CtestTest>> tests_;
  std::map<std::string, double> buildSeconds_;
  std::vector<std::string> readOnly_;  // host directories the build reads outside the project
  // What the last configure took from the user (for a build that then needed the network).
  std::optional<ProjectDir> project_;
  std::optional<UserConfiguration> user_;
  bool offline_ = true;
};

// Whether a program is installed where the sandbox finds it (/usr/local/bin, /usr/bin, /bin).
bool sandboxHasProgram(const std::string& name);

}  // namespace greenlight::core::testing::cmake
