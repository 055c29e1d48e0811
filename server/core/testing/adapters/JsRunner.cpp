#include "core/testing/adapters/JsRunner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/testing/ContentHash.h"
#include "core/testing/Coverage.h"
#include "core/testing/Discovery.h"
#include "core/testing/PythonBytecode.h"
#include "core/testing/PythonProject.h"
#include "core/testing/harness/Harnesses.h"
#include "sandbox/Sandbox.h"
#include "support/Log.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

std::string runnerCacheDir(const std::string& runner, const std::string& root) {
  const std::string base = bytecodeCacheDir();
  if (base.empty()) return "";
  const std::string dir = base + "/" + runner + "-cache/" + hex64(fnv1a(root));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "";
  if (::geteuid() == 0) {
    // The sandbox runs as uid 65534 when greenlight is root (sandbox/Sandbox.h).
    if (::chown(dir.c_str(), 65534, 65534) != 0) return "";
  }
  ::chmod(dir.c_str(), 0700);
  return dir;
}


std::string jsTitlePattern(const std::string& runner, const std::vector<const JsTestBlock*>& blocks) {
  std::string alts;
  std::set<std::string> seen;
  for (const JsTestBlock* b : blocks) {
    std::string alt;
    for (const auto& p : b->patterns) alt += (alt.empty() ? "" : " ") + p;
    if (b->group) alt += "( .*)?";
    if (!seen.insert(alt).second) continue;
    alts += (alts.empty() ? "" : "|") + alt;
  }
  return runner == "jest" ? "^(" + alts + ")$" : "(^|\\s)(" + alts + ")$";
}

// ---- the runner's test files ----

namespace {

// Every JS/TS file of the project (relative paths, sorted; node_modules and dot directories
// left out): what decides whether the runner's list may have changed.
std::string projectListing(const std::string& root) {
  std::vector<std::string> files;
  forEachJsFile(root, [&](const fs::path&, const std::string& rel, const std::string&) { files.push_back(rel); });
  std::sort(files.begin(), files.end());
  std::string out;
  for (const auto& f : files) out += f + "\n";
  return out;
}

std::mutex gProbeMutex;
std::map<std::string, JsProbeResult> gProbeCache;

}  // namespace

namespace {

// harness/js_probe.js run in the sandbox on the project with `args`; its "config" event, or
// nullopt with `error` saying how the probe ended.
std::optional<nlohmann::json> runProbe(const JsProject& project, const Tool& node, const std::string& workspaceRoot,
                                       const Config& config, const std::vector<std::string>& args, std::string* error) {
  Staging staging;
  if (!staging.prepareScratch(error)) return std::nullopt;
  const std::string probe = staging.addHarnessFile("js_probe.js", harness::jsProbe());
  sandbox::Policy p;
  p.scratchSource = staging.hostRoot();
  p.workdir = project.root;
  p.timeLimitSec = 60;
  p.cpuLimitSec = 60;
  p.memoryLimitMb = static_cast<std::size_t>(std::max(1024, config.sandbox.memoryLimitMB));
  p.processes = std::max(64, config.sandbox.processes);
  p.allowUnsandboxed = config.sandbox.allowUnsandboxed;
  auto bind = [&](const std::string& path) {
    if (sandbox::bindsReach(p.binds, path)) return;  // (as root: not behind a private directory)
    std::error_code ec;
    if (!path.empty() && path != "/" && fs::exists(path, ec)) p.binds.push_back({path, "", false});
  };
  bind(workspaceRoot);
  bind(project.root);
  for (const auto& d : nodeModulesBinds(project.root)) bind(d);
  for (const auto& prefix : node.bindPrefixes) bind(prefix);
  p.env = node.environment;
  p.env.push_back("PATH=" + fs::path(node.path).parent_path().string() + ":/usr/local/bin:/usr/bin:/bin");
  p.env.insert(p.env.end(), {"NO_COLOR=1", "FORCE_COLOR=0", "CI=1", "NODE_OPTIONS=", "GL_JEST_CACHE=/tmp/jest"});
  p.argv = {node.invokedAs.empty() ? node.path : node.invokedAs};
  if (project.runner == "vitest") p.argv.push_back("--import=" + staging.addHarnessFile("vite_sandbox.mjs", harness::viteSandbox()));
  p.argv.push_back(probe);
  p.argv.insert(p.argv.end(), args.begin(), args.end());
  p.argv.insert(p.argv.end(), {"--runner", project.runner});
  p.profile = sandbox::Profile::Node;
  const sandbox::Verdict v = sandbox::run(p, -1);
  for (const auto& e : extractEvents(v.stdoutData).events) {
    if (e.is_object() && e.value("ev", "") == "config") return e;
  }
  std::string tail = v.stderrData.size() > 800 ? v.stderrData.substr(v.stderrData.size() - 800) : v.stderrData;
  *error = "the probe of " + project.runner + "'s configuration ended with " + std::string(sandbox::statusName(v.status)) +
           (v.status == sandbox::Status::SetupError ? ": " + v.setupError : "") + (tail.empty() ? "" : ": " + tail);
  return std::nullopt;
}

std::vector<std::string> stringsOf(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  if (j.is_object() && j.contains(key) && j[key].is_array())
    for (const auto& f : j[key])
      if (f.is_string()) out.push_back(f.get<std::string>());
  return out;
}

// The probe's "aliases": [{find, regex, whole, replacements}], nullopt when it gave none.
std::optional<std::vector<JsAlias>> aliasesOf(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("aliases") || !j["aliases"].is_array()) return std::nullopt;
  std::vector<JsAlias> out;
  for (const auto& a : j["aliases"]) {
    if (!a.is_object() || !a.contains("find") || !a["find"].is_string()) continue;
    out.push_back({a["find"].get<std::string>(), a.value("regex", false), stringsOf(a, "replacements"), a.value("whole", false)});
  }
  return out;
}

nlohmann::json aliasesJson(const std::vector<JsAlias>& aliases) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : aliases)
    out.push_back({{"find", a.find}, {"regex", a.regex}, {"whole", a.whole}, {"replacements", a.replacements}});
  return out;
}

void writeCacheFile(const std::string& cacheDir, const std::string& cacheFile, const nlohmann::json& j) {
  std::error_code ec;
  fs::create_directories(cacheDir, ec);
  const std::string tmp = cacheFile + ".tmp" + std::to_string(::getpid());
  if (std::ofstream out(tmp, std::ios::binary | std::ios::trunc); out) {
    out << j.dump();
    out.close();
    fs::rename(tmp, cacheFile, ec);
  }
}

std::mutex gRelatedMutex;
std::map<std::string, JsRelatedResult> gRelatedCache;

}  // namespace

JsProbeResult probeJsProject(const JsProject& project, const Tool& node, const std::string& workspaceRoot,
                             const Config& config) {
  const std::optional<JsRunnerInstall> install = findJsRunner(project.runner, project.root);
  // The key: what could change the runner's answer (and the probe's own version: v2 adds aliases).
  std::uint64_t h = fnv1a("v2\n" + project.root + "\n" + project.runner + "\n" + node.path + "\n" + node.fingerprint + "\n" +
                          (install ? install->dir + " " + install->version : std::string("-")));
  std::vector<std::string> keyFiles = project.configFiles;
  keyFiles.push_back(project.packageJson);
  for (const char* extra : {"tsconfig.json", "babel.config.js", ".babelrc"}) keyFiles.push_back(project.root + "/" + extra);
  for (const auto& f : keyFiles) {
    auto t = readFile(f);
    h = fnv1a(f + "\n" + (t ? *t : std::string("<none>")) + "\n", h);
  }
  h = fnv1a(projectListing(project.root), h);
  const std::string key = hex64(h);
  {
    std::lock_guard<std::mutex> lock(gProbeMutex);
    if (auto it = gProbeCache.find(key); it != gProbeCache.end()) return it->second;
  }
  const std::string cacheDir = bytecodeCacheDir();
  const std::string cacheFile = cacheDir.empty() ? "" : cacheDir + "/js-probe-" + key + ".json";
  if (!cacheFile.empty()) {
    if (auto text = readFile(cacheFile)) {
      auto j = nlohmann::json::parse(*text, nullptr, false);
      if (j.is_object() && j.contains("files") && j["files"].is_array()) {
        JsProbeResult r;
        r.testFiles = stringsOf(j, "files");
        r.aliases = aliasesOf(j);
        std::lock_guard<std::mutex> lock(gProbeMutex);
        return gProbeCache.emplace(key, std::move(r)).first->second;
      }
    }
  }
  JsProbeResult result;
  std::string error;
  auto e = runProbe(project, node, workspaceRoot, config, {"--list"}, &error);
  if (!e) {
    result.error = error;
  } else {
    if (e->contains("error") && (*e)["error"].is_string()) result.error = (*e)["error"].get<std::string>();
    result.testFiles = stringsOf(*e, "files");
    result.aliases = aliasesOf(*e);
  }
  std::sort(result.testFiles.begin(), result.testFiles.end());
  if (result.error.empty()) {
    if (!cacheFile.empty()) {
      nlohmann::json j;
      j["root"] = project.root;
      j["runner"] = project.runner;
      j["files"] = result.testFiles;
      if (result.aliases) j["aliases"] = aliasesJson(*result.aliases);
      writeCacheFile(cacheDir, cacheFile, j);
    }
    std::lock_guard<std::mutex> lock(gProbeMutex);
    gProbeCache.emplace(key, result);
  } else {
    support::logLine(support::LogLevel::Info, project.runner + " probe in " + project.root + ": " + result.error);
  }
  return result;
}

JsRelatedResult relatedJsTests(const JsProject& project, const Tool& node, const std::string& workspaceRoot,
                               const Config& config, const std::string& source, const std::string& key) {
  JsRelatedResult result;
  if (project.runner != "jest" && project.runner != "vitest") {
    result.error = project.runner + " cannot say which tests load a file";
    return result;
  }
  {
    std::lock_guard<std::mutex> lock(gRelatedMutex);
    if (auto it = gRelatedCache.find(key); it != gRelatedCache.end()) return it->second;
  }
  const std::string cacheDir = bytecodeCacheDir();
  const std::string cacheFile = cacheDir.empty() ? "" : cacheDir + "/js-related-" + key + ".json";
  if (!cacheFile.empty()) {
    if (auto text = readFile(cacheFile)) {
      auto j = nlohmann::json::parse(*text, nullptr, false);
      if (j.is_object() && j.contains("files") && j["files"].is_array()) {
        result.testFiles = stringsOf(j, "files");
        std::lock_guard<std::mutex> lock(gRelatedMutex);
        return gRelatedCache.emplace(key, std::move(result)).first->second;
      }
    }
  }
  std::string error;
  auto e = runProbe(project, node, workspaceRoot, config, {"--related", source}, &error);
  if (!e) result.error = error;
  else if (e->contains("error") && (*e)["error"].is_string()) result.error = (*e)["error"].get<std::string>();
  else if (!e->contains("related") || !(*e)["related"].is_array()) result.error = project.runner + " gave no list of related tests";
  else result.testFiles = stringsOf(*e, "related");
  std::sort(result.testFiles.begin(), result.testFiles.end());
  if (!result.error.empty()) {
    support::logLine(support::LogLevel::Info, project.runner + " related tests of " + source + ": " + result.error);
    return result;
  }
  if (!cacheFile.empty()) writeCacheFile(cacheDir, cacheFile, nlohmann::json{{"source", source}, {"files", result.testFiles}});
  std::lock_guard<std::mutex> lock(gRelatedMutex);
  if (gRelatedCache.size() > 2000) gRelatedCache.clear();
  gRelatedCache.emplace(key, result);
  return result;
}

namespace {

// "hasCloseElements" / "has_close_elements" -> "hascloseelements".
std::string normalizedName(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '_' && c != ' ' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The test files by the runners' default patterns (*.test.*, *.spec.*, __tests__/, and for
// mocha ./test/*): what stands in when the runner could not be asked.
std::vector<std::string> defaultTestFiles(const std::string& root, const std::string& runner) {
  std::vector<std::string> out;
  forEachJsFile(root, [&](const fs::path& path, const std::string& rel, const std::string& name) {
    const bool named = name.find(".test.") != std::string::npos || name.find(".spec.") != std::string::npos;
    const bool inTests = rel.find("__tests__/") != std::string::npos;
    const bool mochaDir = runner == "mocha" && rel.rfind("test/", 0) == 0 && rel.find('/', 5) == std::string::npos;
    if (named || inTests || mochaDir) out.push_back(path.string());
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<TestPlan> JsRunnerAdapter::discover(const DiscoveryContext& ctx, std::string* error) const {
  // Tests written from a comment's examples exist only in the editor: the built-in harness.
  // Tests first's test file is placed where the runner finds it: the runner runs it, in place,
  // from its overlay (the sandbox shows the new file: sandbox/NewFiles.h).
  if (!ctx.request.extraTestFiles.empty() && !ctx.request.extraAreProjectTests) return std::nullopt;
  const std::string runner(name());
  auto project = jsProject(ctx.source, ctx.workspaceRoot, ctx.request.overlay);
  if (!project || project->runner != runner) return std::nullopt;
  auto install = findJsRunner(runner, project->root);
  if (!install) {
    *error = ctx.source + ": the project tests with " + runner + " (" + project->why + " of " + project->packageJson +
             ") but node finds no " + runner + " from " + project->root + ": run `npm install` there";
    return std::nullopt;
  }
  ToolRequest tr;
  tr.name = ctx.request.config ? ctx.request.config->nodePath : "node";
  tr.workspaceRoot = ctx.workspaceRoot;
  tr.environment = ctx.request.toolEnvironment;
  std::string toolError;
  auto node = resolveTool(tr, &toolError);
  if (!node) {
    *error = "node: " + toolError;
    return std::nullopt;
  }
  const Config defaults;
  const Config& config = ctx.request.config ? *ctx.request.config : defaults;
  JsProbeResult probe = probeJsProject(*project, *node, ctx.workspaceRoot, config);
  std::vector<std::string> testFiles = probe.testFiles;
  if (!probe.error.empty()) testFiles = defaultTestFiles(project->root, runner);
  if (ctx.request.extraAreProjectTests) {
    // Not on disk, so not in the runner's listing: they count as its test files all the same.
    for (const auto& extra : ctx.request.extraTestFiles) {
      if (std::find(testFiles.begin(), testFiles.end(), extra) == testFiles.end()) testFiles.push_back(extra);
    }
    std::sort(testFiles.begin(), testFiles.end());
  }
  const OverlayProvider& overlay = ctx.request.overlay;

  TestPlan plan;
  plan.language = Language::JavaScript;
  plan.framework = runner;
  plan.rootDir = project->root;
  plan.sourceFile = ctx.source;
  plan.workspaceRoot = ctx.workspaceRoot;
  plan.sourceIsTestFile = std::binary_search(testFiles.begin(), testFiles.end(), ctx.source);
  // Modules resolve as the runner resolves them: its own aliases when the probe could ask it.
  const auto resolver = JsResolver::forRoot(project->root, probe.error.empty() ? probe.aliases : std::nullopt);
  std::set<std::string> closure;
  if (!plan.sourceIsTestFile) {
    // The tests of a source are the test files that load it. Those whose imports the static map
    // could not all follow (a computed require, a specifier naming nothing it knows) may load it
    // too: the runner is asked about them rather than guessed.
    std::vector<std::string> unsure;
    std::uint64_t graph = fnv1a(probe.error + "\n" + ctx.source + "\n" + resolver->key());
    const JsImportGraph g = jsImportGraph(testFiles, *resolver, overlay);
    const std::set<std::string> loaders = g.loaders(ctx.source);
    const std::set<std::string> unsureLoaders = g.unsureLoaders();
    for (const auto& t : testFiles) {
      if (loaders.count(t)) {
        plan.testFiles.push_back(t);
      } else if (unsureLoaders.count(t)) {
        unsure.push_back(t);
        // The runner's answer holds while these files stay as they are (the source's own text
        // does not change which tests load it).
        for (const auto& f : g.closure({t})) {
          struct stat st{};
          const bool ok = ::stat(f.c_str(), &st) == 0;
          graph = fnv1a(f + (ok ? " " + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                                      std::to_string(st.st_mtim.tv_nsec)
                                : std::string(" -")) + "\n",
                        graph);
          if (overlay) {
            if (auto text = overlay(f)) graph = fnv1a(*text, graph);
          }
        }
      }
    }
    for (const auto& f : g.closure(plan.testFiles)) closure.insert(f);
    if (!unsure.empty()) {
      const JsRelatedResult related =
          probe.error.empty() ? relatedJsTests(*project, *node, ctx.workspaceRoot, config, ctx.source, hex64(graph))
                              : JsRelatedResult{{}, probe.error};
      std::vector<std::string> added;
      for (const auto& t : related.testFiles) {
        if (!std::binary_search(testFiles.begin(), testFiles.end(), t) ||
            std::find(plan.testFiles.begin(), plan.testFiles.end(), t) != plan.testFiles.end())
          continue;
        plan.testFiles.push_back(t);
        added.push_back(fs::path(t).lexically_relative(project->root).string());
        for (const auto& f : g.closure({t})) closure.insert(f);
      }
      std::sort(plan.testFiles.begin(), plan.testFiles.end());
      if (!related.error.empty() && plan.testFiles.empty()) {
        plan.discoveryNote = std::to_string(unsure.size()) + " test file(s) load modules greenlight cannot follow (" +
                             fs::path(unsure[0]).lexically_relative(project->root).string() + ") and " + runner +
                             " could not say which load this file: " + related.error.substr(0, 300);
      } else if (!added.empty()) {
        std::string list;
        for (const auto& a : added) list += (list.empty() ? "" : ", ") + a;
        plan.discoveryNote = runner + " names " + list + " among the tests that load this file";
      }
    }
  } else {
    JsReach r = jsReach({ctx.source}, *resolver, overlay);
    closure.insert(r.files.begin(), r.files.end());
  }
  // What the runner reads beyond the source and the tests: its config, and the modules the
  // tests import (their unsaved texts are what the run sees; they are part of the fingerprint).
  plan.supportFiles.push_back(project->packageJson);
  plan.supportFiles.insert(plan.supportFiles.end(), project->configFiles.begin(), project->configFiles.end());
  for (const char* extra : {"tsconfig.json", ".babelrc", "babel.config.js"}) {
    if (std::error_code ec; fs::is_regular_file(project->root + "/" + extra, ec)) plan.supportFiles.push_back(project->root + "/" + extra);
  }
  for (const auto& f : closure) {
    if (plan.supportFiles.size() > 300) break;
    if (f != ctx.source && std::find(plan.testFiles.begin(), plan.testFiles.end(), f) == plan.testFiles.end())
      plan.supportFiles.push_back(f);
  }

  // The tests written in the test files: names (title paths) and ranges.
  std::vector<std::string> files = plan.sourceIsTestFile ? std::vector<std::string>{ctx.source} : plan.testFiles;
  std::map<std::string, std::vector<JsTestBlock>> blocks;
  std::map<std::string, std::vector<std::string>> lines;
  for (const auto& f : files) {
    auto text = f == ctx.source ? std::optional<std::string>(ctx.text) : readSource(f, overlay);
    if (!text) continue;
    blocks[f] = scanJsTests(*text);
    lines[f] = splitLines(*text);
    for (const auto& b : blocks[f]) {
      if (!b.group) plan.staticTests.push_back({jsTestName(b), f, b.line, b.endLine});
    }
  }
  auto rel = [&](const std::string& f) {
    std::string r = fs::path(f).lexically_relative(project->root).string();
    return r.empty() || r.rfind("..", 0) == 0 ? f : r;
  };
  std::vector<const JsTestBlock*> chosen;
  std::set<std::string> chosenFiles;
  if (plan.sourceIsTestFile && ctx.request.line) {
    // A line of a test file: the innermost test or group around it.
    const JsTestBlock* best = nullptr;
    for (const auto& b : blocks[ctx.source]) {
      if (*ctx.request.line < b.line || *ctx.request.line > b.endLine) continue;
      if (!best || b.endLine - b.line < best->endLine - best->line) best = &b;
    }
    if (best) {
      chosen.push_back(best);
      chosenFiles.insert(ctx.source);
      plan.selectionNote = best->group ? "the tests under '" + jsTestName(*best) + "'" : "the test '" + jsTestName(*best) + "'";
      for (const auto& b : blocks[ctx.source]) {
        if (b.group || b.titles.size() < best->titles.size()) continue;
        if (std::equal(best->titles.begin(), best->titles.end(), b.titles.begin())) plan.selected.push_back(jsTestName(b));
      }
    }
  } else if (!plan.sourceIsTestFile && (ctx.request.line || !ctx.request.functionName.empty())) {
    if (ctx.request.line) plan.function = functionAtLine(ctx.text, *ctx.request.line, Language::JavaScript);
    else {
      plan.function = findFunction(ctx.text, ctx.request.functionName, Language::JavaScript);
      if (!plan.function) plan.function = FunctionAt{ctx.request.functionName, 0};
    }
    if (plan.function) {
      const std::string fn = plan.function->name;
      const std::string key = normalizedName(fn);
      const std::regex call = support::regex("(^|[^\\w$])" + escapeJsRegex(fn) + "\\s*(<[^>]*>)?\\s*\\(");
      for (const auto& [f, bs] : blocks) {
        const auto& ls = lines[f];
        for (const auto& b : bs) {
          if (b.group) continue;
          bool byName = false;
          for (const auto& t : b.titles) byName = byName || normalizedName(t).find(key) != std::string::npos;
          bool byCall = false;
          for (int l = b.line; l <= b.endLine && l <= static_cast<int>(ls.size()) && !byCall; ++l)
            byCall = std::regex_search(ls[static_cast<std::size_t>(l - 1)], call);
          if (byName || byCall) {
            chosen.push_back(&b);
            chosenFiles.insert(f);
            plan.selected.push_back(jsTestName(b));
          }
        }
      }
      if (!chosen.empty()) plan.selectionNote = "the tests that name or call " + fn;
      else plan.selectionNote = "no test names or calls " + fn + ": ran the module's tests";
    }
  }
  if (!chosen.empty()) {
    plan.namePattern = jsTitlePattern(runner, chosen);
    for (const auto& f : files)
      if (chosenFiles.count(f)) plan.runnerArgs.push_back(rel(f));
  } else {
    plan.selected.clear();
    for (const auto& f : files) plan.runnerArgs.push_back(rel(f));
  }
  return plan;
}

bool jsCoverageOn() { return coverageEnabled(); }

std::string nodeHeapFlag(std::size_t memoryLimitMb) {
  return "--max-old-space-size=" + std::to_string(memoryLimitMb * 3 / 4);
}

bool stageJsCoverage(const TestPlan& plan, Staging& staging) {
  staging.addHarnessFile("js_coverage.js", harness::jsCoverage());
  if (!jsCoverageOn() || plan.sourceFile.empty()) return false;
  nlohmann::json targets;
  targets["files"] = nlohmann::json::array({plan.sourceFile});
  staging.addHarnessFile("coverage_targets.json", targets.dump());
  return true;
}

RunResult JsRunnerAdapter::run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const {
  const std::string runner(name());
  std::string error = sandboxUserCannotRead(plan.rootDir);
  if (!error.empty() || !staging.prepareInPlace(plan, options.overlay, &error)) {
    result.error = error;
    return result;
  }
  auto node = resolveFor(options.config.nodePath, plan, options, &error);
  if (!node) {
    result.error = "node: " + error;
    return result;
  }
  auto install = findJsRunner(runner, plan.rootDir);
  if (!install) {
    result.error = runner + " is not installed for " + plan.rootDir + " (node finds no node_modules/" + runner + ")";
    return result;
  }
  staging.addHarnessFile("js_events.js", harness::jsEvents());
  stageJsCoverage(plan, staging);
  const Command cmd = command(plan, *install, staging);
  sandbox::Policy p = basePolicy(plan, options, staging, &*node);
  p.workdir = plan.rootDir;
  // The runner starts (a second or more, transforms, a type check) before the first test.
  p.timeLimitSec += 20;
  p.cpuLimitSec = p.timeLimitSec;
  auto bind = [&](const std::string& path) {
    if (sandbox::bindsReach(p.binds, path)) return;  // (as root: not behind a private directory)
    std::error_code ec;
    if (!path.empty() && path != "/" && fs::exists(path, ec)) p.binds.push_back({path, "", false});
  };
  bind(plan.rootDir);
  for (const auto& d : nodeModulesBinds(plan.rootDir)) bind(d);
  bind(install->dir);
  for (const auto& [copy, path] : staging.overlayBinds()) p.binds.push_back({copy, path, false});
  p.binds.insert(p.binds.end(), cmd.binds.begin(), cmd.binds.end());
  const std::string nodeBin = node->invokedAs.empty() ? node->path : node->invokedAs;
  const std::string heapFlag = nodeHeapFlag(p.memoryLimitMb);  // the runner's workers inherit it (execArgv)
  p.argv = {nodeBin, heapFlag};
  p.argv.insert(p.argv.end(), cmd.nodeFlags.begin(), cmd.nodeFlags.end());
  p.argv.push_back(install->bin);
  p.argv.insert(p.argv.end(), cmd.argv.begin(), cmd.argv.end());
  p.profile = sandbox::Profile::Node;
  p.env.insert(p.env.end(), {"NO_COLOR=1", "FORCE_COLOR=0", "CI=1", "NODE_OPTIONS=", "GL_ROOT=" + plan.rootDir,
                             "GL_WARM_RUNNER=" + runner, "GL_WARM_ROOT=" + plan.rootDir});
  p.env.insert(p.env.end(), cmd.env.begin(), cmd.env.end());
  // A warm spare switches to coverage before its run, after loading the runner without counters
  // (js_warm.js: compileEagerly; js_coverage.js: prestart says why not at the run).
  if (jsCoverageOn()) p.env.push_back("GL_COVERAGE=1");
  if (options.warm && !options.executor) {
    std::vector<std::string> warmArgv = {nodeBin, heapFlag};
    warmArgv.insert(warmArgv.end(), cmd.nodeFlags.begin(), cmd.nodeFlags.end());
    warmArgv.push_back(std::string(kSandboxGl) + "/js_warm.js");
    warmArgv.push_back(runner);
    if (!cmd.warmHints.empty()) warmArgv.push_back(cmd.warmHints);
    const std::string_view reporter = runner == "jest" ? harness::jestReporter()
                                      : runner == "vitest" ? harness::vitestReporter()
                                                           : harness::mochaReporter();
    const char* reporterPath = runner == "jest" ? ".gl/jest_reporter.js"
                               : runner == "vitest" ? ".gl/vitest_reporter.mjs"
                                                    : ".gl/mocha_reporter.js";
    p.warm = warmStart(warmArgv, {{".gl/js_warm.js", harness::jsWarm()},
                                  {".gl/js_events.js", harness::jsEvents()},
                                  {".gl/js_coverage.js", harness::jsCoverage()},
                                  {reporterPath, reporter},
                                  {".gl/vite_sandbox.mjs", harness::viteSandbox()}});
  }
  PathMap identity;
  auto [step, outcome] = runHarness(p, options, identity, result);
  if (options.prepareOnly) return result;
  finishResult(result, outcome, step, identity);
  if (result.tests.empty() && result.error.empty() && !result.cancelled &&
      (step.verdict.status == sandbox::Status::ExitNonzero || step.verdict.status == sandbox::Status::Signaled)) {
    // The runner could not start the run (its config failed to load, no test file matched):
    // what it said.
    std::string tail = step.stderrRest.empty() ? step.stdoutRest : step.stderrRest;
    tail = noTestsMessage(tail);
    while (!tail.empty() && std::isspace(static_cast<unsigned char>(tail.back()))) tail.pop_back();
    if (tail.size() > 1200) tail = "..." + tail.substr(tail.size() - 1200);
    result.error = runner + " exited with code " + std::to_string(step.verdict.exitCode) + (tail.empty() ? "" : ": " + tail);
  }
  return result;
}

}  // namespace greenlight::core::testing
