#include "core/testing/cmake/PrivateBuild.h"
#include "core/testing/cmake/UserConfig.h"
#include "core/testing/ContentHash.h"
#include "core/testing/Discovery.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/testing/PythonBytecode.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/harness/Harnesses.h"
#include "core/testing/native/Gcov.h"
#include "support/Log.h"

namespace greenlight::core::testing::cmake {
namespace fs = std::filesystem;

namespace {

// Included after every project() (CMAKE_PROJECT_INCLUDE): --coverage for the GCC-compiled
// C and C++ of the build (gcov reads GCC's data; clang's needs llvm-cov: no coverage), the
// system's and bundled libraries' code left uninstrumented (native/Gcov.h). Once: a nested
// project() sees the variable of the directory above and inherits its options.
std::string coverageInclude() {
  return std::string(R"(# greenlight: line coverage of the tests' runs (issue 35)
if(CMAKE_VERSION VERSION_LESS 3.18 OR DEFINED GREENLIGHT_COVERAGE_ADDED)
  return()
endif()
set(GREENLIGHT_COVERAGE_ADDED 1)
foreach(_greenlight_lang CXX C)
  add_compile_options("$<$<COMPILE_LANG_AND_ID:${_greenlight_lang},GNU>:--coverage>"
                      "$<$<COMPILE_LANG_AND_ID:${_greenlight_lang},GNU>:)") +
         native::kCoverageExclude + R"(>")
  add_link_options("$<$<LINK_LANG_AND_ID:${_greenlight_lang},GNU>:--coverage>")
endforeach()
)";
}

bool writeAtomically(const fs::path& path, std::string_view data) {
  const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  return !ec;
}

long long mtimeNs(const fs::path& p) {
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0) return -1;
  return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

// When greenlight runs as root the sandbox writes as uid 65534: the writable directories are its.
void giveToSandbox(const fs::path& dir) {
  if (::geteuid() == 0 && ::chown(dir.c_str(), 65534, 65534) != 0) {
    // Left as is: the step that writes there reports the failure in CMake's words.
  }
}

std::string tail(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  auto cut = s.find('\n', s.size() - n);
  return "…" + s.substr(cut == std::string::npos ? s.size() - n : cut);
}

// The directory bound as the project: the repository root above it (a project may read
// ../common), never $HOME or "/".
std::string projectBindFor(const std::string& sourceDir) {
  std::error_code ec;
  const char* home = std::getenv("HOME");
  for (fs::path dir = sourceDir;; dir = dir.parent_path()) {
    if (home && dir == fs::path(home).lexically_normal()) break;
    if (dir == dir.parent_path()) break;
    if (fs::exists(dir / ".git", ec)) return dir.string();
  }
  return sourceDir;
}

// The tests a CTestTestfile.cmake adds and the command each runs: `add_test(NAME "PROGRAM" "ARG"
// ...)` with NAME a bracket argument (`[=[a b]=]`, any number of `=`), quoted or unquoted, and
// the arguments as CMake quotes them (backslash escapes). Parsed by hand: the bracket's closing
// must repeat the opening's `=`s, a back-reference no regex here may use.
struct AddedTest {
  std::string name;
  std::vector<std::string> command;  // the program as written (absolute, or a bare name: the
                                     // old signature add_test(name target args...)), then args
};
std::vector<AddedTest> ctestAddTests(const std::string& text) {
  std::vector<AddedTest> out;
  const auto skipBlanks = [&](std::size_t i) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    return i;
  };
  for (std::size_t at = text.find("add_test("); at != std::string::npos; at = text.find("add_test(", at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
    std::size_t i = skipBlanks(at + 9);
    std::string name;
    if (i < text.size() && text[i] == '[') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] == '=') ++j;
      if (j >= text.size() || text[j] != '[') continue;
      const std::string close = "]" + std::string(j - i - 1, '=') + "]";
      const std::size_t end = text.find(close, j + 1);
      if (end == std::string::npos) break;
      name = text.substr(j + 1, end - j - 1);
      i = end + close.size();
    } else if (i < text.size() && text[i] == '"') {
      const std::size_t end = text.find('"', i + 1);
      if (end == std::string::npos) break;
      name = text.substr(i + 1, end - i - 1);
      i = end + 1;
    } else {
      const std::size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '"' && text[i] != ')') ++i;
      name = text.substr(start, i - start);
    }
    AddedTest t;
    t.name = std::move(name);
    // The quoted words up to the closing parenthesis.
    for (std::size_t q = skipBlanks(i); q < text.size() && text[q] == '"'; q = skipBlanks(q)) {
      std::string word;
      for (++q; q < text.size() && text[q] != '"'; ++q) {
        if (text[q] == '\\' && q + 1 < text.size()) ++q;
        word += text[q];
      }
      if (q >= text.size()) break;
      ++q;
      t.command.push_back(std::move(word));
    }
    if (t.name.empty() || t.command.empty()) continue;
    out.push_back(std::move(t));
  }
  return out;
}

std::mutex gRegistryMutex;
std::map<std::string, std::shared_ptr<PrivateBuild>> gRegistry;

}  // namespace

bool sandboxHasProgram(const std::string& name) {
  for (const char* dir : {"/usr/local/bin/", "/usr/bin/", "/bin/"})
    if (::access((std::string(dir) + name).c_str(), X_OK) == 0) return true;
  return false;
}

PrivateBuild::PrivateBuild(std::string sourceDir, std::string root)
    : sourceDir_(std::move(sourceDir)), root_(std::move(root)), projectBind_(projectBindFor(sourceDir_)) {}

std::shared_ptr<PrivateBuild> PrivateBuild::of(const std::string& sourceDirIn) {
  const std::string sourceDir = fs::path(sourceDirIn).lexically_normal().string();
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  auto& slot = gRegistry[sourceDir];
  if (!slot) {
    const std::string cache = bytecodeCacheDir();
    if (cache.empty()) return nullptr;
    std::string name = fs::path(sourceDir).filename().string();
    if (name.empty()) name = "root";
    slot = std::make_shared<PrivateBuild>(sourceDir, cache + "/cmake/" + name + "-" + hex64(fnv1a(sourceDir)).substr(0, 12));
  }
  return slot;
}

PrivateBuild::Lock::~Lock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

std::unique_ptr<PrivateBuild::Lock> PrivateBuild::lock(std::string* error) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  const std::string path = root_ + "/lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    *error = "open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    *error = "flock " + path + ": " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  return std::make_unique<Lock>(fd);
}

sandbox::Policy PrivateBuild::stepPolicy(const RunOptions& options, double seconds, const std::vector<OverlayBind>& binds) const {
  const auto& sb = options.config.sandbox;
  sandbox::Policy p;
  p.workdir = buildDir();
  p.timeLimitSec = seconds;
  p.cpuLimitSec = seconds;
  p.memoryLimitMb = static_cast<std::size_t>(std::max(4096, sb.memoryLimitMB));
  p.processes = std::max(512, sb.processes);
  p.outputLimitBytes = std::size_t{8} << 20;
  p.fileSizeLimitMb = 4096;
  p.scratchSizeMb = 1024;
  // Configure and build reach the network only when the user allows it (sandbox.network): the
  // dependencies FetchContent would download come from the user's build (UserConfig.h).
  p.network = sb.network;
  p.allowUnsandboxed = sb.allowUnsandboxed;
  p.profile = sandbox::Profile::Compiler;
  p.binds.push_back({projectBind_, "", false});
  p.binds.push_back({buildDir(), "", true});
  p.binds.push_back({root_ + "/ccache", "", true});
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& d : readOnly_) p.binds.push_back({d, "", false});
  }
  for (const auto& b : binds) p.binds.push_back({b.copy, b.path, false});
  // ccache in depend mode: a miss runs the compiler once (no separate preprocessing pass), which
  // is what a run after an edit mostly is; a hit (a text seen before: the disk's text again after
  // a candidate, a repeated candidate) skips it. A file just edited is "too new" for ccache's
  // manifests unless the mtime checks are relaxed; the texts it hashes cannot change under it
  // here (the overlays are immutable copies; the build holds the lock).
  p.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "CCACHE_DIR=" + root_ + "/ccache", "CCACHE_DEPEND=1",
           "CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime", "TERM=dumb", "CLICOLOR=0",
           "CMAKE_COLOR_DIAGNOSTICS=OFF", "NINJA_STATUS=[%f/%t] "};
  return p;
}

bool PrivateBuild::upToDate(const ProjectDir& project) const {
  std::error_code ec;
  if (!fs::is_regular_file(buildDir() + "/CMakeCache.txt", ec)) return false;
  long long newest = -1;
  for (const auto& e : fs::directory_iterator(buildDir() + "/.cmake/api/v1/reply", ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("index-", 0) == 0) newest = std::max(newest, mtimeNs(e.path()));
  }
  if (newest < 0) return false;
  for (const auto& f : project.listFiles)
    if (mtimeNs(f) > newest) return false;
  return true;
}

bool PrivateBuild::configure(const ProjectDir& project, const RunOptions& options, std::string* error) {
  // The user's configuration (UserConfig.h), read every time: a preset edited, a dependency the
  // user's build fetched since, a toolchain changed all call for a new configure.
  const bool offline = !options.config.sandbox.network;
  const UserConfiguration user = userConfiguration(project, findUserBuild(sourceDir_), offline);
  useReadOnlyDirs(user.readOnly);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    project_ = project;
    user_ = user;
    offline_ = offline;
  }
  const bool ninja = sandboxHasProgram("ninja");
  if (!ninja && !sandboxHasProgram("make")) {
    *error = "neither ninja nor make is installed: cannot build the CMake project";
    return false;
  }
  // The user's generator when greenlight reads its dependencies (Ninja, Unix Makefiles); others
  // (multi-config, IDE generators) get Ninja: one configuration, one build tool to drive.
  std::string generator = ninja ? "Ninja" : "Unix Makefiles";
  if (user.generator == "Unix Makefiles" && sandboxHasProgram("make")) generator = user.generator;
  std::vector<std::string> argv = {"cmake", "-S", sourceDir_, "-B", buildDir(), "-G", generator};
  bool buildType = false;
  for (const auto& o : user.args) {
    buildType = buildType || o.rfind("-DCMAKE_BUILD_TYPE", 0) == 0;
    argv.push_back(o);
  }
  // The options that gate the tests, on (after the carried ones: the last -D wins).
  for (const auto& g : testGates(project, findUserBuild(sourceDir_))) argv.push_back("-D" + g.name + ":BOOL=ON");
  // Debug unless the user builds otherwise: line numbers and asserts are what tests want.
  if (!buildType) argv.push_back("-DCMAKE_BUILD_TYPE=Debug");
  if (sandboxHasProgram("ccache"))
    argv.insert(argv.end(), {"-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"});
  // Coverage (issue 35) is the build's normal state, not a per-run flag: a run that toggled it
  // would recompile the whole project. GREENLIGHT_COVERAGE=0 is another configuration.
  const bool userInclude = std::any_of(argv.begin(), argv.end(), [](const std::string& a) {
    return a.rfind("-DCMAKE_PROJECT_INCLUDE", 0) == 0 && a.rfind("-DCMAKE_PROJECT_INCLUDE_BEFORE", 0) != 0;
  });
  const std::string includeText = coverageInclude();
  const std::string includeFile = buildDir() + "/greenlight-coverage-" + hex64(fnv1a(includeText)).substr(0, 12) + ".cmake";
  const bool coverage = native::coverageEnabled() && !userInclude;
  if (coverage) argv.push_back("-DCMAKE_PROJECT_INCLUDE=" + includeFile);
  // ExternalProject_Add's downloads that the user's build made (UserConfig.h), unless the user
  // includes a file of their own there.
  const std::string shimText = externalProjectShim(user);
  const std::string shimFile = buildDir() + "/greenlight-external-" + hex64(fnv1a(shimText)).substr(0, 12) + ".cmake";
  const bool shim = !shimText.empty() && std::none_of(argv.begin(), argv.end(), [](const std::string& a) {
    return a.rfind("-DCMAKE_PROJECT_INCLUDE_BEFORE", 0) == 0;
  });
  if (shim) argv.push_back("-DCMAKE_PROJECT_INCLUDE_BEFORE=" + shimFile);
  std::string signature;
  for (const auto& a : argv) signature += a + "\n";
  const std::string signaturePath = root_ + "/configured-with";
  const std::string previous = readFile(signaturePath).value_or("");
  if (previous == signature && upToDate(project)) return true;
  std::error_code ec;
  if (!previous.empty() && previous != signature) {
    // Another configuration: a fresh cache (CMake keeps a toolchain or a generator from the
    // first configure); another generator: a fresh build directory.
    const bool sameGenerator = previous.find("\n-G\n" + generator + "\n") != std::string::npos;
    GL_LOG(Info, "cmake: the configuration of " << sourceDir_ << " changed (" << (user.source.empty() ? "defaults" : user.source)
                                               << "): configuring afresh" << (sameGenerator ? "" : " with " + generator));
    if (sameGenerator) fs::remove(buildDir() + "/CMakeCache.txt", ec);
    else fs::remove_all(buildDir(), ec);
  }
  for (const char* sub : {"/build", "/ccache", "/overlay"}) {
    fs::create_directories(root_ + sub, ec);
    if (ec) {
      *error = "cannot create " + root_ + sub + ": " + ec.message();
      return false;
    }
  }
  giveToSandbox(root_ + "/build");
  giveToSandbox(root_ + "/ccache");
  if (!writeQuery(buildDir(), error)) return false;
  if (coverage && !writeAtomically(includeFile, includeText)) {
    *error = "cannot write " + includeFile;
    return false;
  }
  if (shim && !writeAtomically(shimFile, shimText)) {
    *error = "cannot write " + shimFile;
    return false;
  }
  for (const char* sub : {"/.cmake", "/.cmake/api", "/.cmake/api/v1", "/.cmake/api/v1/query",
                          "/.cmake/api/v1/query/client-greenlight"})
    giveToSandbox(buildDir() + sub);
  sandbox::Policy p = stepPolicy(options, 600, {});
  p.argv = std::move(argv);
  GL_LOG(Debug, "cmake configure of " << sourceDir_ << " from " << (user.source.empty() ? "defaults" : user.source)
                                      << (user.reused.empty() ? "" : ", FetchContent sources reused: " + std::to_string(user.reused.size())));
  StepOutput out = executeStep(p, options, nullptr);
  if (out.verdict.cancelled) {
    *error = "cancelled while configuring";
    return false;
  }
  if (out.verdict.status != sandbox::Status::Ok) {
    fs::remove(signaturePath, ec);
    const std::string said = out.stderrText.empty() ? out.stdoutText : out.stderrText + "\n" + out.stdoutText;
    if (offline) {
      std::string net = networkDiagnosis(project, user, said, out.verdict.syscall);
      if (!net.empty()) {
        // CMake's error, not the warnings and the compiler checks before it.
        const auto at = said.find("CMake Error");
        *error = net + " CMake said: " + (at == std::string::npos ? tail(said, 800) : said.substr(at, 800));
        return false;
      }
    }
    std::string why = out.verdict.status == sandbox::Status::ExitNonzero ? "exit code " + std::to_string(out.verdict.exitCode)
                                                                          : std::string(sandbox::statusName(out.verdict.status));
    if (!out.verdict.setupError.empty()) why += ": " + out.verdict.setupError;
    if (!out.verdict.syscall.empty()) why += " (" + out.verdict.syscall + ")";
    *error = "cmake could not configure " + sourceDir_ + (user.source.empty() ? "" : " from " + user.source) + " (" + why + "): " + tail(said, 1500);
    if (!user.presetError.empty()) *error += " (" + user.presetError + ")";
    return false;
  }
  writeAtomically(signaturePath, signature);
  return true;
}

std::shared_ptr<const CodeModel> PrivateBuild::model(std::string* error) {
  std::error_code ec;
  const std::string dir = buildDir() + "/.cmake/api/v1/reply";
  std::string newest;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("index-", 0) == 0 && n > newest) newest = n;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (model_ && newest == modelKey_) return model_;
  }
  auto m = readReplyDir(dir, error);
  if (!m) return nullptr;
  auto shared = std::make_shared<const CodeModel>(std::move(*m));
  std::lock_guard<std::mutex> lock(mutex_);
  model_ = shared;
  modelKey_ = newest;
  return shared;
}

std::shared_ptr<const DepsIndex> PrivateBuild::deps() {
  const fs::path log = buildDir() + "/.ninja_deps";
  std::error_code ec;
  std::string key;
  if (fs::is_regular_file(log, ec)) key = std::to_string(mtimeNs(log)) + ":" + std::to_string(fs::file_size(log, ec));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (deps_ && !key.empty() && key == depsKey_) return deps_;
  }
  auto shared = std::make_shared<const DepsIndex>(readDeps(buildDir()));
  std::lock_guard<std::mutex> lock(mutex_);
  deps_ = shared;
  depsKey_ = key;
  return shared;
}

std::shared_ptr<const std::vector<CtestTest>> PrivateBuild::tests(const RunOptions& options, std::string* error) {
  auto m = model(error);
  if (!m) return nullptr;
  // The CTest files: CTestTestfile.cmake in every directory of the build, and what the
  // discover functions write beside them.
  std::set<std::string> dirs{buildDir()};
  for (const auto& t : m->targets) dirs.insert(t.buildDir);
  std::string stamp;
  std::error_code ec;
  for (const auto& d : dirs) {
    for (const auto& e : fs::directory_iterator(d, ec)) {
      const std::string n = e.path().filename().string();
      if (n.size() > 6 && n.compare(n.size() - 6, 6, ".cmake") == 0)
        stamp += e.path().string() + ":" + std::to_string(mtimeNs(e.path())) + "\n";
    }
  }
  const std::string key = hex64(fnv1a(stamp));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (tests_ && key == testsKey_) return tests_;
  }
  std::string json;
  if (readFile(root_ + "/ctest.stamp").value_or("") == key) json = readFile(root_ + "/ctest.json").value_or("");
  if (json.empty()) {
    sandbox::Policy p = stepPolicy(options, 120, {});
    p.argv = {"ctest", "--show-only=json-v1"};
    StepOutput out = executeStep(p, options, nullptr);
    if (out.verdict.status != sandbox::Status::Ok) {
      *error = "ctest --show-only=json-v1 failed (" + std::string(sandbox::statusName(out.verdict.status)) +
               "): " + tail(out.stderrText, 800);
      return nullptr;
    }
    json = out.stdoutText;
    writeAtomically(root_ + "/ctest.json", json);
    writeAtomically(root_ + "/ctest.stamp", key);
  }
  auto parsed = parseCtestJson(json, error);
  // Before a test's program is built CTest lists it without a command: its CTestTestfile.cmake
  // names the program all the same, as a path (add_test(NAME n COMMAND target): CMake wrote the
  // target's artifact) or as the old signature's bare name (add_test(n target args...): CTest
  // looks for it in the test's directory once it exists). A program that is a target's
  // artifact, or names a target, runs that target's artifact with the arguments written there.
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> added;  // name -> dir, command
  for (const auto& dir : dirs) {
    auto text = readFile(dir + "/CTestTestfile.cmake");
    if (!text) continue;
    for (auto& t : ctestAddTests(*text)) added[t.name] = {dir, std::move(t.command)};
  }
  for (auto& t : parsed) {
    if (!t.command.empty()) continue;
    auto it = added.find(t.name);
    if (it == added.end()) continue;
    const auto& [dir, command] = it->second;
    const std::string& program = command.front();
    const Target* target = m->byArtifact(fs::path(program).is_absolute() ? program : dir + "/" + program);
    if (!target && program.find('/') == std::string::npos) {
      for (const auto& candidate : m->targets)
        if (candidate.type == "EXECUTABLE" && (candidate.name == program || candidate.nameOnDisk == program) &&
            (!target || candidate.buildDir == dir))
          target = &candidate;
    }
    if (!target || target->artifacts.empty()) continue;
    t.command = command;
    t.command.front() = target->artifacts.front();
    if (t.workingDirectory.empty()) t.workingDirectory = dir;
  }
  auto d = deps();
  attachTargets(parsed, *m, d.get());
  auto shared = std::make_shared<const std::vector<CtestTest>>(std::move(parsed));
  std::lock_guard<std::mutex> lock(mutex_);
  tests_ = shared;
  testsKey_ = key;
  return shared;
}

bool PrivateBuild::syncOverlays(const std::vector<std::string>& files, const OverlayProvider& overlay,
                                std::vector<OverlayBind>* binds, std::string* error) {
  std::error_code ec;
  fs::create_directories(root_ + "/overlay", ec);
  const std::string statePath = root_ + "/overlay.json";
  nlohmann::json state = nlohmann::json::object();
  if (auto text = readFile(statePath)) {
    auto j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_object()) state = j;
  }
  const nlohmann::json before = state;
  nlohmann::json overlays = state.value("overlays", nlohmann::json::object());
  nlohmann::json texts = state.value("texts", nlohmann::json::object());
  const long long builtAt = state.value("built_at", 0LL);
  auto hashOf = [](const std::string& t) { return hex64(fnv1a(t)) + ":" + std::to_string(t.size()); };
  // The text each file is compiled from now: the editor's where it differs from the disk.
  std::set<std::string> asked(files.begin(), files.end());
  for (auto it = overlays.begin(); it != overlays.end(); ++it) asked.insert(it.key());
  std::map<std::string, std::string> current;  // overlaid files
  std::vector<std::string> stale;              // objects built from another text of these files
  nlohmann::json nextTexts = texts;
  for (const auto& f : asked) {
    std::optional<std::string> disk = readFile(f);
    std::optional<std::string> unsaved = overlay ? overlay(f) : std::nullopt;
    if (unsaved && (!disk || *disk != *unsaved)) {
      if (!disk) {
        *error = f + ": the file exists only in the editor; save it so that the CMake build can see it";
        return false;
      }
      current[f] = std::move(*unsaved);
      continue;
    }
    if (!disk) continue;
    const std::string h = hashOf(*disk);
    // A disk text that changed without a newer mtime (copied with its times kept, restored from
    // a backup): ninja would keep the objects of the old text.
    if (!overlays.contains(f) && texts.contains(f) && texts[f].get<std::string>() != h && mtimeNs(f) < builtAt)
      stale.push_back(f);
    nextTexts[f] = h;
  }
  nlohmann::json next = nlohmann::json::object();
  for (auto& [path, text] : current) {
    const std::string h = hashOf(text);
    // One copy per text, named for it: a sandbox made ahead (a spare) binds the file it found,
    // so a new text must be a new path, never new contents at an old one.
    const std::string copy = root_ + "/overlay/" + hex64(fnv1a(path)).substr(0, 10) + "-" + hex64(fnv1a(text)).substr(0, 10) + "-" +
                             fs::path(path).filename().string();
    const bool same = overlays.contains(path) && overlays[path].value("hash", "") == h && fs::is_regular_file(copy, ec);
    // Same text: the copy keeps its mtime (nothing recompiles). New text: a new copy, newer than
    // every object built before it.
    if (!same) {
      if (!writeAtomically(copy, text)) {
        *error = "cannot write " + copy;
        return false;
      }
      if (overlays.contains(path)) {
        const std::string old = overlays[path].value("copy", "");
        if (!old.empty() && old != copy) fs::remove(old, ec);
      }
    }
    ::chmod(copy.c_str(), 0644);
    next[path] = {{"hash", h}, {"copy", copy}};
    nextTexts[path] = h;
    binds->push_back({copy, path});
  }
  for (auto it = overlays.begin(); it != overlays.end(); ++it) {
    if (next.contains(it.key())) continue;
    // Back to the disk's text: the objects built from the overlay look newer than the source.
    stale.push_back(it.key());
    const std::string copy = it.value().value("copy", "");
    if (!copy.empty()) fs::remove(copy, ec);
  }
  GL_LOG(Debug, "cmake overlays for " << sourceDir_ << ": " << binds->size() << " bound, " << stale.size()
                                       << " back to another text (their objects deleted)");
  if (!stale.empty()) {
    auto d = deps();
    for (const auto& [object, inputs] : d->objects) {
      for (const auto& p : stale) {
        if (std::find(inputs.begin(), inputs.end(), p) != inputs.end()) {
          fs::remove(object, ec);
          break;
        }
      }
    }
  }
  state = {{"overlays", next}, {"texts", nextTexts}, {"built_at", builtAt}};
  // What the next build compiles, from now (a file edited during the build is newer than this).
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  state["built_at"] = static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  if (state != before && !writeAtomically(statePath, state.dump())) {
    *error = "cannot write " + statePath;
    return false;
  }
  return true;
}

PrivateBuild::BuildResult PrivateBuild::build(const std::vector<std::string>& targets, const std::vector<OverlayBind>& binds,
                                              const RunOptions& options, double timeLimitSeconds) {
  BuildResult r;
  sandbox::Policy p = stepPolicy(options, timeLimitSeconds, binds);
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  p.argv = {"cmake", "--build", buildDir(), "--parallel", std::to_string(jobs), "--target"};
  p.argv.insert(p.argv.end(), targets.begin(), targets.end());
  const auto start = std::chrono::steady_clock::now();
  StepOutput out = executeStep(p, options, nullptr);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.verdict = out.verdict;
  r.output = out.stdoutText + (out.stderrText.empty() ? "" : "\n" + out.stderrText);
  GL_LOG(Debug, "cmake build of " << sourceDir_ << " (" << r.seconds << " s, " << sandbox::statusName(out.verdict.status)
                                  << "): " << tail(r.output, 2000));
  if (out.verdict.status == sandbox::Status::Ok) {
    std::string key;
    for (const auto& t : targets) key += t + "\n";
    std::lock_guard<std::mutex> lock(mutex_);
    buildSeconds_[key] = r.seconds;
  } else if (!out.verdict.cancelled) {
    // ExternalProject_Add downloads during the build: say which dependency, as a configure would.
    std::lock_guard<std::mutex> lock(mutex_);
    if (offline_ && project_ && user_) r.networkNote = networkDiagnosis(*project_, *user_, r.output, out.verdict.syscall, true);
  }
  return r;
}

void PrivateBuild::useReadOnlyDirs(std::vector<std::string> dirs) {
  // Each directory once, none inside another bound one (a second bind of a path fails), none
  // holding the project or this build (their binds would be hidden under a read-only one).
  const auto inside = [](const std::string& d, const std::string& dir) {
    return d == dir || (d.size() > dir.size() && d.compare(0, dir.size() + 1, dir + "/") == 0);
  };
  // Shortest first: a directory is kept before any inside it.
  std::sort(dirs.begin(), dirs.end(), [](const std::string& a, const std::string& b) {
    return a.size() < b.size() || (a.size() == b.size() && a < b);
  });
  std::vector<std::string> kept;
  for (const auto& d : dirs) {
    if (inside(d, projectBind_) || inside(d, root_) || inside(projectBind_, d) || inside(root_, d)) continue;
    if (std::none_of(kept.begin(), kept.end(), [&](const std::string& k) { return inside(d, k); })) kept.push_back(d);
  }
  std::sort(kept.begin(), kept.end());
  std::lock_guard<std::mutex> lock(mutex_);
  readOnly_ = std::move(kept);
}

std::vector<std::string> PrivateBuild::readOnlyDirs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return readOnly_;
}

std::string PrivateBuild::traceLibrary(const RunOptions& options, const CodeModel& model) {
  const std::string text(harness::cxxTrace());
  std::string compiler = "c++";
  if (const Toolchain* tc = model.toolchain("CXX"); tc && !tc->compilerPath.empty()) compiler = tc->compilerPath;
  const std::string dir = root_ + "/trace";
  const std::string base = dir + "/gltrace-" + hex64(fnv1a(text + "\n" + compiler)).substr(0, 12);
  std::error_code ec;
  if (fs::is_regular_file(base + ".so", ec)) return base + ".so";
  if (fs::exists(base + ".failed", ec)) return "";
  fs::create_directories(dir, ec);
  giveToSandbox(dir);
  if (!writeAtomically(base + ".cc", text)) return "";
  sandbox::Policy p = stepPolicy(options, 120, {});
  p.binds.push_back({dir, "", true});
  p.argv = {compiler, "-shared", "-fPIC", "-O1", "-o", base + ".so", base + ".cc", "-ldl"};
  StepOutput out = executeStep(p, options, nullptr);
  if (out.verdict.status != sandbox::Status::Ok || !fs::is_regular_file(base + ".so", ec)) {
    // A compiler that cannot build it (another ABI): not again. A timeout may pass next time.
    if (out.verdict.status == sandbox::Status::ExitNonzero) writeAtomically(base + ".failed", out.stderrText);
    GL_LOG(Info, "cmake: the trace library did not build with " << compiler << ": " << tail(out.stderrText, 600));
    return "";
  }
  return base + ".so";
}

double PrivateBuild::lastBuildSeconds(const std::vector<std::string>& targets) const {
  std::string key;
  for (const auto& t : targets) key += t + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = buildSeconds_.find(key);
  return it == buildSeconds_.end() ? 0 : it->second;
}

}  // namespace greenlight::core::testing::cmake
