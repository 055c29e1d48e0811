// Feedback shaping (what the model sees of a failed round): bounded head + tail with a visible
// cut marker, paths relative to the workspace, staging paths / addresses / timings removed,
// secrets redacted, verdicts in words, compiler errors as file:line, the traced origin of a
// wrong value; and the same failure reads the same in two runs.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "core/refine/Feedback.h"

using namespace greenlight::core::refine;
namespace t = greenlight::core::testing;
namespace sb = greenlight::sandbox;

namespace {

const std::string kRoot = "/home/ana/proj";

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool validUtf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

// The count a "… N lines cut …" marker states, or -1 without one.
long cutCount(const std::string& text) {
  static const std::regex kMarker("… (\\d+) lines cut …");
  std::smatch m;
  return std::regex_search(text, m, kMarker) ? std::stol(m[1].str()) : -1;
}

FeedbackContext context() {
  FeedbackContext c;
  c.workspaceRoot = kRoot;
  c.texts[kRoot + "/slug.py"] =
      "import re\n"
      "\n"
      "\n"
      "def slugify(title):\n"
      "    words = title.split(' ')\n"
      "    return '-'.join(words)\n";
  c.texts[kRoot + "/tests/test_slug.py"] =
      "from slug import slugify\n"
      "\n"
      "\n"
      "def test_spaces():\n"
      "    assert slugify('Hello  World') == 'hello-world'\n"
      "\n"
      "\n"
      "def test_simple():\n"
      "    assert slugify('a') == 'a'\n";
  c.timeLimitSeconds = 2;
  c.memoryLimitMB = 256;
  c.secrets = {"sk-test-SECRET-0123456789"};
  return c;
}

// One failing run of tests/test_slug.py as the runner reports it. `stage` is the staging
// directory name, `address` an object address and `ms` a duration: what varies between runs.
t::RunResult slugFailure(const std::string& stage, const std::string& address, double ms) {
  t::RunResult r;
  r.file = kRoot + "/slug.py";
  r.files = {kRoot + "/slug.py", kRoot + "/tests/test_slug.py"};
  t::TestResult fail;
  fail.name = "test_spaces";
  fail.file = kRoot + "/tests/test_slug.py";
  fail.line = 4;
  fail.status = t::TestStatus::Failed;
  fail.kind = t::FailureKind::Assertion;
  fail.message = "AssertionError: slugify('Hello  World') returned 'Hello--World', expected 'hello-world'";
  fail.actual = "'Hello--World'";
  fail.expected = "'hello-world'";
  fail.frames = {{kRoot + "/tests/test_slug.py", 5, 0, "test_spaces"}};
  fail.durationMs = ms;
  fail.output = "debug: cache <Cache object at " + address + "> in /dev/shm/greenlight-run-" + stage +
                "/src/slug.py took " + std::to_string(ms) + " ms\n";
  t::ValueOrigin o;
  o.function = "slugify";
  o.file = kRoot + "/slug.py";
  o.line = 6;
  o.defLine = 4;
  o.kind = "return";
  o.value = "'Hello--World'";
  o.locals = {{"title", "'Hello  World'"}, {"words", "['Hello', '', 'World']"}};
  fail.origin = o;
  t::TestResult pass;
  pass.name = "test_simple";
  pass.file = kRoot + "/tests/test_slug.py";
  pass.line = 8;
  pass.durationMs = ms / 2;
  r.tests = {fail, pass};
  r.summary = t::summarize(r.tests);
  sb::Verdict v;
  v.status = sb::Status::ExitNonzero;
  v.exitCode = 1;
  v.wallMs = ms * 3;
  r.verdict = v;
  return r;
}

}  // namespace

TEST_CASE("boundHeadTail keeps the head and the tail around a counted cut marker", "[refine][feedback]") {
  std::string text;
  for (int i = 1; i <= 100; ++i) text += "line " + std::to_string(i) + "\n";
  std::string out = boundHeadTail(text, 10, 100000);
  auto lines = linesOf(out);
  CHECK(lines.size() <= 10);
  REQUIRE(cutCount(out) > 0);
  // Head lines are the first ones, tail lines the last ones, and the marker counts the rest.
  std::size_t marker = 0;
  while (marker < lines.size() && lines[marker].find("lines cut") == std::string::npos) ++marker;
  REQUIRE(marker < lines.size());
  for (std::size_t i = 0; i < marker; ++i) CHECK(lines[i] == "line " + std::to_string(i + 1));
  std::size_t tail = lines.size() - marker - 1;
  for (std::size_t i = 0; i < tail; ++i) CHECK(lines[marker + 1 + i] == "line " + std::to_string(100 - tail + 1 + i));
  CHECK(static_cast<std::size_t>(cutCount(out)) + marker + tail == 100);
  CHECK(marker >= tail);  // more of the head than of the tail
  CHECK(out.back() == '\n');

  // Within the limits: unchanged, byte for byte.
  CHECK(boundHeadTail(text, 100, 100000) == text);
  CHECK(boundHeadTail("a\nb", 2, 10) == "a\nb");
  CHECK(boundHeadTail("", 2, 10).empty());
}

TEST_CASE("boundHeadTail: the byte limit holds, also for few very long lines", "[refine][feedback]") {
  std::string text;
  for (int i = 0; i < 50; ++i) text += std::string(99, static_cast<char>('a' + i % 26)) + "\n";
  std::string out = boundHeadTail(text, 1000, 1000);
  CHECK(out.size() <= 1000);
  CHECK(cutCount(out) > 0);

  // One line of 100 KB (a reply without a newline): bounded, and no absurd count.
  std::string one = "START" + std::string(100000, 'x') + "END";
  out = boundHeadTail(one, 40, 4000);
  INFO(out.substr(0, 200));
  CHECK(out.size() <= 4000);
  CHECK(out.find("START") == 0);
  CHECK(out.find("END") != std::string::npos);
  CHECK(out.find("cut") != std::string::npos);
  CHECK(out.find("18446744073709551615") == std::string::npos);
  CHECK(out.find("-1") == std::string::npos);

  // Two long lines: what is cut is said (not "0 lines cut").
  std::string two = std::string(5000, 'a') + "\n" + std::string(5000, 'b') + "\n";
  out = boundHeadTail(two, 40, 4000);
  CHECK(out.size() <= 4000);
  CHECK(out.find("… 0 lines cut …") == std::string::npos);
  CHECK(out.find("cut") != std::string::npos);

  // Multi-byte characters are never split.
  std::string wide;
  for (int i = 0; i < 3000; ++i) wide += "é☕";
  out = boundHeadTail(wide, 40, 1001);
  CHECK(out.size() <= 1001);
  CHECK(validUtf8(out));
  std::string wideLines;
  for (int i = 0; i < 60; ++i) wideLines += wide.substr(0, 335) + "\n";
  out = boundHeadTail(wideLines, 10, 2000);
  CHECK(validUtf8(out));
}

TEST_CASE("relativePath shows workspace paths relative, others unchanged", "[refine][feedback]") {
  CHECK(relativePath("/home/ana/proj/src/m.py", "/home/ana/proj") == "src/m.py");
  CHECK(relativePath("/home/ana/proj/src/m.py", "/home/ana/proj/") == "src/m.py");
  CHECK(relativePath("/home/ana/project/m.py", "/home/ana/proj") == "/home/ana/project/m.py");
  CHECK(relativePath("/usr/lib/python3.11/re.py", "/home/ana/proj") == "/usr/lib/python3.11/re.py");
  CHECK(relativePath("m.py", "/home/ana/proj") == "m.py");
  CHECK(relativePath("/home/ana/proj/m.py", "") == "/home/ana/proj/m.py");
}

TEST_CASE("sanitizeText removes staging paths, the root, addresses, timings and secrets", "[refine][feedback]") {
  FeedbackContext c = context();
  std::string in =
      "File \"/dev/shm/greenlight-run-Ab12Cd/src/slug.py\", line 6\n"
      "File \"/tmp/greenlight-out-Zz9/m_test\"\n"
      "File \"/work/src/slug.py\"\n"
      "at /home/ana/proj/tests/test_slug.py:5\n"
      "<slug.Cache object at 0x7f3a2b1c4d5e> and <function f at 0x7f3a2b1c4d5f>\n"
      "pointer 0x55d0c0ffee00\n"
      "took 0.012s, 12 ms, 3 seconds\n"
      "key sk-test-SECRET-0123456789 and Authorization: Bearer abc.def\n";
  std::string out = sanitizeText(in, c, true);
  INFO(out);
  CHECK(out.find("greenlight-run") == std::string::npos);
  CHECK(out.find("greenlight-out") == std::string::npos);
  CHECK(out.find("/work/src") == std::string::npos);
  CHECK(out.find("/home/ana") == std::string::npos);
  CHECK(out.find("File \"slug.py\", line 6") != std::string::npos);
  CHECK(out.find("at tests/test_slug.py:5") != std::string::npos);
  CHECK(out.find("<slug.Cache> and <function f>") != std::string::npos);
  CHECK(out.find("0x7f3a") == std::string::npos);
  CHECK(out.find("0x55d0c0ffee00") == std::string::npos);
  CHECK(out.find("0.012") == std::string::npos);
  CHECK(out.find("12 ms") == std::string::npos);
  CHECK(out.find("3 seconds") == std::string::npos);
  CHECK(out.find("SECRET") == std::string::npos);
  CHECK(out.find("abc.def") == std::string::npos);
  CHECK(out.find("[redacted]") != std::string::npos);
  // Word boundaries: not inside identifiers or longer words.
  CHECK(sanitizeText("x12ms 12msec v0x1234567 0x12345 3s.", c, true) == "x12ms 12msec v0x1234567 0x12345 …s.");
  CHECK(sanitizeText("<A at 0x1f> 1.5 x", c, true) == "<A> 1.5 x");
  // Without dropTimings, numbers with units stay (an assertion may compare durations).
  CHECK(sanitizeText("expected 12 ms", c, false) == "expected 12 ms");
}

TEST_CASE("sanitizeText: a megabyte of digits, hex or paths is linear work, not a stack overflow", "[refine][feedback]") {
  FeedbackContext c = context();
  const std::string digits(1 << 20, '7');
  CHECK(sanitizeText(digits + " ms", c, true) == "…s");
  CHECK(sanitizeText("0x" + std::string(1 << 20, 'f'), c, true) == "0x…");
  CHECK(sanitizeText("<o at 0x" + std::string(1 << 20, 'a') + ">", c, true) == "<o>");
  CHECK(sanitizeText("/dev/shm/greenlight-run-" + std::string(1 << 20, 'Z') + "/src/m.py", c, true) == "m.py");
  std::string paths;
  for (int i = 0; i < 50000; ++i) paths += kRoot + "/m.py ";
  std::string out = sanitizeText(paths, c, true);
  CHECK(out.size() == 5 * 50000);
  CHECK(out.find(kRoot) == std::string::npos);
}

TEST_CASE("shapeFeedback: a failing assertion with its origin, relative, in words", "[refine][feedback]") {
  FeedbackContext c = context();
  std::string fb = shapeFeedback(slugFailure("Ab12Cd", "0x7f3a2b1c4d5e", 1.25), c);
  INFO(fb);
  CHECK(fb.rfind("1 of 2 tests passed, 1 failed.\n", 0) == 0);
  CHECK_THAT(fb, Catch::Contains("FAILED test_spaces (tests/test_slug.py:4)"));
  CHECK_THAT(fb, Catch::Contains("at tests/test_slug.py:5: assert slugify('Hello  World') == 'hello-world'"));
  CHECK_THAT(fb, Catch::Contains("returned 'Hello--World', expected 'hello-world'"));
  CHECK_THAT(fb, Catch::Contains("slugify returned at slug.py:6 the value 'Hello--World' with title='Hello  World', words=['Hello', '', 'World']"));
  CHECK_THAT(fb, Catch::Contains("6 | return '-'.join(words)"));
  CHECK_THAT(fb, Catch::Contains("Passed: test_simple"));
  CHECK(fb.find(kRoot) == std::string::npos);
  CHECK(fb.find("greenlight-run") == std::string::npos);
  CHECK(fb.find("0x7f3a") == std::string::npos);
  CHECK(fb.find("1.25") == std::string::npos);

  // All passed: nothing to say.
  t::RunResult ok = slugFailure("x", "0x1", 1);
  ok.tests.erase(ok.tests.begin());
  ok.summary = t::summarize(ok.tests);
  CHECK(shapeFeedback(ok, c).empty());
}

TEST_CASE("shapeFeedback reads the same for the same failure in two runs", "[refine][feedback]") {
  FeedbackContext c = context();
  std::string a = shapeFeedback(slugFailure("Ab12Cd", "0x7f3a2b1c4d5e", 1.25), c);
  std::string b = shapeFeedback(slugFailure("Qr34St", "0x55d0c0ffee00", 87.5), c);
  CHECK(a == b);
  // And it is not the same for a different failure.
  t::RunResult other = slugFailure("Ab12Cd", "0x7f3a2b1c4d5e", 1.25);
  other.tests[0].message = "AssertionError: slugify('Hello  World') returned 'hello--world', expected 'hello-world'";
  CHECK(shapeFeedback(other, c) != a);
}

TEST_CASE("shapeFeedback: secrets never appear, wherever they come from", "[refine][feedback]") {
  FeedbackContext c = context();
  t::RunResult r = slugFailure("Ab12Cd", "0x7f3a2b1c4d5e", 1.25);
  const std::string key = c.secrets.front();
  r.tests[0].message = "AssertionError: " + key;
  r.tests[0].output = "env OPENAI_API_KEY=" + key + "\n";
  r.tests[0].origin->value = "'" + key + "'";
  r.tests[0].origin->locals = {{"k", "'" + key + "'"}};
  r.stderrText = key;
  std::string fb = shapeFeedback(r, c);
  INFO(fb);
  CHECK(fb.find("SECRET") == std::string::npos);
  CHECK(fb.find("[redacted]") != std::string::npos);
  r.error = "could not start: " + key;
  fb = shapeFeedback(r, c);
  CHECK(fb.find("SECRET") == std::string::npos);
  CHECK_THAT(fb, Catch::StartsWith("The tests could not be run: could not start: [redacted]"));
}

TEST_CASE("shapeFeedback: verdicts in words", "[refine][feedback]") {
  FeedbackContext c = context();
  auto run = [&](sb::Status status, t::TestStatus ts, t::FailureKind kind, const std::string& syscall = "") {
    t::RunResult r;
    r.file = kRoot + "/slug.py";
    r.files = {r.file, kRoot + "/tests/test_slug.py"};
    t::TestResult test;
    test.name = "test_spaces";
    test.file = kRoot + "/tests/test_slug.py";
    test.line = 4;
    test.status = ts;
    test.kind = kind;
    test.message = kind == t::FailureKind::MemoryLimit ? "MemoryError" : "";
    r.tests = {test};
    r.summary = t::summarize(r.tests);
    sb::Verdict v;
    v.status = status;
    v.syscall = syscall;
    v.signal = status == sb::Status::Signaled ? 9 : 0;
    r.verdict = v;
    return shapeFeedback(r, c);
  };
  CHECK_THAT(run(sb::Status::Timeout, t::TestStatus::Timeout, t::FailureKind::Timeout),
             Catch::Contains("TIMEOUT test_spaces") && Catch::Contains("timed out after 2 s (the test did not finish)"));
  // The harness stopped the test itself (its budget is the run's limit): the process exited.
  CHECK_THAT(run(sb::Status::ExitNonzero, t::TestStatus::Timeout, t::FailureKind::Timeout),
             Catch::Contains("timed out after 2 s (the test did not finish)"));
  CHECK_THAT(run(sb::Status::MemoryLimit, t::TestStatus::Error, t::FailureKind::MemoryLimit),
             Catch::Contains("exceeded the memory limit of 256 MB"));
  CHECK_THAT(run(sb::Status::SyscallViolation, t::TestStatus::Error, t::FailureKind::SandboxViolation, "ptrace"),
             Catch::Contains("the sandbox refused the system call ptrace"));

  // No test ran at all: the verdict says why.
  t::RunResult none;
  none.file = kRoot + "/slug.py";
  sb::Verdict v;
  v.status = sb::Status::Timeout;
  none.verdict = v;
  CHECK(shapeFeedback(none, c).rfind("No test ran: the run timed out after 2 s.", 0) == 0);
  v.status = sb::Status::ProcessLimit;
  none.verdict = v;
  c.processes = 64;
  CHECK_THAT(shapeFeedback(none, c), Catch::Contains("started more processes than the limit of 64"));
  v.status = sb::Status::OutputLimit;
  none.verdict = v;
  CHECK_THAT(shapeFeedback(none, c), Catch::Contains("output limit of 1024 KB"));
  CHECK(verdictInWords(none, c) == "printed more than the output limit of 1024 KB");
  v.status = sb::Status::ExitNonzero;
  none.verdict = v;
  CHECK(verdictInWords(none, c).empty());
}

TEST_CASE("shapeFeedback: compiler errors as file:line with the source line, capped", "[refine][feedback]") {
  FeedbackContext c = context();
  c.texts[kRoot + "/m.cpp"] = "#include <string>\nint twice(int x) {\n  return y * 2;\n}\n";
  c.limits.compilerMessages = 3;
  t::RunResult r;
  r.file = kRoot + "/m.cpp";
  r.language = t::Language::Cxx;
  r.files = {r.file, kRoot + "/m_test.cpp"};
  r.compilerMessages.push_back({kRoot + "/m.cpp", 3, 10, "error", "'y' was not declared in this scope"});
  r.compilerMessages.push_back({kRoot + "/m.cpp", 2, 5, "warning", "unused parameter 'x'"});
  for (int i = 0; i < 5; ++i) r.compilerMessages.push_back({kRoot + "/m.cpp", 3, 1, "error", "more " + std::to_string(i)});
  std::string fb = shapeFeedback(r, c);
  INFO(fb);
  CHECK_THAT(fb, Catch::Contains("The code does not compile:"));
  CHECK_THAT(fb, Catch::Contains("  m.cpp:3: error: 'y' was not declared in this scope\n      3 | return y * 2;"));
  CHECK(fb.find("unused parameter") == std::string::npos);  // warnings are not what failed
  CHECK_THAT(fb, Catch::Contains("(3 more errors)"));
  CHECK(fb.find(kRoot) == std::string::npos);
}

TEST_CASE("shapeFeedback: hundreds of failures stay within the limits", "[refine][feedback]") {
  FeedbackContext c = context();
  t::RunResult r = slugFailure("Ab12Cd", "0x7f3a2b1c4d5e", 1.25);
  for (int i = 0; i < 500; ++i) {
    t::TestResult extra = r.tests[0];
    extra.name = "test_case_" + std::to_string(i);
    extra.output = std::string(300, 'o') + "\n" + std::string(300, 'p') + "\n";
    r.tests.push_back(extra);
  }
  r.summary = t::summarize(r.tests);
  std::string fb = shapeFeedback(r, c);
  CHECK(linesOf(fb).size() <= c.limits.maxLines);
  CHECK(fb.size() <= c.limits.maxBytes);
  CHECK(cutCount(fb) > 0);
  CHECK(fb.rfind("1 of 502 tests passed, 501 failed.", 0) == 0);  // the head survives
  CHECK_THAT(fb, Catch::Contains("Passed: test_simple"));     // and the tail
  CHECK(validUtf8(fb));
}
