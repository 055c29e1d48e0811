// `greenlight run` end to end: exit codes, the text format, the JSON shape.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

#include "TestUtil.h"
#include <nlohmann/json.hpp>

using greenlight::test::runShell;
using greenlight::test::TempWorkspace;

namespace {

std::string bin() { return GL_GREENLIGHT_BIN; }
std::string lastLine(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

}  // namespace

TEST_CASE("cli: exit codes and the last line") {
  std::string ex = GL_EXAMPLES_DIR;
  auto r = runShell(bin() + " run " + ex + "/python/mathutil.py");
  INFO(r.out << r.err);
  CHECK(r.exitCode == 0);
  CHECK(lastLine(r.out) == "3 passed, 0 failed");
  r = runShell(bin() + " run " + ex + "/python/textutil.py");
  INFO(r.out << r.err);
  CHECK(r.exitCode == 1);
  CHECK(lastLine(r.out) == "1 passed, 1 failed");
  CHECK(r.out.find(ex + "/python/test_textutil.py:5:5: error: test_slugify: AssertionError: slugify(\"Hello World\") returned "
                        "'hello_world', expected 'hello-world' [test-failed]") != std::string::npos);
  // The wrong value's origin: the `return` line, with the definition as a note.
  CHECK(r.out.find(ex + "/python/textutil.py:6:5: error: test_slugify") != std::string::npos);
  CHECK(r.out.find("(slugify returned here with title='Hello World', words=['hello', 'world'])") != std::string::npos);
  CHECK(r.out.find(ex + "/python/textutil.py:4:1: note: slugify is defined here") != std::string::npos);

  TempWorkspace ws;
  ws.write("lonely.py", "x = 1\n");
  r = runShell(bin() + " run " + ws.path("lonely.py"));
  CHECK(r.exitCode == 3);
  r = runShell(bin() + " run");
  CHECK(r.exitCode == 2);
  r = runShell(bin() + " run " + ws.path("lonely.py") + " --timeout abc");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("--timeout") != std::string::npos);
  r = runShell(bin() + " run " + ws.path("nope.py"));
  CHECK(r.exitCode == 2);
  ws.write("bad/.greenlight.json", "{\"sandbox\": {\"timeLimitSeconds\": \"x\"}}");
  ws.write("bad/m.py", "x = 1\n");
  ws.write("bad/test_m.py", "def test_a():\n    pass\n");
  r = runShell(bin() + " run " + ws.path("bad/m.py"));
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("timeLimitSeconds") != std::string::npos);
}

TEST_CASE("cli: --json shape, PATH:LINE narrowing, .greenlight.json settings") {
  std::string ex = GL_EXAMPLES_DIR;
  auto r = runShell(bin() + " run " + ex + "/python/textutil.py:10 --json");
  INFO(r.out << r.err);
  CHECK(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["file"] == ex + "/python/textutil.py");
  CHECK(j["language"] == "python");
  CHECK(j["cached"] == false);
  REQUIRE(j["tests"].size() == 1);
  CHECK(j["tests"][0]["name"] == "test_initials");
  CHECK(j["tests"][0]["status"] == "passed");
  CHECK(j["summary"]["passed"] == 1);
  CHECK(j["sandbox"]["status"] == "ok");
  CHECK(j["sandbox"].contains("isolation"));

  TempWorkspace ws;
  ws.write(".greenlight.json", "{\"sandbox\": {\"timeLimitSeconds\": 1}}");
  ws.write("m.py", "def f():\n    while True:\n        pass\n");
  ws.write("test_m.py", "from m import f\n\ndef test_f():\n    f()\n");
  r = runShell(bin() + " run " + ws.path("m.py") + " --json");
  INFO(r.out << r.err);
  CHECK(r.exitCode == 1);
  j = nlohmann::json::parse(r.out);
  CHECK(j["tests"][0]["status"] == "timeout");
  CHECK(j["diagnostics"][0]["code"] == "timeout");
  CHECK(j["diagnostics"][0]["file"] == ws.path("m.py"));
  // `while True: pass` compiles to a jump on the `while` line (2) in CPython 3.11.
  CHECK((j["diagnostics"][0]["line"] == 2 || j["diagnostics"][0]["line"] == 3));
}

TEST_CASE("cli: a pytest project with no venv runs by the pytest on PATH") {
  // python3 on PATH cannot import pytest (a venv made without it, like a pyenv version without
  // pytest); the `pytest` on PATH is Debian's, whose shebang names /usr/bin/python3, which can.
  REQUIRE(runShell("/usr/bin/python3 -c 'import pytest' && test -x /usr/bin/pytest").exitCode == 0);
  TempWorkspace ws;
  ::chmod(ws.root().c_str(), 0755);  // the sandbox's user (uid 65534 under root) enters it
  REQUIRE(runShell("/usr/bin/python3 -m venv --without-pip " + ws.path("nopy")).exitCode == 0);
  REQUIRE(runShell(ws.path("nopy/bin/python3") + " -c 'import pytest'").exitCode != 0);
  ws.write("proj/pytest.ini", "[pytest]\n");
  ws.write("proj/calc.py", "def add(a, b):\n    return a + b\n");
  ws.write("proj/test_calc.py",
           "import pytest\nfrom calc import add\n\n\n@pytest.mark.parametrize('a,b,s', [(1, 2, 3), (2, 2, 4)])\n"
           "def test_add(a, b, s):\n    assert add(a, b) == s\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n");
  const std::string env = "env -u VIRTUAL_ENV -u PYENV_VERSION PATH=" + ws.path("nopy/bin") + ":/usr/bin:/bin ";
  auto r = runShell(env + bin() + " run " + ws.path("proj/calc.py") + " --json");
  INFO(r.out << r.err);
  CHECK(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["summary"]["passed"] == 3);
  std::vector<std::string> ids;
  for (const auto& t : j["tests"]) ids.push_back(t.value("id", t.value("name", "")));
  INFO(j.dump());
  // pytest's own ids: parametrize cases one by one (the built-in harness cannot run them).
  CHECK(std::find(ids.begin(), ids.end(), "test_calc.py::test_add[1-2-3]") != ids.end());
  // With a bug the same run fails, by pytest.
  ws.write("proj/calc.py", "def add(a, b):\n    return a - b\n");
  r = runShell(env + bin() + " run " + ws.path("proj/calc.py"));
  CHECK(r.exitCode == 1);
  CHECK(lastLine(r.out) == "0 passed, 3 failed");
  // No interpreter with pytest at all: exit 2 with what was tried, never the built-in harness.
  r = runShell("env -u VIRTUAL_ENV PATH=" + ws.path("nopy/bin") + " " + bin() + " run " + ws.path("proj/calc.py"));
  INFO(r.out << r.err);
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("no Python interpreter found can import pytest") != std::string::npos);
  CHECK(r.err.find(ws.path("nopy/bin/python3")) != std::string::npos);
  CHECK(r.err.find("python.interpreter") != std::string::npos);
}
