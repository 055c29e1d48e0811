// jest, run by jest itself (29 and 30): a project whose package.json names jest (scripts.test,
// a jest.config.*, a "jest" key, or the only runner among its dependencies). greenlight's
// reporter (harness/jest_reporter.js, --reporters=/work/.gl/jest_reporter.js) reports per test:
// the title path, file:line (--testLocationInResults), expected/received from the matcher's own
// result, the frames jest mapped through the transform's source maps (ts-jest, babel-jest).
// Everything else is jest's: its config (presets, projects, moduleNameMapper, transforms),
// testMatch/testRegex (asked through js_probe.js), setup files, snapshots (--ci: read, never
// written).
//
//   node <jest>/bin/jest.js --ci --no-watchman --reporters=/work/.gl/jest_reporter.js
//        --testLocationInResults --cacheDirectory=CACHE --runInBand --forceExit --coverage=false
//        [-t PATTERN] --runTestsByPath FILE...
// jest's cache (the transforms, the haste map) is most of a short run's time (babel or ts-jest
// on every file). It is kept per project in greenlight's cache directory (runnerCacheDir), never
// in the project: a run of the files as they are on disk binds it writable at /tmp/jest; a run
// with unsaved or generated text (an overlay) gets a copy in /work/jest-cache that it may change
// and that is thrown away, so a candidate can never leave anything behind for later runs.
// cwd = the directory of the package.json (JsProject.h); discovery and the run: JsRunnerAdapter.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/testing/adapters/JsRunner.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxCacheCopyBytes = 64u << 20;

// jest's --cacheDirectory for this run (see above).
std::string cacheFor(const TestPlan& plan, Staging& staging, std::vector<sandbox::Bind>* binds) {
  const std::string host = runnerCacheDir("jest", plan.rootDir);
  if (host.empty()) return "/tmp/jest";
  if (staging.overlayBinds().empty()) {
    binds->push_back({host, "/tmp/jest", true});
    return "/tmp/jest";
  }
  std::error_code ec;
  std::uintmax_t bytes = 0;
  for (fs::recursive_directory_iterator it(host, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
    if (bytes > kMaxCacheCopyBytes) return "/tmp/jest";
  }
  const std::string copy = staging.hostRoot() + "/jest-cache";
  fs::copy(host, copy, fs::copy_options::recursive, ec);
  return ec ? "/tmp/jest" : "/work/jest-cache";
}

class JestAdapter final : public JsRunnerAdapter {
 public:
  std::string_view name() const override { return "jest"; }

  Command command(const TestPlan& plan, const JsRunnerInstall&, Staging& staging) const override {
    Command c;
    const std::string reporter = staging.addHarnessFile("jest_reporter.js", harness::jestReporter());
    // In band: one process, as a one-file jest run is anyway (and what a warm spare preloads).
    const std::string cache = cacheFor(plan, staging, &c.binds);
    c.argv = {"--ci", "--no-watchman", "--reporters=" + reporter, "--testLocationInResults", "--cacheDirectory=" + cache,
              "--runInBand", "--forceExit", "--coverage=false"};
    // The flags, without the name filter and the files, are what jest reads its project
    // configuration with: the warm spare reads the same to build ts-jest's compiler ahead.
    nlohmann::json hints = {{"argv", c.argv}, {"files", nlohmann::json::array()}};
    for (const auto& f : plan.runnerArgs) hints["files"].push_back(fs::path(f).is_absolute() ? f : plan.rootDir + "/" + f);
    c.warmHints = hints.dump();
    if (!plan.namePattern.empty()) c.argv.insert(c.argv.end(), {"-t", plan.namePattern});
    c.argv.push_back("--runTestsByPath");
    c.argv.insert(c.argv.end(), plan.runnerArgs.begin(), plan.runnerArgs.end());
    return c;
  }
};

}  // namespace

const RunnerAdapter& jestAdapter() {
  static const JestAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
