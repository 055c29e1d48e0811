#include "core/testing/native/Programs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "core/testing/RunnerSteps.h"
#include "core/testing/native/Gcov.h"
#include "support/Log.h"

namespace greenlight::core::testing::native {
namespace fs = std::filesystem;
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

TestResult toTestResult(const cmake::CaseResult& c) {
  TestResult r = c.result;
  r.id = c.id;
  r.parent = c.parent;
  r.outcome = c.outcome;
  r.reason = c.reason;
  if (r.details.empty()) r.details = c.details;
  return r;
}

// The framework's names to ask for, from the declarations selected: a declaration's instances
// (GoogleTest's parameterized and typed tests, Boost.Test's templates and data cases) by pattern.
std::vector<std::string> namesFor(Framework fw, const std::vector<cmake::TestDecl>& decls) {
  std::vector<std::string> out;
  for (const auto& d : decls) {
    switch (fw) {
      case Framework::GoogleTest: out.push_back(d.name + ":*/" + d.name + "/*:" + d.name + "/*:*/" + d.name); break;
      case Framework::BoostTest:
        out.push_back(d.macro.find("TEMPLATE") != std::string::npos || d.macro.find("DATA") != std::string::npos ? d.name + "*" : d.name);
        break;
      default: out.push_back(d.name); break;
    }
  }
  return out;
}

// A relative file name a test binary reports: the program's source it names (by its path's
// tail after any "../" and "./"), else as it was.
std::string resolveSource(const std::string& file, const std::vector<std::string>& sources, const std::string& root) {
  if (file.empty() || file[0] == '/') return file;
  std::string tailPart = file;
  while (tailPart.rfind("../", 0) == 0 || tailPart.rfind("./", 0) == 0) tailPart = tailPart.substr(tailPart[0] == '.' && tailPart[1] == '/' ? 2 : 3);
  for (const auto& s : sources)
    if (s.size() > tailPart.size() && s.compare(s.size() - tailPart.size(), tailPart.size(), tailPart) == 0 &&
        s[s.size() - tailPart.size() - 1] == '/')
      return s;
  // A header: under the project (Meson's paths climb from its build directory to "/").
  std::error_code ec;
  if (fs::is_regular_file(root + "/" + tailPart, ec)) return root + "/" + tailPart;
  if (fs::is_regular_file("/" + tailPart, ec) && under("/" + tailPart, root)) return "/" + tailPart;
  return file;
}

}  // namespace

std::string followLinks(const std::vector<PathLink>& links, const std::string& path) {
  // Again from the target: the workspace's bazel-<name> leads into the execroot, whose src/
  // leads back. A few rounds: links may form a loop.
  std::string out = path;
  for (int round = 0; round < 4; ++round) {
    const auto l = std::find_if(links.begin(), links.end(), [&](const PathLink& k) { return out == k.from || under(out, k.from); });
    if (l == links.end()) break;
    out = l->to + out.substr(l->from.size());
  }
  return out;
}

Framework frameworkOfSources(const std::vector<std::string>& sources) {
  for (const auto& s : sources) {
    auto text = readFile(s);
    if (!text) continue;
    auto decls = cmake::scanTestDeclarations(*text);
    if (!decls.empty()) return decls.front().framework;
    // A main-only source: the framework by its #include (BOOST_TEST_MODULE, CATCH_CONFIG_MAIN...).
    if (text->find("boost/test/") != std::string::npos) return Framework::BoostTest;
    if (text->find("gtest/gtest.h") != std::string::npos) return Framework::GoogleTest;
    if (text->find("doctest") != std::string::npos) return Framework::Doctest;
  }
  return Framework::Plain;
}

std::vector<std::string> headersOf(const Program& program, const cmake::DepsIndex& deps, const std::string& root,
                                   const std::string& buildRoot) {
  std::set<std::string> out;
  const auto keep = [&](const std::string& named) {
    const std::string f = followLinks(program.links, named);
    if (under(f, root) && !under(f, buildRoot)) out.insert(f);
  };
  bool known = false;
  for (const auto& [object, inputs] : deps.objects) {
    if (inputs.empty() || std::find(program.sources.begin(), program.sources.end(), inputs.front()) == program.sources.end()) continue;
    known = true;
    for (const auto& f : inputs) keep(f);
  }
  if (!known)
    for (const auto& s : program.sources)
      for (const auto& f : cmake::scanIncludes(s, program.includeDirs, 400)) keep(f);
  return {out.begin(), out.end()};
}

cmake::PrivateBuild::BuildResult ninjaBuild(cmake::PrivateBuild& build, const std::vector<std::string>& targets,
                                            const std::vector<cmake::OverlayBind>& binds, const RunOptions& options,
                                            double seconds) {
  cmake::PrivateBuild::BuildResult r;
  sandbox::Policy p = build.stepPolicy(options, seconds, binds);
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  p.argv = {"ninja", "-C", build.buildDir(), "-j", std::to_string(jobs)};
  p.argv.insert(p.argv.end(), targets.begin(), targets.end());
  const auto start = std::chrono::steady_clock::now();
  StepOutput out = executeStep(p, options, nullptr);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.verdict = out.verdict;
  r.output = out.stdoutText + (out.stderrText.empty() ? "" : "\n" + out.stderrText);
  GL_LOG(Debug, "ninja build in " << build.buildDir() << " (" << r.seconds << " s): " << capText(r.output, 2000));
  return r;
}

RunResult buildFailed(const TestPlan& plan, const RunOptions& options, const cmake::PrivateBuild::BuildResult& built,
                      RunResult result, const std::vector<PathLink>& links) {
  result.verdict = built.verdict;
  result.stderrText = capText(built.output, 16384);
  for (auto m : parseCompilerOutput(built.output)) {
    m.file = followLinks(links, m.file);
    result.compilerMessages.push_back(std::move(m));
  }
  TestResult t;
  t.name = "build";
  t.file = plan.sourceIsTestFile || plan.testFiles.empty() ? plan.sourceFile : plan.testFiles.front();
  t.line = 1;
  t.output = capText(built.output, 8192);
  t.status = built.verdict.status == sandbox::Status::Timeout ? TestStatus::Timeout : TestStatus::Error;
  t.kind = built.verdict.status == sandbox::Status::ExitNonzero ? FailureKind::Compile
           : built.verdict.status == sandbox::Status::Timeout   ? FailureKind::Timeout
                                                                : FailureKind::Exception;
  if (!built.networkNote.empty()) {
    // A download the offline build could not make (the sandbox refused its socket, or it found
    // no network): the sentence, not the build tool's last words.
    t.message = built.networkNote;
    if (options.onTestResult) options.onTestResult(t);
    result.tests.push_back(std::move(t));
    return result;
  }
  if (built.verdict.status != sandbox::Status::ExitNonzero) {
    t.message = "the build stopped: " + std::string(sandbox::statusName(built.verdict.status)) +
                (built.verdict.setupError.empty() ? "" : " (" + built.verdict.setupError + ")") +
                (built.verdict.syscall.empty() ? "" : " (system call " + built.verdict.syscall + ")");
    if (options.onTestResult) options.onTestResult(t);
    result.tests.push_back(std::move(t));
    return result;
  }
  t.message = "the build failed";
  for (const auto& m : result.compilerMessages) {
    if (m.severity == "error" || m.severity == "fatal error") {
      t.message = m.message;
      t.file = m.file;
      t.line = m.line;
      t.frames.push_back({m.file, m.line, m.column, ""});
      break;
    }
  }
  if (t.frames.empty()) {
    // Not a compiler error (CMake re-running, the linker): its last words.
    std::istringstream in(built.output);
    std::string lastError;
    for (std::string l; std::getline(in, l);)
      if (l.find("rror") != std::string::npos || l.rfind("FAILED", 0) == 0) lastError = l;
    if (!lastError.empty()) t.message = "the build failed: " + lastError;
  }
  if (options.onTestResult) options.onTestResult(t);
  result.tests.push_back(std::move(t));
  return result;
}

void runPrograms(const TestPlan& plan, const RunOptions& options, Staging& staging, const cmake::PrivateBuild& build,
                 const std::vector<cmake::OverlayBind>& binds, const std::vector<const Program*>& programs,
                 RunResult& result) {
  const std::string out = staging.outDir();
  // The declarations of the plan's files: a test file runs its own (or the one at its line); a
  // header or source with a function selected, the test cases that name or call it.
  std::vector<cmake::TestDecl> own, chosen;
  std::vector<std::string> scanned = plan.testFiles;
  scanned.push_back(plan.sourceFile);
  for (const auto& f : scanned) {
    auto text = readSource(f, options.overlay);
    if (!text) continue;
    for (auto& d : cmake::scanTestDeclarations(*text)) {
      d.file = f;
      const bool isSelected = std::find(plan.selected.begin(), plan.selected.end(), d.name) != plan.selected.end();
      if (f == plan.sourceFile) own.push_back(d);
      if (isSelected && (!plan.sourceIsTestFile || f == plan.sourceFile)) chosen.push_back(d);
    }
  }
  if (plan.sourceIsTestFile && plan.selected.empty()) chosen = own;
  const bool selective = !chosen.empty();
  int serial = 0;
  for (const Program* prog : programs) {
    if (result.cancelled) return;
    sandbox::Policy p = basePolicy(plan, options, staging, nullptr);
    bool covered = false;
    for (const auto& b : p.binds) covered = covered || b.hostPath == build.projectBind() || under(build.projectBind(), b.hostPath);
    if (!covered) p.binds.push_back({build.projectBind(), "", false});
    p.binds.push_back({build.buildDir(), "", true});
    for (const auto& d : build.readOnlyDirs()) p.binds.push_back({d, "", false});
    for (const auto& b : binds) p.binds.push_back({b.copy, b.path, false});
    p.binds.push_back({out, "/out", true});
    p.workdir = prog->workdir.empty() ? build.buildDir() : prog->workdir;
    p.profile = sandbox::Profile::Native;
    for (const auto& e : prog->env) p.env.push_back(e);
    // Its coverage counts under this run's fresh /out (native/Gcov.h): the run's alone.
    if (!prog->gcov.empty())
      for (auto& e : gcovEnvironment(std::string("/out/") + kGcovDir)) p.env.push_back(std::move(e));
    p.argv = {prog->binary};
    p.argv.insert(p.argv.end(), prog->args.begin(), prog->args.end());
    if (prog->framework == Framework::Plain) {
      // A plain test program: with a selection of framework cases it has none of them.
      if (selective && !plan.sourceIsTestFile) continue;
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
      pr.skipReturnCode = 77;  // `meson test`'s skip
      pr.willFail = prog->shouldFail;
      pr.durationMs = v.wallMs;
      pr.output = ran.stdoutText + (ran.stderrText.empty() ? "" : "\n" + ran.stderrText);
      TestResult r = toTestResult(cmake::plainResult(prog->target, prog->testName, pr, prog->file, prog->line));
      if (options.onTestResult) options.onTestResult(r);
      result.tests.push_back(std::move(r));
      continue;
    }
    // The declarations this program holds, by the files it compiles.
    std::vector<cmake::TestDecl> mine;
    for (const auto& d : chosen)
      if (std::find(prog->sources.begin(), prog->sources.end(), d.file) != prog->sources.end()) mine.push_back(d);
    if (selective && mine.empty()) continue;
    // Boost.Test enables a disabled test that --run_test names: a whole test file runs the
    // default set, its results kept by file below.
    const bool wholeFile = prog->framework == Framework::BoostTest && plan.sourceIsTestFile && plan.selected.empty();
    const std::vector<std::string> ask = wholeFile ? std::vector<std::string>{} : namesFor(prog->framework, mine);
    const std::string report = "report-" + std::to_string(serial++) + ".json";
    for (auto& a : cmake::reportArguments(prog->framework, "/out/" + report)) p.argv.push_back(std::move(a));
    for (auto& a : cmake::selectArguments(prog->framework, ask)) p.argv.push_back(std::move(a));
    StepOutput ran = executeStep(p, options, nullptr);
    result.verdict = ran.verdict;
    if (ran.verdict.cancelled) {
      result.cancelled = true;
      return;
    }
    const auto& v = ran.verdict;
    const std::string crash = v.status == sandbox::Status::Signaled ? "killed by signal " + std::to_string(v.signal)
                                                                     : "the test binary died (" + std::string(sandbox::statusName(v.status)) + ")";
    std::vector<cmake::CaseResult> cases;
    switch (prog->framework) {
      case Framework::GoogleTest: cases = cmake::gtestResults(readHost(out + "/" + report), ran.stdoutText, prog->target, crash); break;
      case Framework::Catch2: cases = cmake::parseCatch2Xml(ran.stdoutText, prog->target); break;
      case Framework::Doctest: cases = cmake::parseDoctestXml(ran.stdoutText, prog->target); break;
      case Framework::BoostTest: cases = cmake::parseBoostTestXml(ran.stdoutText, prog->target); break;
      case Framework::Plain: break;
    }
    bool any = false;
    for (auto& c : cases) {
      // A file name as the compiler saw it (relative to its directory: "../tests/x.cpp"): the source.
      c.result.file = followLinks(prog->links, resolveSource(c.result.file, prog->sources, plan.rootDir));
      for (auto& f : c.result.frames) f.file = followLinks(prog->links, resolveSource(f.file, prog->sources, plan.rootDir));
      // doctest and Boost.Test list what a filter left out as skipped.
      if ((prog->framework == Framework::Doctest || prog->framework == Framework::BoostTest) && !ask.empty() &&
          c.outcome == "skipped") {
        bool asked = false;
        for (const auto& d : mine) asked = asked || cmake::declares(d, c.result.name);
        if (!asked) continue;
      }
      // A test file's run keeps the cases declared in it (the program may hold other files').
      if (plan.sourceIsTestFile && !c.result.file.empty() && c.result.file != plan.sourceFile) continue;
      if (plan.sourceIsTestFile && c.result.file.empty()) {  // a skipped case names no file: by its declaration
        bool declared = false;
        for (const auto& d : own) declared = declared || cmake::declares(d, c.result.name);
        if (!declared) continue;
      }
      // A header's run in a program greenlight linked from every test file: the cases of the
      // test files that include it (plan.testFiles).
      if (prog->perFile && !plan.sourceIsTestFile && !c.result.file.empty() && c.result.file != plan.sourceFile &&
          std::find(plan.testFiles.begin(), plan.testFiles.end(), c.result.file) == plan.testFiles.end())
        continue;
      if (selective) {
        bool declared = false;
        for (const auto& d : mine) declared = declared || cmake::declares(d, c.result.name);
        if (!declared) continue;
      }
      any = true;
      TestResult r = toTestResult(c);
      if (options.onTestResult) options.onTestResult(r);
      result.tests.push_back(std::move(r));
    }
    const bool clean = v.status == sandbox::Status::Ok || v.status == sandbox::Status::ExitNonzero;
    if (!clean && !any) {
      TestResult r;
      r.name = prog->target;
      r.id = prog->target;
      r.file = prog->file.empty() && !prog->sources.empty() ? prog->sources.front() : prog->file;
      r.line = prog->line;
      r.status = TestStatus::Error;
      r.kind = v.status == sandbox::Status::SyscallViolation ? FailureKind::SandboxViolation : FailureKind::Exception;
      r.message = v.status == sandbox::Status::SyscallViolation ? "sandbox refused the system call " + v.syscall : crash;
      r.output = capText(ran.stdoutText + ran.stderrText, 8192);
      if (options.onTestResult) options.onTestResult(r);
      result.tests.push_back(std::move(r));
    }
  }
  // The file under test's lines the programs ran (every TU that compiled or included it).
  std::string gcov;
  for (const Program* prog : programs)
    if (gcov.empty()) gcov = prog->gcov;
  if (!gcov.empty() && !out.empty() && !result.cancelled) {
    GcovRun g;
    g.gcov = gcov;
    g.dataDir = out + "/" + kGcovDir;
    g.sandboxDataDir = std::string("/out/") + kGcovDir;
    g.files = {plan.sourceFile};
    // gcov names a header by the path the compiler read it through (Bazel's execroot): the
    // project's path is the one the user asked about. A run's programs come from one database.
    if (const auto& links = programs.front()->links; !links.empty())
      g.toHost = [links](const std::string& f) { return followLinks(links, f); };
    g.policy = basePolicy(plan, options, staging, nullptr);
    g.policy.binds.push_back({out, "/out", false});
    result.coverage = collectGcov(g, options);
  }
  // Frames in project files the run did not stage: their texts, for the diagnostics.
  std::set<std::string> have;
  for (const auto& [f, t] : staging.stagedTexts()) have.insert(f);
  for (const auto& t : result.tests)
    for (const auto& fr : t.frames)
      if (under(fr.file, build.projectBind()) && have.insert(fr.file).second)
        if (auto text = readSource(fr.file, options.overlay)) staging.addText(fr.file, *text);
}

}  // namespace greenlight::core::testing::native
