// Hostile model output through `greenlight generate`: replies with no code, prose, 5 MB, code in
// another language, code that redefines or edits the tests; candidates that hang, fork, allocate
// 8 GB, write outside their directory, read the API key, print binary junk. Each must give a
// clear verdict for its round in the JSON; nothing may escape the sandbox, nothing may be
// written (every run has --apply), and the key must never appear in a prompt or an output.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

const char* kWcPy = "def word_count(s):\n    \"\"\"Return the number of words in s.\"\"\"\n    ...\n";
const char* kWcTest = "from wc import word_count\n\n\ndef test_empty():\n    assert word_count(\"\") == 0\n\n\ndef test_two():\n    assert word_count(\"a b\") == 2\n";

struct Hostile {
  Workspace ws;
  std::unique_ptr<ScriptedModel> model;
  GenerateRun run;

  // `reply`: the default rule of the script (every request gets it). `timeLimitSeconds`: the
  // sandbox's limit per run. Only the hang needs a short one; the others expect a verdict of
  // their own ("returned 1, expected 0", the memory or process limit), which a short limit on
  // a loaded machine (a sanitizer build beside another suite) could turn into a timeout.
  Hostile(const json& reply, int rounds = 1, const std::vector<std::string>& serverEnv = {}, GenerateOptions options = {},
          int timeLimitSeconds = 20) {
    ws.write(".greenlight.json", "{\"sandbox\": {\"timeLimitSeconds\": " + std::to_string(timeLimitSeconds) +
                                     ", \"memoryLimitMB\": 256}}\n");
    ws.write("wc.py", kWcPy);
    ws.write("test_wc.py", kWcTest);
    model = std::make_unique<ScriptedModel>(json{{"rules", json::array()}, {"default", reply}}, serverEnv);
    run = generate(ws, model.get(), {"wc.py:1", "--json", "--apply", "--rounds", std::to_string(rounds)}, options);
  }

  std::string describe() const {
    return "exit " + std::to_string(run.exitCode) + (run.timedOut ? " (killed at the bound)" : "") +
           "\nstdout:\n" + run.out.substr(0, 8000) + "\nstderr:\n" + run.err.substr(0, 4000);
  }
  const json& candidate(std::size_t round = 0) const { return run.json["rounds"][round]["candidates"][0]; }
  std::string feedback(std::size_t round = 0) const { return candidate(round)["feedback"].get<std::string>(); }

  // What every hostile run must show: a verdict, a clean exit 1, nothing written, no key.
  void checkContained() const {
    CHECK_FALSE(run.timedOut);
    CHECK(run.exitCode == 1);
    REQUIRE(run.json.is_object());
    CHECK((run.json["status"] == "failed" || run.json["status"] == "error"));
    CHECK(run.json["applied"] == false);
    CHECK(run.json["edit"].is_null());
    CHECK_FALSE(run.json["error"].get<std::string>().empty());
    for (const auto& round : run.json["rounds"]) {
      for (const auto& c : round["candidates"]) {
        CHECK_FALSE(c["status"].get<std::string>().empty());
        CHECK_FALSE(c["feedback"].get<std::string>().empty());  // says why it did not pass
      }
    }
    CHECK(ws.read("wc.py") == kWcPy);
    CHECK(ws.read("test_wc.py") == kWcTest);
    CHECK(ws.files() == std::vector<std::string>{".greenlight.json", "test_wc.py", "wc.py"});
    CHECK(model->logText().find("SECRET") == std::string::npos);
    CHECK(run.out.find("SECRET") == std::string::npos);
    CHECK(run.err.find("SECRET") == std::string::npos);
  }
};

json text(const std::string& reply) { return {{"text", reply}}; }
json python(const std::string& code) { return text(fenced("python", code)); }

// What a terminal, a log or a JSON reader can take: valid UTF-8 (no overlong forms, no
// surrogates), and no control character but the newline.
bool printable(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n') || c == 0x7f) return false;
      ++i;
      continue;
    }
    const std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (n == 0 || (c >= 0xF5) || i + n > s.size()) return false;
    std::uint32_t cp = c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

}  // namespace

TEST_CASE("hostile: a reply with no code at all, or prose only", "[refine][e2e][hostile]") {
  for (const char* reply : {"", "I am sorry, but I cannot write this function without knowing what counts as a word. Could you say more?"}) {
    Hostile h(text(reply), 2);
    INFO(h.describe());
    h.checkContained();
    CHECK(candidateStatuses(h.run.json) == std::vector<std::vector<std::string>>{{"no_code"}, {"no_code"}});
    CHECK_THAT(h.feedback(), Catch::Contains("The reply held no python code"));
    CHECK_THAT(h.run.json["error"].get<std::string>(), Catch::StartsWith("no candidate could be run"));
    // The next round tells the model what was wrong, the empty reply included.
    CHECK_THAT(h.model->lastUser(1), Catch::Contains("The reply held no python code"));
  }
}

TEST_CASE("hostile: a 5 MB reply is read, bounded everywhere, and refused as no code", "[refine][e2e][hostile]") {
  Hostile h({{"huge", 5 * 1000 * 1000}, {"piece", 4096}}, 2);
  INFO(h.describe());
  h.checkContained();
  CHECK(candidateStatuses(h.run.json) == std::vector<std::vector<std::string>>{{"no_code"}, {"no_code"}});
  auto requests = h.model->requests();
  REQUIRE(requests.size() == 2);
  // The reply went back into round 2's conversation, bounded with a visible cut.
  const std::string second = requests[1]["body"].dump();
  CHECK(second.size() < 64 * 1024);
  CHECK_THAT(second, Catch::Contains("cut"));
  CHECK(h.run.out.size() < 64 * 1024);
}

TEST_CASE("hostile: code in another language", "[refine][e2e][hostile]") {
  SECTION("tagged javascript: not run, and the model is told which language was wanted") {
    Hostile h(text(fenced("javascript", "function word_count(s) {\n  return s.split(' ').length;\n}")));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.candidate()["status"] == "no_code");
    CHECK_THAT(h.feedback(), Catch::Contains("your reply's code blocks are javascript, not python"));
  }
  SECTION("a C++ block for a Python target") {
    Hostile h(text(fenced("cpp", "#include <string>\nint word_count(const std::string& s) { return 0; }")));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.candidate()["status"] == "no_code");
    CHECK_THAT(h.feedback(), Catch::Contains("your reply's code blocks are cpp, not python"));
  }
  SECTION("an untagged block of another language: not code of this one") {
    Hostile h(text("```\n#include <string>\nint word_count(const std::string& s) { return 0; }\n```\n"));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.candidate()["status"] == "no_code");
  }
}

TEST_CASE("hostile: a reply that redefines or edits the tests", "[refine][e2e][hostile]") {
  SECTION("redefines the tests: left out, the user's tests run, and the model is told") {
    Hostile h(python("def word_count(s):\n    return 1\n\n\ndef test_empty():\n    pass\n\n\ndef test_two():\n    pass"));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.candidate()["status"] == "failed");
    CHECK(h.candidate()["failed"].get<int>() >= 1);
    CHECK_THAT(h.feedback(), Catch::Contains("the tests your reply defined were left out (test_empty, test_two)"));
    CHECK_THAT(h.feedback(), Catch::Contains("word_count(\"\") returned 1, expected 0"));
  }
  SECTION("a unittest class of its own: left out") {
    Hostile h(python("import unittest\n\n\ndef word_count(s):\n    return 1\n\n\nclass Sneaky(unittest.TestCase):\n    def test_ok(self):\n        pass"));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.candidate()["status"] == "failed");
    CHECK_THAT(h.feedback(), Catch::Contains("were left out (Sneaky)"));
  }
  SECTION("a test inside the target's own body: refused unrun") {
    Hostile h(python("def word_count(s):\n    def test_inner():\n        pass\n    return 1"));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.candidate()["status"] == "rejected");
  }
  SECTION("rewrites the test file and the tests' module when imported: the originals run") {
    Hostile h(python(
        "import sys\n\n"
        "try:\n    open('test_wc.py', 'w').write('def test_empty():\\n    pass\\n')\nexcept OSError as e:\n    print('DENIED', e)\n\n\n"
        "def word_count(s):\n    t = sys.modules.get('test_wc')\n    if t is not None:\n        t.test_two = lambda: None\n    return 1"));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.candidate()["status"] == "failed");
    CHECK(h.candidate()["failed"].get<int>() >= 1);
    CHECK_THAT(h.feedback(), Catch::Contains("word_count(\"\") returned 1, expected 0"));
  }
}

TEST_CASE("hostile: a candidate that hangs is stopped at the time limit", "[refine][e2e][hostile]") {
  Hostile h(python("def word_count(s):\n    while True:\n        pass"), 1, {}, {}, 3);
  INFO(h.describe());
  h.checkContained();
  CHECK(h.candidate()["status"] == "failed");
  CHECK_THAT(h.feedback(), Catch::Contains("TIMEOUT test_empty"));
  CHECK_THAT(h.feedback(), Catch::Contains("timed out after 3 s"));
  CHECK_THAT(h.feedback(), Catch::Contains("wc.py:3 in word_count: pass") || Catch::Contains("while True"));
}

namespace {

// Processes (not zombies) whose name (/proc/PID/comm) is `name`, anywhere on the host: the
// sandbox's pid namespace is below this one, so its processes are listed here too.
std::vector<pid_t> processesNamed(const std::string& name) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream comm(e.path() / "comm");
    std::string got;
    if (!std::getline(comm, got) || got != name) continue;
    if (processAlive(static_cast<pid_t>(std::stol(pid)))) out.push_back(static_cast<pid_t>(std::stol(pid)));
  }
  return out;
}

}  // namespace

TEST_CASE("hostile: a fork bomb hits the process limit, and nothing outlives the run", "[refine][e2e][hostile]") {
  // Every process of the bomb forks until the limit says no; then the test's own process
  // raises (its error says how many it forked, under which name) and every other one holds
  // its slot like a daemon: no descriptor open (so it keeps no pipe of the run open), asleep.
  // Only the sandbox's end removes those. They all carry a name of this test run (comm,
  // inherited by fork), so a survivor is found wherever it is.
  const std::string tag = "glbomb" + std::to_string(::getpid() % 1000000);
  GenerateOptions o;
  o.trackChildren = true;
  Hostile h(python("import ctypes\nimport os\nimport time\n\n\ndef word_count(s):\n"
                   "    ctypes.CDLL(None).prctl(15, b'" + tag + "', 0, 0, 0)  # PR_SET_NAME\n"
                   "    me, forked = os.getpid(), 0\n"
                   "    while True:\n"
                   "        try:\n            pid = os.fork()\n"
                   "        except OSError as e:\n"
                   "            if os.getpid() != me:\n                os.closerange(0, 1024)\n                time.sleep(3600)\n"
                   "                os._exit(0)\n"
                   "            name = open('/proc/self/comm').read().strip()\n"
                   "            raise OSError(e.errno, '%s after %d forks by %s' % (e.strerror, forked, name))\n"
                   "        if pid:\n            forked += 1"),
            1, {}, o);
  INFO(h.describe());
  h.checkContained();
  CHECK(h.candidate()["status"] == "failed");
  // The verdict is the process limit (not "the test process was killed by signal N"), and the
  // bomb really ran under its name: the first test forked before the limit stopped it.
  CHECK(std::regex_search(h.feedback(), std::regex("Resource temporarily unavailable after [1-9][0-9]* forks by " + tag +
                                                    " \\(process limit reached\\)")));
  // Nothing of the bomb outlives the run: no process of that name anywhere, and none of the
  // processes greenlight started. (Bounded: a killed process may take a moment to be reaped.)
  const auto deadline = std::chrono::steady_clock::now() + scaled(10s);
  std::vector<pid_t> survivors = processesNamed(tag);
  bool childAlive = true;
  while ((!survivors.empty() || childAlive) && std::chrono::steady_clock::now() < deadline) {
    childAlive = false;
    for (pid_t c : h.run.children) childAlive = childAlive || processAlive(c);
    survivors = processesNamed(tag);
    if (!survivors.empty() || childAlive) std::this_thread::sleep_for(20ms);
  }
  CHECK(survivors.empty());
  CHECK_FALSE(childAlive);
  for (pid_t p : survivors) ::kill(p, SIGKILL);  // a failed run leaves nothing behind either
}

TEST_CASE("hostile: a candidate that allocates 8 GB meets the memory limit", "[refine][e2e][hostile]") {
  Hostile h(python("def word_count(s):\n    block = bytearray(8 * 1024 ** 3)\n    return len(block)"));
  INFO(h.describe());
  h.checkContained();
  CHECK_THAT(h.feedback(), Catch::Contains("MemoryError") || Catch::Contains("memory limit"));
}

TEST_CASE("hostile: writes outside its directory reach nothing on the host", "[refine][e2e][hostile]") {
  const std::string tag = "gl-escape-" + std::to_string(::getpid());
  const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "/tmp";
  Workspace outside;  // a directory beside the workspace, as a target for ../
  const std::vector<std::string> targets = {"/tmp/" + tag, home + "/" + tag, "/var/tmp/" + tag, outside.path(tag), "../" + tag,
                                            "/dev/shm/" + tag};
  std::string list;
  for (const auto& t : targets) list += "'" + t + "', ";
  Hostile h(python("import os\n\n\ndef word_count(s):\n    for p in [" + list + "os.path.abspath('wc.py')]:\n"
                   "        try:\n            with open(p, 'a') as f:\n                f.write('escaped')\n            print('WROTE', p)\n"
                   "        except OSError as e:\n            print('DENIED', p, e.strerror)\n    return -1"));
  INFO(h.describe());
  h.checkContained();
  CHECK(h.candidate()["status"] == "failed");
  CHECK_THAT(h.feedback(), Catch::Contains("DENIED"));  // the output reached the feedback
  for (const auto& t : targets) {
    INFO(t);
    CHECK_FALSE(std::filesystem::exists(t));
  }
  CHECK_FALSE(std::filesystem::exists(std::filesystem::path(h.ws.root()).parent_path() / tag));
  CHECK(outside.files() == std::vector<std::string>{".greenlight.json"});
}

TEST_CASE("hostile: a candidate that looks for the API key finds nothing, the key is in no prompt or output", "[refine][e2e][hostile]") {
  Hostile h(python("import os\n\n\ndef word_count(s):\n    print('ENV', sorted(os.environ.items()))\n"
                   "    for p in ['/proc/self/environ', '/proc/1/environ', '/proc/%d/environ' % os.getppid()]:\n"
                   "        try:\n            print('FILE', p, open(p, 'rb').read())\n        except OSError as e:\n            print('DENIED', p, e.strerror)\n"
                   "    return os.environ.get('OPENAI_API_KEY', 'NO-KEY')"),
            2);
  INFO(h.describe());
  h.checkContained();
  CHECK_THAT(h.feedback(), Catch::Contains("returned 'NO-KEY'"));
  CHECK_THAT(h.feedback(), Catch::Contains("ENV [("));  // the dump itself reached the feedback
}

TEST_CASE("hostile: a model that echoes the key does not get it back in the next prompt", "[refine][e2e][hostile]") {
  Hostile h(python("KEY = '{env:GL_ECHO}'\n\n\ndef word_count(s):\n    return KEY"), 2, {std::string("GL_ECHO=") + kApiKey});
  INFO(h.describe());
  CHECK(h.run.exitCode == 1);
  CHECK(h.model->requests().size() == 2);
  CHECK(h.model->logText().find("SECRET") == std::string::npos);
  CHECK_THAT(h.model->logText(), Catch::Contains("[redacted]"));
  CHECK(h.ws.read("wc.py") == kWcPy);
}

TEST_CASE("hostile: binary junk and a megabyte of output come back bounded and printable", "[refine][e2e][hostile]") {
  SECTION("python writes bytes that are not UTF-8 to its fds, and control characters and a megabyte to its output") {
    Hostile h(python("import os\n\n\ndef word_count(s):\n    os.write(1, b'\\xff\\xfe\\x80junk\\n' * 100)\n"
                     "    os.write(2, b'\\xc3\\x28' * 100)\n"
                     "    print('junk\\x1b[31m\\x00\\x07end')\n"
                     "    print('7' * 1000000)\n    return -1"));
    INFO(h.describe());
    h.checkContained();
    CHECK(h.run.out.size() < 256 * 1024);
    CHECK(printable(h.run.out));
    // The junk reached the feedback as it was printed (the escape, NUL and bell included), its
    // megabyte cut, and the JSON on stdout carries it escaped.
    CHECK_THAT(h.feedback(), Catch::Contains("  output:\n    junk\x1b[31m" + std::string(1, '\0') + "\x07" "end\n    7777"));
    CHECK_THAT(h.feedback(), Catch::Contains(" bytes cut "));
    CHECK_THAT(h.run.out, Catch::Contains("junk\\u001b[31m\\u0000\\u0007end"));
  }
  SECTION("c++ prints invalid UTF-8 and fails") {
    Workspace ws;
    ws.write("twice.cpp", "// Twice x.\nint twice(int x) {}\n");
    ws.write("twice_test.cpp", "#include <cassert>\n\nint twice(int x);\n\nint main() {\n  assert(twice(2) == 4);\n  return 0;\n}\n");
    ScriptedModel model(json{{"rules", json::array()}, {"default", text(fenced("cpp", "#include <cstdio>\nint twice(int x) {\n  for (int i = 0; i < 200; ++i) std::printf(\"\\xff\\xfe%d\\xc3\\n\", i);\n  std::fflush(stdout);\n  return x;\n}"))}});
    auto r = generate(ws, &model, {"twice.cpp:1", "--json", "--apply", "--rounds", "1"});
    INFO("exit " << r.exitCode << "\n" << r.out.substr(0, 4000) << "\n" << r.err);
    CHECK(r.exitCode == 1);
    REQUIRE(r.json.is_object());
    CHECK(r.json["status"] == "failed");
    CHECK(printable(r.out));
    // Each invalid byte reached the feedback as U+FFFD; the output's middle is cut.
    const std::string bad = "\xef\xbf\xbd";
    const std::string feedback = r.json["rounds"][0]["candidates"][0]["feedback"].get<std::string>();
    CHECK_THAT(feedback, Catch::Contains("  output:\n    " + bad + bad + "0" + bad + "\n    " + bad + bad + "1" + bad + "\n"));
    CHECK_THAT(feedback, Catch::Contains("    " + bad + bad + "199" + bad + "\n"));
    CHECK(ws.read("twice.cpp") == "// Twice x.\nint twice(int x) {}\n");
  }
  SECTION("the failing line quoted from a Latin-1 test file") {
    Workspace ws;
    ws.write("twice.cpp", "// Twice x.\nint twice(int x) {}\n");
    ws.write("twice_test.cpp", "#include <cassert>\n// caf\xe9\nint twice(int x);\n\nint main() {\n  assert(twice(2) == 4);  // \xe9t\xe9\n  return 0;\n}\n");
    ScriptedModel model(json{{"rules", json::array()}, {"default", text(fenced("cpp", "int twice(int x) {\n  return x;\n}"))}});
    auto r = generate(ws, &model, {"twice.cpp:1", "--json", "--rounds", "1"});
    INFO("exit " << r.exitCode << "\n" << r.out.substr(0, 4000) << "\n" << r.err);
    CHECK(r.exitCode == 1);
    REQUIRE(r.json.is_object());
    CHECK_THAT(r.json["rounds"][0]["candidates"][0]["feedback"].get<std::string>(), Catch::Contains("assert(twice(2) == 4);  // \xef\xbf\xbdt\xef\xbf\xbd"));
  }
}
