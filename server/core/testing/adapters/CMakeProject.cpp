// CMake projects, run the way their developers and CTest run them (DESIGN.md "Nearby tests", C++).
// One run flows through six named steps; Discovery and Runner only pick the adapter and call it.
//
// 1 detect       the file belongs to a CMake project (cmake/Project.h; any project: its C++ files
//                are never compiled alone with guessed flags) and cmake is installed.
// 2 buildGraph   greenlight's private build of the project (cmake/PrivateBuild.h: configured once,
//                sandboxed, the options gating the tests turned on) gives the targets (File API),
//                the CTest tests (ctest --show-only) and the include graph (the compiler's
//                recorded dependencies, re-read after every build; an #include scan before the
//                first); the test targets are every executable that uses a test framework,
//                registered with CTest or not, and every program CTest runs (cmake/TestTargets.h).
// 3 planFor      "the tests near" a file are those of the test targets that compile it or include
//                it, directly or through a library they link; a file that is itself a source of a
//                test target runs the test cases it declares, with the framework's own filter
//                (doctest --source-file, GoogleTest --gtest_filter, Catch2 by the names it lists).
//                With a line, the tests that name or call the function there (declarations
//                scanned from the test files: TEST/TEST_F/TEST_P, TEST_CASE, SCENARIO, ...). No test
//                target near the file: an empty plan whose note says why (CLI exit 3).
// 4 buildStep    overlays synced (unsaved and candidate texts bind-mounted over their files), the
//                test targets built incrementally in the sandbox (ninja rebuilds the translation
//                units whose inputs changed, in parallel up to the cores).
// 5 runStep      each test binary run once in the sandbox with its framework's reporter and a
//                filter for the selection; a run that dies in a test is run again for the tests it
//                did not reach (CTest runs each test in its own process: one crash fails one test).
//                Plain CTest tests run one by one; their exit code is the result.
// 6 parseReport  the framework's report as one result per test case (cmake/FrameworkReports.h),
//                template instances as the framework counts them.
// 7 coverage     the file under test's lines run, from the counts the runs wrote (native/Gcov.h:
//                the private build compiles with --coverage under GCC).
//
// Ids: "<target>::<framework's test name>" (GoogleTest "Suite.Name", Catch2/doctest the test
// case name; plain tests their CTest name).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"
#include "core/testing/cmake/FileApi.h"
#include "core/testing/cmake/FrameworkReports.h"
#include "core/testing/cmake/PrivateBuild.h"
#include "core/testing/cmake/Project.h"
#include "core/testing/cmake/TestTargets.h"
#include "core/testing/cmake/Trace.h"
#include "core/testing/native/Gcov.h"
#include "core/testing/native/Programs.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;
using cmake::CtestTest;
using cmake::Framework;

namespace {

// Under the run's /out: where the test programs write their coverage counts.
constexpr char kGcovDir[] = "gcov";

bool under(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

std::string readHost(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> compiledSources(const cmake::Target& t) {
  std::vector<std::string> out;
  for (const auto& s : t.sources)
    if (s.compileGroup >= 0 && !s.generated) out.push_back(s.path);
  return out;
}

// Project files (under `root`, outside `buildRoot`) that the target's objects read.
std::vector<std::string> headersOf(const cmake::Target& t, const cmake::DepsIndex& deps, const std::string& root,
                                   const std::string& buildRoot) {
  std::set<std::string> out;
  const std::string dir = t.objectDir();
  bool known = false;
  for (auto it = deps.objects.lower_bound(dir + "/"); it != deps.objects.end() && under(it->first, dir); ++it) {
    known = true;
    for (const auto& f : it->second)
      if (under(f, root) && !under(f, buildRoot)) out.insert(f);
  }
  if (!known) {
    for (const auto& s : t.sources) {
      if (s.compileGroup < 0 || s.compileGroup >= static_cast<int>(t.compileGroups.size())) continue;
      const auto& g = t.compileGroups[static_cast<std::size_t>(s.compileGroup)];
      std::vector<std::string> dirs = g.includes;
      dirs.insert(dirs.end(), g.systemIncludes.begin(), g.systemIncludes.end());
      for (const auto& f : cmake::scanIncludes(s.path, dirs, 400))
        if (under(f, root) && !under(f, buildRoot)) out.insert(f);
    }
  }
  return {out.begin(), out.end()};
}

bool mentionedByBuild(const std::string& file, const cmake::ProjectDir& project) {
  const std::string ext = fs::path(file).extension().string();
  if (ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx") return true;
  const std::string name = fs::path(file).filename().string();
  for (const auto& f : project.listFiles) {
    auto text = readSource(f, nullptr);
    if (text && (text->find(name) != std::string::npos || text->find("GLOB") != std::string::npos)) return true;
  }
  return false;
}

// A target built with a sanitizer: its runtime must come first, no LD_PRELOAD before it.
bool sanitized(const cmake::Target& t) {
  for (const auto& g : t.compileGroups)
    for (const auto& f : g.fragments)
      if (f.find("-fsanitize") != std::string::npos) return true;
  for (const auto& l : t.link)
    if (l.fragment.find("-fsanitize") != std::string::npos || l.fragment.find("libasan") != std::string::npos) return true;
  return false;
}

RunOptions optionsFor(const DiscoveryRequest& request) {
  RunOptions ro;
  if (request.config) ro.config = *request.config;
  ro.toolEnvironment = request.toolEnvironment;
  return ro;
}

// What a test run of one target is asked to do.
struct TargetRun {
  const cmake::Target* target = nullptr;
  Framework framework = Framework::Plain;
  std::vector<const CtestTest*> frameworkTests;  // discovered per test case
  std::vector<const CtestTest*> wholeBinary;     // add_test(NAME x COMMAND tests): the binary's default set
  bool unregistered = false;  // a framework executable CTest does not run: the binary, as its developers run it
  std::vector<const CtestTest*> plainTests;
  std::vector<std::string> select;  // framework names to run; empty: all (unless selective)
  bool selective = false;           // a selection applies: an empty `select` runs nothing
  std::set<std::string> disabledSelected;  // selected tests CTest lists as DISABLED (never run)
  // doctest: test cases the binary reports (as skipped: doctest::skip) that CTest does not list.
  std::vector<std::string> unlisted;
  bool filterByFile = false;        // keep only results declared in the source file
  // A test file's run, the framework's own way: doctest's --source-file=, GoogleTest's filter of
  // the file's declarations, Catch2's names from --list-test-names-only that the file declares.
  std::vector<std::string> fileArguments;          // doctest
  std::vector<cmake::TestDecl> listForFile;        // Catch2 without per-case CTest tests
  bool whole() const { return !wholeBinary.empty() || unregistered; }
  std::string trace;                // the trace library to preload ("" none: cmake/Trace.h)
};

// "file:line" mentions of project files in a plain test's output: where it says it failed.
std::vector<Frame> framesInOutput(const std::string& output, const std::string& root) {
  std::vector<Frame> frames;
  static const std::regex loc = support::regex(R"((/[^\s:'"()]+):(\d+)(?::(\d+))?)");
  for (std::sregex_iterator it(output.begin(), output.end(), loc), end; it != end && frames.size() < 16; ++it) {
    std::string file = fs::path((*it)[1].str()).lexically_normal().string();
    if (!under(file, root)) continue;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) continue;
    frames.push_back({file, std::stoi((*it)[2].str()), (*it)[3].matched ? std::stoi((*it)[3].str()) : 0, ""});
  }
  return frames;
}

TestResult toTestResult(const cmake::CaseResult& c) {
  TestResult r = c.result;
  r.id = c.id;
  r.parent = c.parent;
  r.outcome = c.outcome;
  r.reason = c.reason;
  if (r.details.empty()) r.details = c.details;
  return r;
}

class CMakeAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "cmake"; }
  bool handles(Language language) const override { return language == Language::Cxx; }

  // detect -> build graph -> plan, each a step below; run() then builds, runs and parses.
  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string* error) const override {
    auto project = detect(ctx);
    if (!project) return std::nullopt;
    std::string err;
    auto graph = buildGraph(*project, optionsFor(ctx.request), &err);
    if (!graph) {
      // The user must hear it when the file is the build's (a header, or a source a list file
      // names); a stray file beside a project that does not configure here is the single-file
      // adapter's.
      if (!err.empty() && (graph.configured || mentionedByBuild(ctx.source, *project))) *error = err;
      return std::nullopt;
    }
    return planFor(ctx, graph);
  }

 private:
  // The project's build as a graph: the File API's targets, CTest's tests, the compiler's
  // recorded dependencies (updated by every build: the include graph), and the test targets
  // (cmake/TestTargets.h: every executable using a framework, registered or not).
  struct Graph {
    std::shared_ptr<cmake::PrivateBuild> build;
    cmake::ProjectDir project;
    std::shared_ptr<const cmake::CodeModel> model;
    std::shared_ptr<const std::vector<CtestTest>> tests;
    std::shared_ptr<const cmake::DepsIndex> deps;
    std::map<std::string, cmake::TestTarget> targets;
    std::string note;         // the options the private build turned on for the tests
    bool configured = false;  // configure passed (a later failure is always the user's to hear)
    explicit operator bool() const { return model && tests && deps; }
  };

  // Step 1, detect: the file belongs to a CMake project (any: its files are never compiled
  // alone) and cmake/ctest are installed; else another adapter has it.
  std::optional<cmake::ProjectDir> detect(const DiscoveryContext& ctx) const {
    // Tests written from a comment's examples exist only in the editor: the single-file harness.
    if (!ctx.request.extraTestFiles.empty()) return std::nullopt;
    auto project = cmake::findTestedProject(ctx.source, ctx.workspaceRoot);
    if (!project || !cmake::sandboxHasProgram("cmake") || !cmake::sandboxHasProgram("ctest")) return std::nullopt;
    if (insideOtherBuild(ctx.source, project->sourceDir)) return std::nullopt;
    return project;
  }

  // Whether a directory between the file and the CMake project's root is a build tree (its
  // CMakeCache.txt: outputs and copies, not the project's sources) or the root of a Meson project
  // (a meson.build that declares project(): a subdirectory's meson.build, as projects that build
  // both ways ship in test/, does not count): that nearer build owns the file.
  static bool insideOtherBuild(const std::string& file, const std::string& root) {
    std::error_code ec;
    const fs::path top = fs::path(root).lexically_normal();
    for (fs::path dir = fs::path(file).parent_path(); !dir.empty() && dir != top && dir != dir.parent_path();
         dir = dir.parent_path()) {
      if (dir.lexically_relative(top).string().rfind("..", 0) == 0) return false;  // not below the root
      if (fs::exists(dir / "CMakeCache.txt", ec)) return true;
      if (auto meson = readFile((dir / "meson.build").string());
          meson && support::anyLineMatches(*meson, support::regex("^\\s*project\\s*\\("), {"project"}))
        return true;
    }
    return false;
  }

  // Step 2, the build graph: configured (once; the options gating the tests on), then read.
  Graph buildGraph(const cmake::ProjectDir& project, const RunOptions& ro, std::string* error) const {
    Graph g;
    g.project = project;
    g.build = cmake::PrivateBuild::of(project.sourceDir);
    if (!g.build) return g;
    {
      auto lock = g.build->lock(error);
      if (!lock || !g.build->configure(project, ro, error)) return g;
    }
    g.configured = true;
    g.note = cmake::describeTestGates(cmake::testGates(project, cmake::findUserBuild(project.sourceDir)));
    std::string err;
    g.model = g.build->model(&err);
    g.tests = g.model ? g.build->tests(ro, &err) : nullptr;
    if (!g.model || !g.tests) {
      *error = "CMake project " + project.sourceDir + ": " + err;
      return g;
    }
    g.deps = g.build->deps();
    g.targets = cmake::testTargets(*g.model, *g.tests, g.deps.get());
    return g;
  }

  // Why a file of the build has no test near it, in words (the plan stays empty: exit 3).
  static std::string whyNoTests(const std::string& file, const Graph& graph, const std::vector<cmake::FileUse>& uses) {
    const std::string rel = fs::path(file).lexically_relative(graph.project.sourceDir).string();
    std::string why;
    if (uses.empty()) {
      why = "no target of the CMake build of " + graph.project.sourceDir + " compiles or includes " + rel +
            ": greenlight builds C++ with the project's own flags and does not compile it alone";
    } else {
      std::set<std::string> names;
      for (const auto& u : uses) names.insert(u.target->name);
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      why = rel + " is built into " + list + ", and no test target uses " + (names.size() == 1 ? "it" : "them") +
            " (an executable using GoogleTest, Catch2 or doctest, or a program CTest runs)";
    }
    if (!graph.note.empty()) why += "; " + graph.note;
    return why;
  }

  // Step 3, plan: the test targets near the file, its test cases, the files that decide them.
  std::optional<TestPlan> planFor(const DiscoveryContext& ctx, const Graph& graph) const {
    // The test targets that compile or include the file.
    std::vector<const cmake::Target*> near;
    bool isTestSource = false;
    const auto uses = cmake::targetsUsing(*graph.model, ctx.source, graph.deps.get());
    for (const auto& use : uses) {
      if (!graph.targets.count(use.target->name)) continue;
      near.push_back(use.target);
      for (const auto& s : compiledSources(*use.target)) isTestSource = isTestSource || s == ctx.source;
    }
    if (near.empty()) {
      TestPlan none;
      none.language = Language::Cxx;
      none.sourceFile = ctx.source;
      none.workspaceRoot = ctx.workspaceRoot;
      none.rootDir = graph.project.sourceDir;
      none.selectionNote = whyNoTests(ctx.source, graph, uses);
      return none;
    }
    if (isTestSource) {
      // A test source runs its own target(s) only, not every target linking a library it is in.
      near.erase(std::remove_if(near.begin(), near.end(),
                                [&](const cmake::Target* t) {
                                  auto s = compiledSources(*t);
                                  return std::find(s.begin(), s.end(), ctx.source) == s.end();
                                }),
                 near.end());
    }
    std::sort(near.begin(), near.end(), [](const auto* a, const auto* b) { return a->name < b->name; });

    TestPlan plan;
    plan.language = Language::Cxx;
    plan.sourceFile = ctx.source;
    plan.workspaceRoot = under(ctx.workspaceRoot, graph.project.sourceDir) ? graph.project.sourceDir : ctx.workspaceRoot;
    plan.rootDir = graph.project.sourceDir;
    plan.sourceIsTestFile = isTestSource;
    Framework strongest = Framework::Plain;
    std::set<std::string> testFiles, support;
    std::map<std::string, Framework> fileFramework;
    for (const auto* t : near) {
      plan.runnerArgs.push_back(t->name);
      const Framework fw = graph.targets.at(t->name).framework;
      if (strongest == Framework::Plain) strongest = fw;
      for (const auto& s : compiledSources(*t)) {
        if (s != ctx.source && under(s, graph.build->projectBind())) testFiles.insert(s);
        fileFramework[s] = fw;
      }
      for (const auto& h : headersOf(*t, *graph.deps, graph.build->projectBind(), graph.build->root())) support.insert(h);
      // The libraries it links (their sources and headers decide the outcome too).
      std::vector<const cmake::Target*> queue{t};
      std::set<std::string> seen{t->id};
      while (!queue.empty()) {
        const cmake::Target* cur = queue.back();
        queue.pop_back();
        for (const auto& id : cur->dependencies) {
          const cmake::Target* dep = graph.model->findById(id);
          if (!dep || !seen.insert(id).second) continue;
          queue.push_back(dep);
          for (const auto& s : compiledSources(*dep))
            if (under(s, graph.build->projectBind())) support.insert(s);
          for (const auto& h : headersOf(*dep, *graph.deps, graph.build->projectBind(), graph.build->root())) support.insert(h);
        }
      }
    }
    plan.framework = std::string(cmake::frameworkName(strongest));
    plan.testFiles.assign(testFiles.begin(), testFiles.end());
    for (const auto& f : support)
      if (f != ctx.source && !testFiles.count(f) && plan.supportFiles.size() < 400) plan.supportFiles.push_back(f);

    // The test cases the files declare (names, lines): narrowing, and a test file's own tests.
    std::vector<std::string> scanned = plan.testFiles;
    if (isTestSource) scanned = {ctx.source};
    for (const auto& f : scanned) {
      auto text = f == ctx.source ? std::optional<std::string>(ctx.text) : readSource(f, ctx.request.overlay);
      if (!text) continue;
      for (const auto& d : cmake::scanTestDeclarations(*text, fileFramework[f]))
        plan.staticTests.push_back({d.name, f, d.line, d.endLine});
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
    // What the private build changed to build the tests: the user hears it with the selection.
    if (!graph.note.empty())
      plan.selectionNote = (plan.selectionNote.empty() ? "every test near the file" : plan.selectionNote) + " (" + graph.note + ")";
    return plan;
  }

 public:
  // Step 4, build (the test targets, incrementally, overlays bound: only the translation units
  // whose recorded inputs changed recompile, in parallel), step 5, run (each test binary with its
  // framework's reporter and filter; plain CTest programs by exit code), step 6, parse (the
  // frameworks' reports into per-case results: parseReport).
  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    auto built = buildStep(plan, options, staging, result);
    if (!built) return result;
    runStep(plan, options, staging, *built, result);
    return result;
  }

 private:
  struct Built {
    std::shared_ptr<cmake::PrivateBuild> build;
    std::unique_ptr<cmake::PrivateBuild::Lock> lock;  // held from the build to the last test
    std::vector<cmake::OverlayBind> binds;
  };

  std::optional<Built> buildStep(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult& result) const {
    Built b;
    auto project = cmake::findTestedProject(plan.sourceFile, plan.workspaceRoot);
    b.build = project ? cmake::PrivateBuild::of(project->sourceDir) : nullptr;
    if (!b.build) {
      result.error = plan.sourceFile + ": no longer part of a CMake project";
      return std::nullopt;
    }
    auto& build = b.build;
    std::string err;
    b.lock = build->lock(&err);
    if (!b.lock || !build->configure(*project, options, &err)) {
      result.error = err;
      return std::nullopt;
    }
    // The texts the run compiles (the diagnostics read them).
    staging.addText(plan.sourceFile, readSource(plan.sourceFile, options.overlay).value_or(""));
    for (const auto& f : plan.testFiles)
      if (auto t = readSource(f, options.overlay)) staging.addText(f, *t);
    std::vector<std::string> files = {plan.sourceFile};
    files.insert(files.end(), plan.testFiles.begin(), plan.testFiles.end());
    files.insert(files.end(), plan.supportFiles.begin(), plan.supportFiles.end());
    if (!build->syncOverlays(files, options.overlay, &b.binds, &err)) {
      result.error = err;
      return std::nullopt;
    }
    auto model = build->model(&err);
    if (!model) {
      result.error = err;
      return std::nullopt;
    }
    // A target not built yet is a cold build: give it room.
    bool cold = false;
    for (const auto& name : plan.runnerArgs) {
      const cmake::Target* t = model->find(name);
      std::error_code ec;
      cold = cold || !t || t->artifacts.empty() || !fs::exists(t->artifacts.front(), ec);
    }
    const double last = build->lastBuildSeconds(plan.runnerArgs);
    const double limit = cold ? 1800 : std::max(120.0, 3 * last);
    auto built = build->build(plan.runnerArgs, b.binds, options, limit);
    if (built.verdict.cancelled) {
      result.cancelled = true;
      result.verdict = built.verdict;
      return std::nullopt;
    }
    if (built.verdict.status != sandbox::Status::Ok) {
      result = native::buildFailed(plan, options, built, std::move(result));
      return std::nullopt;
    }
    return b;
  }

  void runStep(const TestPlan& plan, const RunOptions& options, Staging& staging, const Built& b, RunResult& result) const {
    std::string err;
    auto& build = b.build;
    auto model = build->model(&err);  // a build may have re-run CMake
    auto tests = model ? build->tests(options, &err) : nullptr;
    if (!tests) {
      result.error = err;
      return;
    }
    auto deps = build->deps();  // the include graph, as this build recorded it
    const auto targets = cmake::testTargets(*model, *tests, deps.get());
    auto runs = planRuns(plan, *model, targets, options);
    const std::string trace = build->traceLibrary(options, *model);
    for (auto& tr : runs) tr.trace = sanitized(*tr.target) ? "" : trace;
    const std::string out = staging.outDir();
    int serial = 0;
    for (auto& tr : runs) {
      if (result.cancelled) break;
      runFramework(plan, options, staging, *build, b.binds, tr, out, serial, result);
      runPlain(plan, options, staging, *build, b.binds, tr, out, serial, result);
    }
    if (!result.cancelled && !out.empty() && native::coverageEnabled())
      result.coverage = coverageOf(plan, options, staging, *model, deps, out);
    // Frames in project files the run did not stage (a header other than the source): their
    // texts, so that the diagnostics can range them.
    std::set<std::string> have;
    for (const auto& [f, t] : staging.stagedTexts()) have.insert(f);
    for (const auto& t : result.tests)
      for (const auto& fr : t.frames)
        if (under(fr.file, build->projectBind()) && have.insert(fr.file).second)
          if (auto text = readSource(fr.file, options.overlay)) staging.addText(fr.file, *text);
  }

 private:

  std::vector<TargetRun> planRuns(const TestPlan& plan, const cmake::CodeModel& model,
                                  const std::map<std::string, cmake::TestTarget>& targets, const RunOptions& options) const {
    // The declarations selected (by name) in the files of the plan.
    std::vector<cmake::TestDecl> decls;
    std::vector<std::string> scanned = plan.testFiles;
    scanned.push_back(plan.sourceFile);
    std::vector<cmake::TestDecl> ownDecls;  // declared in the source itself (a test file)
    for (const auto& f : scanned) {
      auto text = readSource(f, options.overlay);
      if (!text) continue;
      for (auto& d : cmake::scanTestDeclarations(*text)) {
        d.file = f;
        if (f == plan.sourceFile) ownDecls.push_back(d);
        if (std::find(plan.selected.begin(), plan.selected.end(), d.name) != plan.selected.end() &&
            (!plan.sourceIsTestFile || f == plan.sourceFile))
          decls.push_back(d);
      }
    }
    // A test file without a line: its own cases, selected the framework's way (selectFile).
    auto runs = planRunsFor(plan, model, targets, options, decls, ownDecls);
    bool anySelected = decls.empty();
    for (const auto& tr : runs) anySelected = anySelected || !tr.select.empty() || !tr.disabledSelected.empty();
    // Declarations no test of CTest's is an instance of: run every test near the file.
    if (!anySelected) runs = planRunsFor(plan, model, targets, options, {}, ownDecls);
    return runs;
  }

  std::vector<TargetRun> planRunsFor(const TestPlan& plan, const cmake::CodeModel& model,
                                     const std::map<std::string, cmake::TestTarget>& targets, const RunOptions& options,
                                     const std::vector<cmake::TestDecl>& decls,
                                     const std::vector<cmake::TestDecl>& ownDecls) const {
    const std::regex callsFunction = support::regex(plan.function ? "\\b" + plan.function->name + "\\s*\\(" : std::string("$^"));
    std::vector<TargetRun> runs;
    for (const auto& name : plan.runnerArgs) {
      const cmake::Target* target = model.find(name);
      auto it = targets.find(name);
      if (!target || it == targets.end()) continue;
      TargetRun tr;
      tr.target = target;
      auto sources = compiledSources(*target);
      tr.framework = it->second.framework;
      for (const auto* t : it->second.ctest) {
        if (t->framework == Framework::Plain) tr.plainTests.push_back(t);
        else if (t->frameworkName.empty()) tr.wholeBinary.push_back(t);
        else tr.frameworkTests.push_back(t);
      }
      tr.unregistered = !it->second.registered() && tr.framework != Framework::Plain;
      const bool ownsSource = std::find(sources.begin(), sources.end(), plan.sourceFile) != sources.end();
      if (tr.framework == Framework::Doctest && !tr.frameworkTests.empty()) {
        for (const auto& src : sources) {
          auto text = readSource(src, options.overlay);
          if (!text) continue;
          for (const auto& d : cmake::scanTestDeclarations(*text, Framework::Doctest)) {
            bool listed = false;
            for (const auto* t : tr.frameworkTests) listed = listed || cmake::declares(d, t->frameworkName);
            if (!listed) tr.unlisted.push_back(d.name);
          }
        }
      }
      // Boost.Test enables a disabled test that --run_test names: a whole test file runs the
      // binary's default set, its results kept by file (as the framework would report them).
      const bool boostWholeFile = tr.framework == Framework::BoostTest && plan.sourceIsTestFile && plan.selected.empty();
      if (!decls.empty() && !boostWholeFile) {
        std::set<const cmake::TestDecl*> matched;
        for (const auto* t : tr.frameworkTests)
          for (const auto& d : decls)
            if (cmake::declares(d, t->frameworkName)) {
              if (t->disabled) tr.disabledSelected.insert(t->frameworkName);
              else tr.select.push_back(t->frameworkName);
              matched.insert(&d);
              break;
            }
        // doctest_discover_tests leaves out doctest::skip() cases that the binary reports as
        // skipped: ask for them by name (Catch2's hidden [.] cases are left out on purpose: named,
        // they would run).
        if (tr.framework == Framework::Doctest && !tr.select.empty())
          for (const auto& d : decls)
            if (!matched.count(&d) && std::find(sources.begin(), sources.end(), d.file) != sources.end())
              tr.select.push_back(d.name);
        if (tr.whole())
          for (const auto& d : decls) {
            if (d.framework == Framework::GoogleTest) {
              tr.select.push_back(cmake::gtestPatterns(d.name));
            } else {
              // Boost.Test's template and data cases by their instances ("name<int>", "name/_0").
              const bool boostInstances = d.framework == Framework::BoostTest &&
                                          (d.macro.find("TEMPLATE") != std::string::npos || d.macro.find("DATA") != std::string::npos);
              tr.select.push_back(boostInstances ? d.name + "*" : d.name);
              // TEST_CASE_TEMPLATE's instances ("name<int>"): doctest's filters are wildcards.
              if (d.framework == Framework::Doctest && d.macro.find("TEMPLATE") != std::string::npos) tr.select.push_back(d.name + "<*>");
            }
          }
        tr.selective = true;
        if (tr.select.empty() && tr.disabledSelected.empty()) {
          tr.frameworkTests.clear();
          tr.wholeBinary.clear();
          tr.unregistered = false;
        } else if (tr.whole()) {
          tr.frameworkTests.clear();
        }
      } else if (plan.sourceIsTestFile && ownsSource && !ownDecls.empty()) {
        selectFile(tr, plan, ownDecls);
      }
      // Plain tests: with a function selected, those whose program calls it.
      if (plan.function && !plan.selected.empty()) {
        bool calls = false;
        for (const auto& s : sources) {
          auto text = readSource(s, options.overlay);
          calls = calls || (text && std::regex_search(*text, callsFunction));
        }
        if (!calls) tr.plainTests.clear();
      }
      runs.push_back(std::move(tr));
    }
    return runs;
  }

  // A test file's own test cases, selected the framework's way (item: "run a test file as the
  // framework would"): results are still kept by file (filterByFile) as the framework places them.
  static void selectFile(TargetRun& tr, const TestPlan& plan, const std::vector<cmake::TestDecl>& ownDecls) {
    tr.filterByFile = true;
    // Per-case CTest tests: those the file declares (the DISABLED ones reported as CTest does).
    auto fromCtest = [&] {
      for (const auto* t : tr.frameworkTests)
        for (const auto& d : ownDecls)
          if (cmake::declares(d, t->frameworkName)) {
            if (t->disabled) tr.disabledSelected.insert(t->frameworkName);
            else tr.select.push_back(t->frameworkName);
            break;
          }
    };
    switch (tr.framework) {
      case Framework::Doctest:
        // doctest filters by the file its test cases are defined in (__FILE__: the absolute path
        // CMake compiles): every case of the file, templates and doctest::skip ones included.
        tr.fileArguments = {"--source-file=" + plan.sourceFile};
        break;
      case Framework::GoogleTest:
        if (!tr.frameworkTests.empty()) {
          fromCtest();
        } else {
          // The declarations' instances; DISABLED_ ones match too and are reported NOTRUN (no
          // --gtest_also_run_disabled_tests: they are not run, as the whole binary would not).
          std::string filter;
          for (const auto& d : ownDecls)
            if (d.framework == Framework::GoogleTest) filter += (filter.empty() ? "" : ":") + cmake::gtestPatterns(d.name);
          if (!filter.empty()) tr.fileArguments = {"--gtest_filter=" + filter};
        }
        break;
      case Framework::Catch2:
        if (!tr.frameworkTests.empty()) fromCtest();
        else tr.listForFile = ownDecls;
        break;
      case Framework::BoostTest:
        // --run_test would enable the file's disabled cases: the binary's default set, its
        // results kept by file, is what the framework runs of that file.
        break;
      case Framework::Plain: break;
    }
    // Nothing matched by name (declarations the scan reads differently): the whole binary, its
    // results kept by file.
    tr.selective = !tr.select.empty() || !tr.disabledSelected.empty();
  }

  // `binary --list-test-names-only` (Catch2 v2), else `--list-tests --verbosity quiet` (v3):
  // the test cases it runs by default, one name a line.
  std::vector<std::string> listCatch2(const TestPlan& plan, const RunOptions& options, const Staging& staging,
                                      const cmake::PrivateBuild& build, const std::vector<cmake::OverlayBind>& binds,
                                      const cmake::Target& target, const std::string& binary, const std::string& out) const {
    for (const auto& flags : {std::vector<std::string>{"--list-test-names-only"},
                              std::vector<std::string>{"--list-tests", "--verbosity", "quiet"}}) {
      sandbox::Policy p = testPolicy(plan, options, staging, build, binds, nullptr, target, out, "", "");
      p.argv = {binary};
      p.argv.insert(p.argv.end(), flags.begin(), flags.end());
      StepOutput ran = executeStep(p, options, nullptr);
      // Catch2 v2 exits with the number of tests it listed; v3 rejects the v2 flag.
      const bool listed = ran.verdict.status == sandbox::Status::Ok || ran.verdict.status == sandbox::Status::ExitNonzero;
      // A rejected flag is Catch2's "Error(s) in input: Unrecognised token" on stderr (or at the
      // head of stdout), never a listed name: a test case may well be named "Unrecognised options".
      const auto head = ran.stdoutText.find_first_not_of("\r\n");
      const bool rejected = ran.stderrText.find("Error(s) in input") != std::string::npos ||
                            ran.stderrText.find("Unrecognised token") != std::string::npos ||
                            (head != std::string::npos && ran.stdoutText.compare(head, 17, "Error(s) in input") == 0);
      if (!listed || rejected) continue;
      std::vector<std::string> names;
      std::istringstream in(ran.stdoutText);
      for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        if (l.empty()) continue;
        // Catch2 quotes a name that starts with '#' (it would read as a tag filter).
        if (l.size() > 1 && l.front() == '"' && l.back() == '"') l = l.substr(1, l.size() - 2);
        names.push_back(l);
      }
      return names;
    }
    return {};
  }

  // The file under test's lines as the runs' counts give them (every TU that compiled or
  // included it, summed); empty when the compiler is not GCC or gcov reads nothing.
  static std::vector<FileCoverage> coverageOf(const TestPlan& plan, const RunOptions& options, const Staging& staging,
                                              const cmake::CodeModel& model, const std::shared_ptr<const cmake::DepsIndex>& deps,
                                              const std::string& out) {
    native::GcovRun g;
    const cmake::Toolchain* tc = model.toolchain("CXX");
    g.gcov = tc ? native::gcovFor(tc->compilerId, tc->compilerVersion) : "";
    g.dataDir = out + "/" + kGcovDir;
    g.sandboxDataDir = std::string("/out/") + kGcovDir;
    g.files = {plan.sourceFile};
    // Only the objects whose recorded inputs name the file (an object not recorded is read).
    if (deps)
      g.relevant = [&deps, &plan](const std::string& object) {
        auto it = deps->objects.find(object + ".o");
        return it == deps->objects.end() ||
               std::find(it->second.begin(), it->second.end(), plan.sourceFile) != it->second.end();
      };
    g.policy = basePolicy(plan, options, staging, nullptr);
    g.policy.binds.push_back({out, "/out", false});
    return native::collectGcov(g, options);
  }

  sandbox::Policy testPolicy(const TestPlan& plan, const RunOptions& options, const Staging& staging,
                             const cmake::PrivateBuild& build, const std::vector<cmake::OverlayBind>& binds,
                             const CtestTest* ctest, const cmake::Target& target, const std::string& out,
                             const std::string& trace, const std::string& traceFile) const {
    sandbox::Policy p = basePolicy(plan, options, staging, nullptr);
    if (!sandbox::bindsReach(p.binds, build.projectBind())) p.binds.push_back({build.projectBind(), "", false});
    p.binds.push_back({build.buildDir(), "", true});  // tests may write where CTest runs them
    for (const auto& d : build.readOnlyDirs()) p.binds.push_back({d, "", false});  // a prefix's shared libraries
    for (const auto& b : binds) p.binds.push_back({b.copy, b.path, false});
    if (!out.empty()) p.binds.push_back({out, "/out", true});
    p.workdir = ctest && !ctest->workingDirectory.empty() ? ctest->workingDirectory : target.buildDir;
    p.profile = sandbox::Profile::Native;
    // A test run (it has a trace file) writes its coverage counts under /out, fresh for every
    // run: the counts are this run's alone (native/Gcov.h). A listing's go where nothing reads
    // them (not into the build directory, beside the objects).
    if (!out.empty() && native::coverageEnabled())
      for (auto& e : native::gcovEnvironment(traceFile.empty() ? "/out/gcov-unread" : std::string("/out/") + kGcovDir))
        p.env.push_back(std::move(e));
    if (!trace.empty() && !out.empty()) {
      p.binds.push_back({trace, "", false});
      p.env.push_back("LD_PRELOAD=" + trace);
      p.env.push_back("GREENLIGHT_TRACE_FILE=" + traceFile);
    }
    if (ctest) {
      auto env = ctest->properties.find("ENVIRONMENT");
      if (env != ctest->properties.end() && env->is_array())
        for (const auto& e : *env)
          if (e.is_string()) p.env.push_back(e.get<std::string>());
    }
    return p;
  }

  void emit(const RunOptions& options, RunResult& result, TestResult r) const {
    if (options.onTestResult) options.onTestResult(r);
    result.tests.push_back(std::move(r));
  }

  // Step 6, parse: the framework's report (GoogleTest's JSON file + console, Catch2's,
  // doctest's and Boost.Test's XML on stdout) as one result per test case.
  static std::vector<cmake::CaseResult> parseReport(const TargetRun& tr, const std::string& reportFile, const std::string& stdoutText,
                                                    const std::string& crash) {
    switch (tr.framework) {
      case Framework::GoogleTest: return cmake::gtestResults(reportFile, stdoutText, tr.target->name, crash);
      case Framework::Catch2: return cmake::parseCatch2Xml(stdoutText, tr.target->name);
      case Framework::Doctest: return cmake::parseDoctestXml(stdoutText, tr.target->name);
      case Framework::BoostTest: return cmake::parseBoostTestXml(stdoutText, tr.target->name);
      case Framework::Plain: break;
    }
    return {};
  }

  void runFramework(const TestPlan& plan, const RunOptions& options, Staging& staging, const cmake::PrivateBuild& build,
                    const std::vector<cmake::OverlayBind>& binds, const TargetRun& tr, const std::string& out, int& serial,
                    RunResult& result) const {
    if (tr.frameworkTests.empty() && !tr.whole()) return;
    if (tr.target->artifacts.empty()) return;
    const std::string binary = tr.target->artifacts.front();
    // The CTest test whose directory and environment the binary runs with (none: unregistered,
    // run in its build directory as its developers run it).
    const CtestTest* first = !tr.frameworkTests.empty() ? tr.frameworkTests.front()
                             : !tr.wholeBinary.empty() ? tr.wholeBinary.front()
                                                       : nullptr;
    std::vector<std::string> select = tr.select;
    bool selective = tr.selective;
    if (!tr.listForFile.empty()) {
      // Catch2 without per-case CTest tests: the names the binary lists (hidden [.] cases are
      // not listed, as they do not run by default) that the test file declares.
      selective = true;
      for (const auto& n : listCatch2(plan, options, staging, build, binds, *tr.target, binary, out))
        for (const auto& d : tr.listForFile)
          if (cmake::declares(d, n)) {
            select.push_back(n);
            break;
          }
    }
    // What CTest would run: every test case, or the selection (disabled ones are not run).
    std::vector<std::string> wanted = select;
    std::set<std::string> disabled;
    for (const auto* t : tr.frameworkTests) {
      if (t->disabled) disabled.insert(t->frameworkName);
      else if (select.empty()) wanted.push_back(t->frameworkName);
    }
    if (select.empty()) wanted.insert(wanted.end(), tr.unlisted.begin(), tr.unlisted.end());
    std::set<std::string> reported;
    std::vector<std::string> ask = select;  // empty: the binary's own default set (of the file: fileArguments)
    std::set<std::string> sourceDecls;
    if (tr.filterByFile)
      if (auto text = readSource(plan.sourceFile, options.overlay))
        for (const auto& d : cmake::scanTestDeclarations(*text, tr.framework)) sourceDecls.insert(d.name);
    auto keep = [&](const TestResult& r) {
      if (!tr.filterByFile) return true;
      if (!r.file.empty()) return r.file == plan.sourceFile;
      for (const auto& n : sourceDecls)
        if (n == r.name) return true;
      return false;
    };
    const bool nothingToRun = selective && select.empty();
    for (int attempt = 0; !nothingToRun && attempt < 1 + static_cast<int>(wanted.size()); ++attempt) {
      const std::string report = "report-" + std::to_string(serial) + ".json";
      const std::string traceFile = "trace-" + std::to_string(serial++) + ".txt";
      sandbox::Policy p = testPolicy(plan, options, staging, build, binds, first, *tr.target, out, tr.trace, "/out/" + traceFile);
      p.argv = {binary};
      for (auto& a : cmake::reportArguments(tr.framework, "/out/" + report)) p.argv.push_back(std::move(a));
      for (auto& a : cmake::selectArguments(tr.framework, ask)) p.argv.push_back(std::move(a));
      if (ask.empty()) p.argv.insert(p.argv.end(), tr.fileArguments.begin(), tr.fileArguments.end());
      StepOutput ran = executeStep(p, options, nullptr);
      result.verdict = ran.verdict;
      if (ran.verdict.cancelled) {
        result.cancelled = true;
        return;
      }
      const auto& v = ran.verdict;
      const std::string crash = v.status == sandbox::Status::Signaled ? "killed by signal " + std::to_string(v.signal)
                                                                       : "the test binary died (" + std::string(sandbox::statusName(v.status)) + ")";
      std::vector<cmake::CaseResult> cases = parseReport(tr, readHost(out + "/" + report), ran.stdoutText, crash);
      const bool timedOut = v.status == sandbox::Status::Timeout || v.status == sandbox::Status::CpuLimit;
      bool progress = false;
      bool died = false;
      std::vector<std::pair<TestResult, std::string>> ready;  // result, the framework's outcome
      for (auto& c : cases) {
        // doctest and Boost.Test list what a filter left out as skipped: not a result.
        if ((tr.framework == Framework::Doctest || tr.framework == Framework::BoostTest) && !ask.empty() && c.outcome == "skipped" &&
            std::find(ask.begin(), ask.end(), c.result.name) == ask.end())
          continue;
        if (!reported.insert(c.result.name).second) continue;
        progress = true;
        TestResult r = toTestResult(c);
        if (c.outcome == "crashed") {
          died = true;
          if (timedOut) {
            r.status = TestStatus::Timeout;
            r.kind = FailureKind::Timeout;
            r.message = "timed out (time limit reached)";
          } else if (v.status == sandbox::Status::MemoryLimit) {
            r.kind = FailureKind::MemoryLimit;
            r.message = "memory limit exceeded";
          } else if (r.message.find("died") != std::string::npos && v.status == sandbox::Status::Signaled) {
            r.message = crash;
          }
        }
        if (keep(r)) ready.emplace_back(std::move(r), c.outcome);
      }
      attachTraces(ready, out + "/" + traceFile, plan, options, staging, build);
      for (auto& [r, o] : ready) emit(options, result, std::move(r));
      const bool clean = v.status == sandbox::Status::Ok || v.status == sandbox::Status::ExitNonzero;
      if (!clean && !died && !timedOut) {
        // Died outside any test the report names (start-up, exit): say so once.
        TestResult r;
        r.name = tr.target->name;
        r.id = tr.target->name;
        r.file = tr.target->definedIn;
        r.line = tr.target->definedLine;
        r.status = TestStatus::Error;
        r.kind = v.status == sandbox::Status::MemoryLimit ? FailureKind::MemoryLimit
                 : v.status == sandbox::Status::SyscallViolation ? FailureKind::SandboxViolation
                                                                 : FailureKind::Exception;
        r.message = v.status == sandbox::Status::SyscallViolation ? "sandbox refused the system call " + v.syscall : crash;
        r.output = capText(ran.stdoutText + ran.stderrText, 8192);
        emit(options, result, std::move(r));
        return;
      }
      if (clean || timedOut || !progress) break;
      // It died in a test: the tests it did not reach, in a new process (as CTest would run them).
      ask.clear();
      for (const auto& n : wanted)
        if (!reported.count(n) && !disabled.count(n)) ask.push_back(n);
      if (ask.empty()) break;
    }
    // Disabled tests CTest lists but the binary did not report: skipped, as CTest says.
    for (const auto* t : tr.frameworkTests) {
      if (!t->disabled || reported.count(t->frameworkName)) continue;
      if (tr.selective && !tr.disabledSelected.count(t->frameworkName)) continue;
      TestResult r;
      r.name = t->frameworkName;
      r.id = tr.target->name + "::" + t->frameworkName;
      r.status = TestStatus::Skipped;
      r.outcome = "disabled";
      r.reason = "DISABLED in CTest";
      if (keep(r)) emit(options, result, std::move(r));
    }
  }

  // Frames for the failures an exception or a crash ended, from the trace the preloaded library
  // wrote (cmake/Trace.h), resolved by addr2line in the sandbox: the user's frames, outermost
  // first, after the check the framework reported, so that the deepest one is where it arose.
  void attachTraces(std::vector<std::pair<TestResult, std::string>>& results, const std::string& traceFile,
                    const TestPlan& plan, const RunOptions& options, const Staging& staging,
                    const cmake::PrivateBuild& build) const {
    std::vector<std::pair<std::size_t, const cmake::TraceEvent*>> wanted;
    bool any = false;
    for (const auto& [r, o] : results) any = any || cmake::wantsTrace(r, o);
    if (!any) return;
    const auto events = cmake::parseTrace(readHost(traceFile));
    for (std::size_t i = 0; i < results.size(); ++i)
      if (cmake::wantsTrace(results[i].first, results[i].second))
        if (const auto* e = cmake::eventFor(results[i].first, results[i].second, events)) wanted.emplace_back(i, e);
    if (wanted.empty() || !cmake::sandboxHasProgram("addr2line")) return;
    std::map<std::string, std::vector<unsigned long>> byObject;
    for (const auto& [i, e] : wanted)
      for (const auto& f : e->frames)
        if (under(f.object, build.buildDir()) || (under(f.object, build.projectBind()) && !under(f.object, build.root())))
          byObject[f.object].push_back(f.offset);
    std::map<std::pair<std::string, unsigned long>, std::vector<Frame>> resolved;
    for (auto& [object, offsets] : byObject) {
      std::sort(offsets.begin(), offsets.end());
      offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
      sandbox::Policy p = basePolicy(plan, options, staging, nullptr);
      // The same binds as the test's (a second bind of a path the plan binds already fails).
      if (!sandbox::bindsReach(p.binds, build.projectBind())) p.binds.push_back({build.projectBind(), "", false});
      p.binds.push_back({build.buildDir(), "", false});
      p.workdir = build.buildDir();
      p.argv = {"addr2line", "-a", "-f", "-C", "-i", "-e", object};
      for (auto off : offsets) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%lx", off);
        p.argv.push_back(hex);
      }
      p.profile = sandbox::Profile::Native;
      p.timeLimitSec = p.cpuLimitSec = 60;
      p.memoryLimitMb = std::max<std::size_t>(p.memoryLimitMb, 1024);
      StepOutput o = executeStep(p, options, nullptr);
      auto frames = cmake::parseAddr2line(o.stdoutText);
      for (std::size_t k = 0; k < offsets.size() && k < frames.size(); ++k) resolved[{object, offsets[k]}] = frames[k];
    }
    for (const auto& [i, e] : wanted) {
      std::vector<Frame> inner;  // innermost first
      for (const auto& f : e->frames) {
        auto it = resolved.find({f.object, f.offset});
        if (it == resolved.end()) continue;
        for (Frame fr : it->second) {
          fr.file = fs::path(fr.file).lexically_normal().string();
          if (under(fr.file, build.projectBind()) && !under(fr.file, build.root()) && !cmake::frameworkHeader(fr.file))
            inner.push_back(std::move(fr));
        }
      }
      if (inner.empty()) continue;
      TestResult& r = results[i].first;
      for (auto it = inner.rbegin(); it != inner.rend(); ++it) {
        bool seen = false;
        for (const auto& f : r.frames) seen = seen || (f.file == it->file && f.line == it->line);
        if (!seen) r.frames.push_back(*it);
      }
    }
  }

  void runPlain(const TestPlan& plan, const RunOptions& options, Staging& staging, const cmake::PrivateBuild& build,
                const std::vector<cmake::OverlayBind>& binds, const TargetRun& tr, const std::string& out, int& serial,
                RunResult& result) const {
    if (tr.plainTests.empty()) return;
    // Where a failure is shown: the program's main(), else the add_test line.
    std::string file;
    int line = 0;
    for (const auto& s : compiledSources(*tr.target)) {
      if (auto text = readSource(s, options.overlay)) {
        if (int l = cmake::mainLine(*text)) {
          file = s;
          line = l;
          break;
        }
      }
    }
    for (const auto* t : tr.plainTests) {
      if (result.cancelled) return;
      const std::string testFile = file.empty() ? t->definedIn : file;
      const int testLine = file.empty() ? t->definedLine : line;
      if (t->disabled) {
        cmake::PlainRun none;
        auto c = cmake::plainResult(tr.target->name, t->name, none, testFile, testLine);
        TestResult r = toTestResult(c);
        r.status = TestStatus::Skipped;
        r.outcome = "disabled";
        r.reason = "DISABLED in CTest";
        emit(options, result, std::move(r));
        continue;
      }
      if (t->command.empty()) continue;
      const std::string traceFile = "trace-" + std::to_string(serial++) + ".txt";
      sandbox::Policy p = testPolicy(plan, options, staging, build, binds, t, *tr.target, out, tr.trace, "/out/" + traceFile);
      p.argv = t->command;
      // One CTest test whose progress is not visible live: what CTest itself allows it (its
      // TIMEOUT property), within the run's limit.
      if (t->timeoutSec > 0 && t->timeoutSec + 2.0 < p.timeLimitSec) p.timeLimitSec = p.cpuLimitSec = t->timeoutSec + 2.0;
      StepOutput ran = executeStep(p, options, nullptr);
      result.verdict = ran.verdict;
      if (ran.verdict.cancelled) {
        result.cancelled = true;
        return;
      }
      const auto& v = ran.verdict;
      cmake::PlainRun pr;
      pr.exitCode = v.exitCode;
      pr.signal = v.status == sandbox::Status::Signaled ? v.signal : 0;
      pr.timedOut = v.status == sandbox::Status::Timeout || v.status == sandbox::Status::CpuLimit;
      pr.skipReturnCode = t->skipReturnCode;
      pr.willFail = t->willFail;
      pr.durationMs = v.wallMs;
      pr.output = ran.stdoutText + (ran.stderrText.empty() ? "" : (ran.stdoutText.empty() ? "" : "\n") + ran.stderrText);
      auto c = cmake::plainResult(tr.target->name, t->name, pr, testFile, testLine);
      TestResult r = toTestResult(c);
      if (v.status != sandbox::Status::Ok && v.status != sandbox::Status::ExitNonzero && v.status != sandbox::Status::Signaled &&
          !pr.timedOut) {
        r.status = TestStatus::Error;
        r.kind = v.status == sandbox::Status::MemoryLimit ? FailureKind::MemoryLimit
                 : v.status == sandbox::Status::SyscallViolation ? FailureKind::SandboxViolation
                                                                 : FailureKind::Exception;
        r.message = v.status == sandbox::Status::SyscallViolation ? "sandbox refused the system call " + v.syscall
                                                                   : std::string(sandbox::statusName(v.status));
      }
      if (r.status == TestStatus::Failed || r.status == TestStatus::Error) {
        r.frames = framesInOutput(pr.output, build.projectBind());
        std::vector<std::pair<TestResult, std::string>> one;
        one.emplace_back(std::move(r), c.outcome);
        attachTraces(one, out + "/" + traceFile, plan, options, staging, build);
        r = std::move(one.front().first);
        if (r.frames.empty() && !testFile.empty()) r.frames.push_back({testFile, testLine, 0, "main"});
      }
      emit(options, result, std::move(r));
    }
  }
};

}  // namespace

const RunnerAdapter& cmakeAdapter() {
  static const CMakeAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
