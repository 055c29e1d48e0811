// C++: compile the tests in the sandbox (compiler profile, binary to a private /out), run the
// binary (native profile), and, when it crashed, threw or hung, map the backtrace the support
// unit printed to file:line with addr2line (also in the sandbox).
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "core/testing/AssertMessages.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/harness/Harnesses.h"
#include "core/testing/native/Gcov.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

constexpr char kBinary[] = "/out/test";

// How long a file's compile and its test binary took last time, for their bounds: the compile
// gets max(60 s, 3 × the last compile); the binary, whose tests are not visible live, is one
// test of the run (programTimeLimit). Process-wide; keyed by source file and compiler.
class CxxHistory {
 public:
  static CxxHistory& get() {
    static CxxHistory history;
    return history;
  }
  double compileSeconds(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = compile_.find(key);
    return it == compile_.end() ? 0 : it->second;
  }
  double runSeconds(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = run_.find(key);
    return it == run_.end() ? 0 : it->second;
  }
  void recordCompile(const std::string& key, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    compile_[key] = seconds;
  }
  void recordRun(const std::string& key, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    run_[key] = seconds;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, double> compile_, run_;
};

std::string historyKey(const TestPlan& plan, const RunOptions& options) {
  return plan.sourceFile + "\n" + options.config.cxxCompiler;
}

bool isTranslationUnit(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx";
}

std::string readHost(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int mainLine(const std::string& text) {
  static const std::regex r = support::regex(R"(\bint\s+main\s*\()");
  std::istringstream in(text);
  std::string l;
  for (int i = 1; std::getline(in, l); ++i) {
    if (std::regex_search(l, r)) return i;
  }
  return 1;
}

std::string attr(const std::string& tag, const std::string& name) {
  std::regex r = support::regex(name + "=\"([^\"]*)\"");
  std::smatch m;
  return std::regex_search(tag, m, r) ? m[1].str() : "";
}

std::string unescapeXml(std::string s) {
  const std::pair<const char*, const char*> k[] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  for (auto [from, to] : k) {
    for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += std::strlen(to)) s.replace(p, std::strlen(from), to);
  }
  return s;
}

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::string between(const std::string& s, const std::string& open, const std::string& close) {
  auto a = s.find(open);
  if (a == std::string::npos) return "";
  auto b = s.find(close, a + open.size());
  if (b == std::string::npos) return "";
  return s.substr(a + open.size(), b - a - open.size());
}

// Catch2 v2 XML reporter -> results.
std::vector<TestResult> parseCatchXml(const std::string& xml) {
  std::vector<TestResult> out;
  std::size_t pos = 0;
  while ((pos = xml.find("<TestCase ", pos)) != std::string::npos) {
    std::size_t end = xml.find("</TestCase>", pos);
    if (end == std::string::npos) end = xml.size();
    std::string block = xml.substr(pos, end - pos);
    std::string tag = block.substr(0, block.find('>'));
    TestResult r;
    r.name = unescapeXml(attr(tag, "name"));
    r.file = attr(tag, "filename");
    r.line = std::atoi(attr(tag, "line").c_str());
    std::string overall = between(block, "<OverallResult ", ">");
    bool ok = attr(overall, "success") == "true";
    r.status = ok ? TestStatus::Passed : TestStatus::Failed;
    if (!attr(overall, "durationInSeconds").empty()) r.durationMs = std::atof(attr(overall, "durationInSeconds").c_str()) * 1000;
    if (!ok) {
      std::size_t e = 0;
      bool found = false;
      while ((e = block.find("<Expression ", e)) != std::string::npos) {
        std::string etag = block.substr(e, block.find('>', e) - e);
        std::size_t eend = block.find("</Expression>", e);
        if (attr(etag, "success") == "false") {
          std::string body = block.substr(e, eend - e);
          std::string original = trimmed(unescapeXml(between(body, "<Original>", "</Original>")));
          std::string expanded = trimmed(unescapeXml(between(body, "<Expanded>", "</Expanded>")));
          std::string exception = trimmed(unescapeXml(between(body, "<Exception ", "</Exception>")));
          r.frames.push_back({attr(etag, "filename"), std::atoi(attr(etag, "line").c_str()), 0, r.name});
          if (!exception.empty()) {
            r.status = TestStatus::Error;
            r.kind = FailureKind::Exception;
            r.message = attr(etag, "type") + "(" + original + ") threw: " + exception.substr(exception.find('>') + 1);
          } else {
            r.kind = FailureKind::Assertion;
            r.message = attr(etag, "type") + "(" + original + ") failed: " + expanded;
            if (auto d = describeCatchExpansion(original, expanded)) {
              r.message = attr(etag, "type") + ": " + d->message;
              r.actual = d->actual;
              r.expected = d->expected;
            }
          }
          found = true;
          break;
        }
        e = eend == std::string::npos ? block.size() : eend;
      }
      if (!found) {
        std::size_t x = block.find("<Exception ");
        if (x != std::string::npos) {
          std::string xtag = block.substr(x, block.find('>', x) - x);
          r.status = TestStatus::Error;
          r.kind = FailureKind::Exception;
          r.message = "unexpected exception: " + trimmed(unescapeXml(between(block.substr(x), ">", "</Exception>")));
          r.frames.push_back({attr(xtag, "filename"), std::atoi(attr(xtag, "line").c_str()), 0, r.name});
        } else if (block.find("<FatalErrorCondition") != std::string::npos) {
          std::string ftag = block.substr(block.find("<FatalErrorCondition"));
          r.status = TestStatus::Error;
          r.kind = FailureKind::Exception;
          r.message = "fatal error: " + trimmed(unescapeXml(between(ftag, ">", "</FatalErrorCondition>")));
          r.frames.push_back({attr(ftag.substr(0, ftag.find('>')), "filename"), std::atoi(attr(ftag.substr(0, ftag.find('>')), "line").c_str()), 0, r.name});
        } else {
          r.kind = FailureKind::Assertion;
          r.message = "test case failed";
        }
      }
    }
    out.push_back(std::move(r));
    pos = end;
  }
  return out;
}

// GoogleTest's --gtest_output=json -> results.
std::vector<TestResult> parseGtestJson(const std::string& text) {
  std::vector<TestResult> out;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return out;
  for (const auto& suite : j.value("testsuites", nlohmann::json::array())) {
    for (const auto& t : suite.value("testsuite", nlohmann::json::array())) {
      TestResult r;
      r.name = suite.value("name", "") + "." + t.value("name", "");
      r.file = t.value("file", "");
      r.line = t.value("line", 0);
      std::string result = t.value("result", "COMPLETED");
      std::string status = t.value("status", "RUN");
      if (status == "NOTRUN" || result == "SKIPPED" || result == "SUPPRESSED") r.status = TestStatus::Skipped;
      auto failures = t.value("failures", nlohmann::json::array());
      if (!failures.empty()) {
        r.status = TestStatus::Failed;
        r.kind = FailureKind::Assertion;
        std::string f = failures[0].value("failure", "");
        auto nl = f.find('\n');
        std::string where = f.substr(0, nl);
        std::string what = nl == std::string::npos ? "" : f.substr(nl + 1);
        auto colon = where.rfind(':');
        if (colon != std::string::npos) r.frames.push_back({where.substr(0, colon), std::atoi(where.c_str() + colon + 1), 0, r.name});
        if (auto d = describeGtestFailure(what)) {
          r.message = d->message;
          r.actual = d->actual;
          r.expected = d->expected;
        } else {
          std::string one = what;
          std::replace(one.begin(), one.end(), '\n', ' ');
          r.message = trimmed(one);
        }
      }
      std::string time = t.value("time", "0s");
      r.durationMs = std::atof(time.c_str()) * 1000;
      out.push_back(std::move(r));
    }
  }
  return out;
}

// ---- the steps of runCxx, in order ----

// What gets compiled: the test files (the source first when it is a test itself), the source
// when it is a translation unit no test #includes, greenlight's support unit, Catch2's main when
// no file defines it; every staged text joined (what the link checks read).
struct CxxSources {
  std::vector<std::string> testFiles;
  std::vector<std::string> units;  // sandbox paths
  std::string allText;
  std::string firstTest;
};

CxxSources gatherSources(const TestPlan& plan, Staging& staging) {
  CxxSources s;
  s.testFiles = plan.testFiles;
  if (plan.sourceIsTestFile) s.testFiles.insert(s.testFiles.begin(), plan.sourceFile);
  bool includesSource = false;
  const std::string sourceName = fs::path(plan.sourceFile).filename().string();
  static const std::regex inc = support::regex(R"(#\s*include\s*"([^"]+)\")");
  for (const auto& [f, t] : staging.stagedTexts()) s.allText += t + "\n";
  for (const auto& f : s.testFiles) {
    s.units.push_back(staging.toSandbox(f));
    std::string t;
    for (const auto& [file, text] : staging.stagedTexts())
      if (file == f) t = text;
    for (std::sregex_iterator it(t.begin(), t.end(), inc), end; it != end; ++it) {
      std::string name = (*it)[1].str();
      if (name == sourceName || (name.size() > sourceName.size() && name.compare(name.size() - sourceName.size() - 1, std::string::npos, "/" + sourceName) == 0))
        includesSource = true;
    }
  }
  if (!plan.sourceIsTestFile && isTranslationUnit(plan.sourceFile) && !includesSource)
    s.units.push_back(staging.toSandbox(plan.sourceFile));
  s.units.push_back(staging.addHarnessFile("gl_support.cpp", harness::cxxSupport()));
  if (plan.framework == "catch2" && s.allText.find("CATCH_CONFIG_MAIN") == std::string::npos &&
      s.allText.find("CATCH_CONFIG_RUNNER") == std::string::npos)
    s.units.push_back(staging.addHarnessFile("gl_catch_main.cpp", "#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n"));
  s.firstTest = s.testFiles.empty() ? plan.sourceFile : s.testFiles.front();
  return s;
}

// The compiler's command: the configured flags, greenlight's assert.h (last of the -I, so a
// workspace's own still wins), the framework's libraries, the binary to /out.
sandbox::Policy compilePolicy(const TestPlan& plan, const RunOptions& options, Staging& staging, const Tool& tool,
                              const CxxSources& sources, const std::string& out, bool coverage) {
  const std::string includeDir = fs::path(staging.addHarnessFile("include/assert.h", harness::cxxAssertHeader())).parent_path().string();
  std::vector<std::string> libs;
  const std::string& allText = sources.allText;
  static const std::regex mainDefinition = support::regex(R"(\bint\s+main\s*\()");
  if (plan.framework == "gtest") {
    if (!std::regex_search(allText, mainDefinition)) libs.push_back("-lgtest_main");
    libs.push_back("-lgtest");
  }
  if (allText.find("<openssl/") != std::string::npos) libs.push_back("-lcrypto");
  libs.push_back("-pthread");

  sandbox::Policy compile = basePolicy(plan, options, staging, &tool);
  compile.argv = {tool.invokedAs.empty() ? tool.path : tool.invokedAs};
  for (const auto& f : options.config.cxxFlags) compile.argv.push_back(f);
  // -gdwarf-4: binutils 2.40's addr2line misreads GCC 12's DWARF 5 line table for a .cpp that
  // the test #includes and names the includer (prob_test.cpp:5 for prob.cpp:5; gdb reads the
  // same table right). The backtrace of a crash or throw is resolved with addr2line.
  compile.argv.insert(compile.argv.end(), {"-gdwarf-4", "-no-pie", "-fdiagnostics-color=never", "-fno-diagnostics-show-caret",
                                           "-I" + fs::path(staging.toSandbox(plan.sourceFile)).parent_path().string(),
                                           "-I" + std::string(kSandboxSrc), "-I" + includeDir});
  // Coverage (issue 35): the notes land beside the binary in /out (test-<unit>.gcno), the
  // counts next to them when it runs; /out is fresh for every run.
  if (coverage) compile.argv.insert(compile.argv.end(), {"--coverage", native::kCoverageExclude});
  compile.argv.insert(compile.argv.end(), sources.units.begin(), sources.units.end());
  compile.argv.insert(compile.argv.end(), {"-o", kBinary});
  compile.argv.insert(compile.argv.end(), libs.begin(), libs.end());
  compile.binds.push_back({out, "/out", true});
  compile.profile = sandbox::Profile::Compiler;
  // Compiling is not the test's time: it has its own bound, with room (Catch2's main alone
  // takes seconds, more on a busy machine).
  compile.timeLimitSec = std::max(kCompileSeconds, 3 * CxxHistory::get().compileSeconds(historyKey(plan, options)));
  compile.cpuLimitSec = compile.timeLimitSec;
  compile.memoryLimitMb = std::max<std::size_t>(compile.memoryLimitMb, 1024);
  compile.processes = std::max(compile.processes, 16);
  return compile;
}

// A compile that did not succeed: the compiler's messages, and one "compile" result at the
// first error (or, killed by a limit, what the verdict says).
void reportCompileFailure(const StepOutput& built, const std::string& firstTest, const RunOptions& options,
                          const PathMap& map, RunResult& result) {
  result.verdict = built.verdict;
  result.stderrText = capText(built.stderrText, 16384);
  for (auto m : parseCompilerOutput(built.stdoutText + "\n" + built.stderrText)) {
    m.file = map.toHost(m.file);
    result.compilerMessages.push_back(std::move(m));
  }
  TestResult t;
  t.name = "compile";
  t.file = firstTest;
  t.line = 1;
  if (built.verdict.status != sandbox::Status::ExitNonzero) {
    HarnessOutcome o;
    o.running = t;
    finishResult(result, o, built, map);
    return;
  }
  t.status = TestStatus::Error;
  t.kind = FailureKind::Compile;
  t.message = "compilation failed";
  std::istringstream lines(built.stderrText);
  for (std::string l; std::getline(lines, l);) {
    if (l.find("error") != std::string::npos) {
      t.message = "compilation failed: " + l;
      break;
    }
  }
  for (const auto& m : result.compilerMessages) {
    if (m.severity == "error" || m.severity == "fatal error") {
      t.message = m.message;
      t.frames.push_back({m.file, m.line, m.column, ""});
      break;
    }
  }
  t.output = capText(built.stderrText, 8192);
  if (options.onTestResult) options.onTestResult(t);
  result.tests.push_back(std::move(t));
}

// The binary's command: the framework's report (Catch2 XML on stdout, GoogleTest JSON to /out)
// and the selected tests, escaped as the framework parses them.
sandbox::Policy runPolicy(const TestPlan& plan, const RunOptions& options, Staging& staging, const std::string& out) {
  sandbox::Policy run = basePolicy(plan, options, staging, nullptr);
  run.argv = {kBinary};
  if (plan.framework == "catch2") {
    run.argv.insert(run.argv.end(), {"-r", "xml", "-d", "yes"});
    for (const auto& s : plan.selected) {
      std::string e;
      for (char c : s) {
        if (c == ',' || c == '[' || c == ']' || c == '\\' || c == '*') e += '\\';
        e += c;
      }
      run.argv.push_back(e);
    }
  }
  if (plan.framework == "gtest") {
    run.argv.push_back("--gtest_output=json:/out/gtest.json");
    if (!plan.selected.empty()) {
      std::string filter = "--gtest_filter=";
      for (std::size_t i = 0; i < plan.selected.size(); ++i) filter += (i ? ":" : "") + plan.selected[i];
      run.argv.push_back(filter);
    }
  }
  run.binds.push_back({out, "/out", true});
  run.profile = sandbox::Profile::Native;
  const double limit = programTimeLimit(options, CxxHistory::get().runSeconds(historyKey(plan, options)));
  run.timeLimitSec = run.cpuLimitSec = limit + 2.0;  // the support unit's alarm ends it first
  run.env.push_back("GREENLIGHT_TEST_BUDGET_MS=" + std::to_string(static_cast<long>(limit * 1000)));
  return run;
}

// What the support unit printed on stderr: a crash, throw or timeout with its backtrace
// (resolved to file:line by addr2line, in the sandbox), and a failed assert's operands.
struct SupportEvents {
  std::string event, what;            // "crash" | "exception" | "timeout", and its message
  std::vector<Frame> trace;           // outermost first
  std::optional<nlohmann::json> assertion;  // include/assert.h's operands
};

SupportEvents readSupportEvents(const std::vector<nlohmann::json>& events, const TestPlan& plan, const RunOptions& options,
                                Staging& staging, const std::string& out, const PathMap& map) {
  SupportEvents s;
  for (const auto& e : events) {
    if (e.value("ev", "") == "assert") {
      s.assertion = e;
      continue;
    }
    s.event = e.value("ev", "");
    s.what = e.value("what", "");
    std::vector<std::string> addrs;
    for (const auto& a : e.value("addrs", nlohmann::json::array())) {
      if (!a.is_string()) continue;
      unsigned long long v = std::strtoull(a.get<std::string>().c_str(), nullptr, 16);
      if (v > 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%llx", v - 1);
        addrs.emplace_back(buf);
      }
    }
    if (addrs.empty()) continue;
    std::string err;
    ToolRequest a2l;
    a2l.name = "addr2line";
    a2l.environment = options.toolEnvironment;
    a2l.queryVersion = false;
    auto addr2line = resolveTool(a2l, &err);
    if (!addr2line) break;
    sandbox::Policy sym = basePolicy(plan, options, staging, nullptr);
    sym.argv = {addr2line->path, "-f", "-C", "-e", kBinary};
    sym.argv.insert(sym.argv.end(), addrs.begin(), addrs.end());
    sym.binds.push_back({out, "/out", false});
    sym.profile = sandbox::Profile::Native;
    sym.timeLimitSec = 10;
    StepOutput symbols = executeStep(sym, options, nullptr);
    std::istringstream in(symbols.stdoutText);
    std::string fn, loc;
    std::vector<Frame> inner;
    while (std::getline(in, fn) && std::getline(in, loc)) {
      auto paren = loc.find(" (discriminator");
      if (paren != std::string::npos) loc = loc.substr(0, paren);
      auto colon = loc.rfind(':');
      if (colon == std::string::npos || loc.compare(0, 2, "??") == 0) continue;
      std::string file = loc.substr(0, colon);
      int line = std::atoi(loc.c_str() + colon + 1);
      if (line <= 0 || file.rfind(kSandboxGl, 0) == 0) continue;
      inner.push_back({map.toHost(file), line, 0, fn});
    }
    s.trace.assign(inner.rbegin(), inner.rend());
    break;
  }
  return s;
}

// A run that ended other than by the framework's report: a failed assert (with its operands),
// a timeout, a throw, a crash, main's exit code or a signal, as one result on main (or
// "(crash)" after the tests that did report). Verdicts the sandbox decided (memory, refusal)
// are left as the running test for finishResult.
void classifyBinaryEnd(const StepOutput& ran, const SupportEvents& support, TestResult t, HarnessOutcome& outcome,
                       const PathMap& map) {
  const auto& v = ran.verdict;
  auto assertFailure = parseAssertFailure(ran.stderrText);
  if (!support.event.empty() || assertFailure || (v.status == sandbox::Status::ExitNonzero && outcome.results.empty()) ||
      v.status == sandbox::Status::Signaled) {
    if (!outcome.results.empty()) {
      // A framework run that died mid-way: blame the test that did not report (the last one).
      t.name = "(crash)";
    }
    if (assertFailure) {
      t.status = TestStatus::Failed;
      t.kind = FailureKind::Assertion;
      t.message = "assertion failed: " + assertFailure->expression;
      const auto& a = support.assertion;
      if (a && a->value("expr", "") == assertFailure->expression && a->value("line", 0) == assertFailure->line) {
        const std::string op = a->value("op", "");
        const std::string actual = a->value("actual", "");
        auto d = op.empty() ? describeValue(assertFailure->expression, actual)
                            : describeComparison(assertFailure->expression, op, actual, a->value("expected", ""));
        t.message = "assertion failed: " + d.message;
        t.actual = d.actual;
        t.expected = d.expected;
      }
      t.frames = support.trace;
      t.frames.push_back({map.toHost(assertFailure->file), assertFailure->line, 0, assertFailure->function});
    } else if (support.event == "timeout") {
      t.status = TestStatus::Timeout;
      t.kind = FailureKind::Timeout;
      t.message = "timed out (time limit reached)";
      t.frames = support.trace;
    } else if (support.event == "exception") {
      t.status = TestStatus::Error;
      t.kind = FailureKind::Exception;
      t.message = support.what;
      t.frames = support.trace;
    } else if (support.event == "crash") {
      t.status = TestStatus::Error;
      t.kind = FailureKind::Exception;
      t.message = "crashed: " + support.what;
      t.frames = support.trace;
    } else if (v.status == sandbox::Status::ExitNonzero) {
      t.status = TestStatus::Failed;
      t.kind = FailureKind::Assertion;
      t.message = "main returned " + std::to_string(v.exitCode);
    } else {
      t.status = TestStatus::Error;
      t.kind = FailureKind::Exception;
      t.message = "killed by signal " + std::to_string(v.signal);
    }
    t.output = capText(ran.stdoutText + ran.stderrRest, 8192);
    if (!(v.status == sandbox::Status::Ok || v.status == sandbox::Status::ExitNonzero ||
          v.status == sandbox::Status::Signaled) && support.event != "timeout") {
      outcome.running = t;  // verdict-level failure (memory, refusal...) decides the kind
    } else {
      outcome.results.push_back(t);
    }
  } else if (v.status == sandbox::Status::Ok && outcome.results.empty()) {
    t.status = TestStatus::Passed;
    t.durationMs = v.wallMs;
    outcome.results.push_back(t);
  } else if (v.status != sandbox::Status::Ok && v.status != sandbox::Status::ExitNonzero) {
    outcome.running = t;
  }
}

}  // namespace

// 1. resolve the compiler; 2. gather the translation units; 3. compile in the sandbox (a
// failure is the result); 4. run the binary; 5. resolve the support unit's backtrace; 6. read
// the framework's report; 7. classify how the binary ended; 8. finish the result.
RunResult runCxx(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) {
  std::string err;
  ToolRequest req;
  req.name = options.config.cxxCompiler;
  req.workspaceRoot = plan.workspaceRoot;
  req.environment = options.toolEnvironment;
  auto tool = resolveTool(req, &err);
  if (!tool) {
    result.error = "C++ compiler: " + err;
    return result;
  }
  const std::string out = staging.outDir();
  if (out.empty()) {
    result.error = "mkdtemp /tmp/greenlight-out-XXXXXX failed";
    return result;
  }
  const CxxSources sources = gatherSources(plan, staging);
  const PathMap& map = staging.pathMap();

  // GCC's coverage of the file under test, when it is a unit of its own or #included (a test
  // file's own lines are not the target); "" : not measured.
  const std::string gcov = native::coverageEnabled() ? native::gcovForCommand(tool->path) : "";
  StepOutput built = executeStep(compilePolicy(plan, options, staging, *tool, sources, out, !gcov.empty()), options, nullptr);
  built.stdoutRest = built.stdoutText;
  built.stderrRest = built.stderrText;
  if (built.verdict.cancelled) {
    result.cancelled = true;
    result.verdict = built.verdict;
    return result;
  }
  if (built.verdict.status == sandbox::Status::Ok) CxxHistory::get().recordCompile(historyKey(plan, options), built.verdict.wallMs / 1000);
  if (built.verdict.status != sandbox::Status::Ok) {
    reportCompileFailure(built, sources.firstTest, options, map, result);
    return result;
  }

  StepOutput ran = executeStep(runPolicy(plan, options, staging, out), options, nullptr);
  auto errEvents = extractEvents(ran.stderrText);
  ran.stdoutRest = ran.stdoutText;
  ran.stderrRest = errEvents.rest;
  const bool catch2 = plan.framework == "catch2";
  result.verdict = ran.verdict;
  result.stdoutText = capText(catch2 ? "" : ran.stdoutText, 16384);
  result.stderrText = capText(ran.stderrRest, 16384);
  if (ran.verdict.cancelled) {
    result.cancelled = true;
    return result;
  }
  const SupportEvents support = readSupportEvents(errEvents.events, plan, options, staging, out, map);
  // A run stopped by its bound says nothing of how long the tests take (and must not widen it).
  if (ran.verdict.status != sandbox::Status::Timeout && ran.verdict.status != sandbox::Status::CpuLimit &&
      support.event != "timeout")
    CxxHistory::get().recordRun(historyKey(plan, options), ran.verdict.wallMs / 1000);

  HarnessOutcome outcome;
  outcome.done = true;
  if (catch2) {
    outcome.results = parseCatchXml(ran.stdoutText);
  } else if (plan.framework == "gtest") {
    outcome.results = parseGtestJson(readHost(out + "/gtest.json"));
  }
  TestResult mainTest;
  mainTest.name = catch2 || plan.framework == "gtest" ? "(test binary)" : "main";
  mainTest.file = sources.firstTest;
  for (const auto& [f, t] : staging.stagedTexts())
    if (f == sources.firstTest) mainTest.line = mainLine(t);
  classifyBinaryEnd(ran, support, mainTest, outcome, map);

  for (auto& r : outcome.results) {
    map.mapResult(r);
    if (options.onTestResult) options.onTestResult(r);
  }
  if (outcome.running) map.mapResult(*outcome.running);
  finishResult(result, outcome, ran, map);
  if (!gcov.empty()) {
    native::GcovRun g;
    g.gcov = gcov;
    g.dataDir = out;
    g.sandboxDataDir = "/out";
    g.prefixed = false;
    g.files = {plan.sourceFile};
    g.toHost = [&map](const std::string& f) { return map.toHost(f); };
    g.policy = basePolicy(plan, options, staging, nullptr);
    g.policy.binds.push_back({out, "/out", false});
    result.coverage = native::collectGcov(g, options);
  }
  return result;
}

}  // namespace greenlight::core::testing
