// C++ projects built by something other than CMake (issue 34 item 5): Meson projects
// (native/Meson.h) and projects that only have a compile_commands.json (native/CompileDb.h).
//
// detect    meson: a meson.build with project() above the file, meson and ninja installed.
//           compdb: a compile_commands.json above the file (or in its build/), not a CMake or
//           Meson build's; ninja installed.
// discover  the test programs (Meson's tests; the database's test sources linked with their
//           framework's main) that compile or include the file; a test file runs its own cases
//           (or the one at its line), a header or source the cases that name or call the
//           function at the line, else every case of those programs.
// run       in greenlight's private build directory (overlays bound, ccache, sandboxed): ninja
//           builds the programs, each runs once with its framework's reporter (native/Programs.h).
//
// Ids: "<test name>::<case>" (Meson), "<framework>::<case>" (compile_commands.json: "gtest",
// "catch2", "doctest", "boost"); a plain Meson test's result is "<test name>::<test name>".
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"
#include "core/testing/native/CompileDb.h"
#include "core/testing/native/Meson.h"
#include "core/testing/native/Programs.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;
using native::Program;

namespace {

bool under(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

RunOptions optionsFor(const DiscoveryRequest& request) {
  RunOptions ro;
  if (request.config) ro.config = *request.config;
  ro.toolEnvironment = request.toolEnvironment;
  return ro;
}

// The plan for ctx.source among `programs`: those that compile or include it. nullopt: none.
std::optional<TestPlan> planFor(const DiscoveryContext& ctx, const std::string& rootDir, const std::vector<Program>& programs,
                                const cmake::DepsIndex& deps, const cmake::PrivateBuild& build, const char* framework) {
  std::vector<const Program*> near;
  bool isTestSource = false;
  std::map<const Program*, std::vector<std::string>> headers;
  for (const auto& p : programs) {
    const bool compiles = std::find(p.sources.begin(), p.sources.end(), ctx.source) != p.sources.end();
    auto h = native::headersOf(p, deps, build.projectBind(), build.root());
    const bool links = std::find(p.linked.begin(), p.linked.end(), ctx.source) != p.linked.end();
    if (compiles || links || std::find(h.begin(), h.end(), ctx.source) != h.end()) {
      near.push_back(&p);
      headers[&p] = std::move(h);
      isTestSource = isTestSource || compiles;
    }
  }
  if (near.empty()) return std::nullopt;
  if (isTestSource)
    near.erase(std::remove_if(near.begin(), near.end(),
                              [&](const Program* p) { return std::find(p->sources.begin(), p->sources.end(), ctx.source) == p->sources.end(); }),
               near.end());
  TestPlan plan;
  plan.language = Language::Cxx;
  plan.sourceFile = ctx.source;
  plan.workspaceRoot = under(ctx.workspaceRoot, rootDir) ? rootDir : ctx.workspaceRoot;
  plan.rootDir = rootDir;
  plan.sourceIsTestFile = isTestSource;
  std::set<std::string> testFiles, support;
  cmake::Framework strongest = cmake::Framework::Plain;
  for (const auto* p : near) {
    plan.runnerArgs.push_back(p->target);
    if (strongest == cmake::Framework::Plain) strongest = p->framework;
    const bool linked = std::find(p->linked.begin(), p->linked.end(), ctx.source) != p->linked.end();
    for (const auto& s : p->sources) {
      if (s == ctx.source || !under(s, build.projectBind()) || s.rfind(build.root(), 0) == 0) continue;
      // A program greenlight linked from every test file: for a header, the test files that read it.
      if (p->perFile && !isTestSource && !linked) {
        Program one = *p;
        one.sources = {s};
        auto h = native::headersOf(one, deps, build.projectBind(), build.root());
        if (std::find(h.begin(), h.end(), ctx.source) == h.end()) continue;
      }
      testFiles.insert(s);
    }
    for (const auto& h : headers[p]) support.insert(h);
    // The library sources it links decide the outcome too (and their texts are checked against
    // the last build's: a source copied back with an old mtime must still recompile).
    for (const auto& l : p->linked)
      if (under(l, build.projectBind())) support.insert(l);
  }
  plan.framework = strongest == cmake::Framework::Plain ? framework : std::string(cmake::frameworkName(strongest));
  plan.testFiles.assign(testFiles.begin(), testFiles.end());
  for (const auto& f : support)
    if (f != ctx.source && !testFiles.count(f) && plan.supportFiles.size() < 400) plan.supportFiles.push_back(f);
  std::vector<std::string> scanned = isTestSource ? std::vector<std::string>{ctx.source} : plan.testFiles;
  for (const auto& f : scanned) {
    auto text = f == ctx.source ? std::optional<std::string>(ctx.text) : readSource(f, ctx.request.overlay);
    if (!text) continue;
    for (const auto& d : cmake::scanTestDeclarations(*text)) plan.staticTests.push_back({d.name, f, d.line, d.endLine});
  }
  if (isTestSource) {
    if (ctx.request.line) {
      for (const auto& st : plan.staticTests)
        if (*ctx.request.line >= st.line && *ctx.request.line <= st.endLine) plan.selected = {st.name};
      if (!plan.selected.empty()) plan.selectionNote = "the test case at line " + std::to_string(*ctx.request.line);
    }
  } else {
    narrowToFunction(plan, ctx);
    if (plan.function && !plan.selected.empty()) {
      plan.selectionNote = "the test cases that name or call " + plan.function->name;
    } else if (plan.function) {
      plan.selectionNote = "no test case names or calls " + plan.function->name + ": ran every test near the file";
      plan.selected.clear();
    }
  }
  return plan;
}

// The texts a run compiles: staged for the diagnostics, and the overlays to bind.
bool prepareRun(const TestPlan& plan, const RunOptions& options, Staging& staging, cmake::PrivateBuild& build,
                std::vector<cmake::OverlayBind>* binds, std::string* error) {
  staging.addText(plan.sourceFile, readSource(plan.sourceFile, options.overlay).value_or(""));
  for (const auto& f : plan.testFiles)
    if (auto t = readSource(f, options.overlay)) staging.addText(f, *t);
  std::vector<std::string> files = {plan.sourceFile};
  files.insert(files.end(), plan.testFiles.begin(), plan.testFiles.end());
  files.insert(files.end(), plan.supportFiles.begin(), plan.supportFiles.end());
  return build.syncOverlays(files, options.overlay, binds, error);
}

RunResult buildAndRun(const TestPlan& plan, const RunOptions& options, Staging& staging, cmake::PrivateBuild& build,
                      const std::vector<cmake::OverlayBind>& binds, const std::vector<Program>& programs, RunResult result) {
  std::vector<const Program*> chosen;
  std::vector<std::string> targets;
  for (const auto& name : plan.runnerArgs)
    for (const auto& p : programs)
      if (p.target == name) {
        chosen.push_back(&p);
        if (std::find(targets.begin(), targets.end(), p.buildTarget) == targets.end()) targets.push_back(p.buildTarget);
      }
  if (chosen.empty()) {
    result.error = plan.sourceFile + ": its test programs are no longer in the build";
    return result;
  }
  bool cold = false;
  std::error_code ec;
  for (const auto* p : chosen) cold = cold || !fs::exists(p->binary, ec);
  auto built = native::ninjaBuild(build, targets, binds, options, cold ? 1800 : 600);
  if (built.verdict.cancelled) {
    result.cancelled = true;
    result.verdict = built.verdict;
    return result;
  }
  if (built.verdict.status != sandbox::Status::Ok)
    return native::buildFailed(plan, options, built, std::move(result), chosen.front()->links);
  native::runPrograms(plan, options, staging, build, binds, chosen, result);
  return result;
}

void giveToSandbox(const std::string& dir) {
  if (::geteuid() == 0 && ::chown(dir.c_str(), 65534, 65534) != 0) {
    // Left as is: the build step says what it could not write.
  }
}

// ---- Meson

class MesonAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "meson"; }
  bool handles(Language language) const override { return language == Language::Cxx; }

  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string* error) const override {
    if (!ctx.request.extraTestFiles.empty()) return std::nullopt;
    auto project = native::findMesonProject(ctx.source);
    if (!project || !cmake::sandboxHasProgram("meson") || !cmake::sandboxHasProgram("ninja")) return std::nullopt;
    auto build = cmake::PrivateBuild::of(project->sourceDir);
    if (!build) return std::nullopt;
    const RunOptions ro = optionsFor(ctx.request);
    std::string err;
    std::vector<Program> programs;
    {
      auto lock = build->lock(&err);
      if (!lock || !native::mesonConfigure(*build, *project, ro, &err)) {
        *error = err;
        return std::nullopt;
      }
      programs = native::mesonPrograms(*project, build->buildDir(), &err);
    }
    if (!err.empty()) {
      *error = "Meson project " + project->sourceDir + ": " + err;
      return std::nullopt;
    }
    auto deps = build->deps();
    auto plan = planFor(ctx, project->sourceDir, programs, *deps, *build, "meson");
    if (!plan) {
      // A file of the project that no test program reaches: the project's, with no test near it.
      TestPlan empty;
      empty.language = Language::Cxx;
      empty.sourceFile = ctx.source;
      empty.rootDir = project->sourceDir;
      empty.workspaceRoot = ctx.workspaceRoot;
      empty.framework = "meson";
      return empty;
    }
    return plan;
  }

  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    auto project = native::findMesonProject(plan.sourceFile);
    auto build = project ? cmake::PrivateBuild::of(project->sourceDir) : nullptr;
    if (!build) {
      result.error = plan.sourceFile + ": no longer part of a Meson project";
      return result;
    }
    std::string err;
    auto lock = build->lock(&err);
    if (!lock || !native::mesonConfigure(*build, *project, options, &err)) {
      result.error = err;
      return result;
    }
    std::vector<cmake::OverlayBind> binds;
    if (!prepareRun(plan, options, staging, *build, &binds, &err)) {
      result.error = err;
      return result;
    }
    auto programs = native::mesonPrograms(*project, build->buildDir(), &err);
    if (!err.empty()) {
      result.error = err;
      return result;
    }
    return buildAndRun(plan, options, staging, *build, binds, programs, std::move(result));
  }
};

// ---- compile_commands.json

class CompileDbAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "compdb"; }
  bool handles(Language language) const override { return language == Language::Cxx; }

  // The programs for the database, with build.ninja written into the private build. Hold the Lock.
  static std::vector<Program> programsFor(const native::CompileDb& db, cmake::PrivateBuild& build, std::string* error) {
    std::error_code ec;
    for (const char* sub : {"/build", "/ccache", "/overlay"}) {
      fs::create_directories(build.root() + sub, ec);
      if (std::string(sub) != "/overlay") giveToSandbox(build.root() + sub);
    }
    // The directories outside the project its compiles read (Bazel's output base: the execroot
    // the entries run in, external repositories, generated headers): bound read-only at their
    // own paths into the build and the runs, where the project's links lead.
    build.useReadOnlyDirs(native::outsideDirs(db, build.projectBind()));
    std::string ninja;
    auto programs = native::compileDbPrograms(db, build.buildDir(), &ninja, error);
    giveToSandbox(build.buildDir() + "/obj");
    giveToSandbox(build.buildDir() + "/bin");
    if (!error->empty()) return {};
    const std::string file = build.buildDir() + "/build.ninja";
    if (readFile(file).value_or("") != ninja) {
      std::ofstream out(file, std::ios::trunc);
      out << ninja;
      if (!out) {
        *error = "cannot write " + file;
        return {};
      }
    }
    return programs;
  }

  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string* error) const override {
    if (!ctx.request.extraTestFiles.empty()) return std::nullopt;
    auto db = native::findCompileDb(ctx.source);
    if (!db || !cmake::sandboxHasProgram("ninja")) return std::nullopt;
    auto build = cmake::PrivateBuild::of(db->root);
    if (!build) return std::nullopt;
    std::string err;
    std::vector<Program> programs;
    {
      auto lock = build->lock(&err);
      if (!lock) {
        *error = err;
        return std::nullopt;
      }
      programs = programsFor(*db, *build, &err);
    }
    if (!err.empty()) {
      *error = "compile_commands.json project " + db->root + ": " + err;
      return std::nullopt;
    }
    auto deps = build->deps();
    return planFor(ctx, db->root, programs, *deps, *build, "compdb");
  }

  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    auto db = native::findCompileDb(plan.sourceFile);
    auto build = db ? cmake::PrivateBuild::of(db->root) : nullptr;
    if (!build) {
      result.error = plan.sourceFile + ": no longer has a compile_commands.json";
      return result;
    }
    std::string err;
    auto lock = build->lock(&err);
    if (!lock) {
      result.error = err;
      return result;
    }
    auto programs = programsFor(*db, *build, &err);
    std::vector<cmake::OverlayBind> binds;
    if (!err.empty() || !prepareRun(plan, options, staging, *build, &binds, &err)) {
      result.error = err;
      return result;
    }
    return buildAndRun(plan, options, staging, *build, binds, programs, std::move(result));
  }
};

}  // namespace

const RunnerAdapter& mesonAdapter() {
  static const MesonAdapter adapter;
  return adapter;
}

const RunnerAdapter& compileDbAdapter() {
  static const CompileDbAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
