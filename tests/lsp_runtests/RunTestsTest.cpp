// greenlight.runTests end to end: the in-process client drives the real server with the real
// feature, the real TestService and the real sandbox running python3 on a scratch workspace.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "ProcFile.h"
#include "TestTime.h"
#include "lsp/Server.h"
#include "protocol/Uri.h"
#include "sandbox/Sandbox.h"
#include "support/TestClient.h"

using namespace greenlight;
using lsp::testing::TestClient;
using protocol::Json;
namespace fs = std::filesystem;

namespace {

const std::string kEmoji = "\xF0\x9F\x98\x80";
const std::string kCjk = "\xE6\xBC\xA2\xE5\xAD\x97";

// A scratch workspace (a .git marks its root), removed at the end.
struct Workspace {
  fs::path root;
  Workspace() {
    std::string tmpl = (fs::temp_directory_path() / "gl-runtests-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    root = tmpl;
    fs::create_directory(root / ".git");
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(root / name, std::ios::binary) << text;
    return (root / name).string();
  }
  std::string uri(const std::string& name) const { return protocol::uriFromPath((root / name).string()); }
};

Json progressCaps() { return Json{{"window", {{"workDoneProgress", true}}}}; }

// A generous sandbox time limit: a python start can take seconds on a loaded 2-core machine,
// and a run hitting the default 10 s limit would turn a test's expectation into "timeout".
void initialize(TestClient& c, const Workspace& w, Json options = Json::object(), int timeLimitSeconds = 120) {
  options["sandbox"]["timeLimitSeconds"] = timeLimitSeconds;
  c.initialize(progressCaps(), Json{{"rootUri", protocol::uriFromPath(w.root.string())}, {"initializationOptions", options}});
}

std::int64_t runTests(TestClient& c, const std::string& uri, std::optional<int> line = std::nullopt) {
  Json arg{{"uri", uri}};
  if (line) arg["position"] = {{"line", *line}, {"character", 0}};
  return c.send("workspace/executeCommand", {{"command", "greenlight.runTests"}, {"arguments", Json::array({arg})}});
}

// A run's response: a sandboxed python run can take seconds on a loaded 2-core machine.
Json waitLong(TestClient& c, std::int64_t id) {
  INFO("waiting for the response to request " << id);
  REQUIRE(c.pumpUntil([&] { return !c.responsesFor(id).empty(); }, std::chrono::seconds(90)));
  return c.responsesFor(id).front();
}

// The last publishDiagnostics for `uri` (null when none was sent), and how many there were.
Json lastDiagnostics(TestClient& c, const std::string& uri, std::size_t* count = nullptr) {
  Json last;
  std::size_t n = 0;
  for (auto& m : c.notifications("textDocument/publishDiagnostics")) {
    if (m["params"]["uri"] == uri) {
      last = m["params"];
      ++n;
    }
  }
  if (count) *count = n;
  return last;
}

std::size_t publishCount(TestClient& c, const std::string& uri) {
  std::size_t n = 0;
  lastDiagnostics(c, uri, &n);
  return n;
}

// Every $/progress value for the token of a run.
std::vector<Json> progressValues(TestClient& c, const Json& token) {
  std::vector<Json> out;
  for (auto& m : c.notifications("$/progress"))
    if (m["params"]["token"] == token) out.push_back(m["params"]["value"]);
  return out;
}

// Sandboxed test runs: descendants of this process whose command name starts with `prefix` and
// whose command line names the run's harness config (/work/.gl/config.json). That excludes the
// toolchain probe (run outside the sandbox) and the one-off compile of the python harness to
// bytecode (sandboxed too, but given the harness and no config), so a match is the test run
// itself however long anything takes. The sandboxed interpreter lives in its own PID
// namespace, but the host still sees it and its parent chain.
std::vector<int> descendants(const std::string& prefix) {
  std::map<int, int> parent;
  std::map<int, std::string> comm;
  DIR* d = opendir("/proc");
  if (!d) return {};
  while (dirent* e = readdir(d)) {
    int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::string s = gltest::readProcFile("/proc/" + std::to_string(pid) + "/stat");
    auto open = s.find('('), close = s.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(s.substr(close + 2));
    char state;
    int ppid = 0;
    rest >> state >> ppid;
    if (state == 'Z') continue;
    parent[pid] = ppid;
    comm[pid] = s.substr(open + 1, close - open - 1);
  }
  closedir(d);
  const int self = getpid();
  std::vector<int> out;
  for (auto& [pid, name] : comm) {
    if (name.rfind(prefix, 0) != 0) continue;
    std::string cmdline = gltest::readProcFile("/proc/" + std::to_string(pid) + "/cmdline");
    if (cmdline.find("/work/.gl/config.json") == std::string::npos) continue;
    for (int p = parent[pid], hops = 0; p > 1 && hops < 64; p = parent[p], ++hops) {
      if (p == self) {
        out.push_back(pid);
        break;
      }
    }
  }
  return out;
}

// Until the sandboxed test run's interpreter is alive.
bool waitForSandbox(TestClient& c) {
  return c.pumpUntil([] { return !descendants("python").empty(); }, std::chrono::seconds(90));
}

// Whether `pid` has a handler for SIGUSR1 (its SigCgt mask in /proc), i.e. a test module that
// waits for the signal has been imported and the signal will not kill the process.
bool catchesUsr1(int pid) {
  std::istringstream in(gltest::readProcFile("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
    return (mask >> (SIGUSR1 - 1)) & 1U;
  }
  return false;
}

const char* kSource = "def add(a, b):\n    return a - b\n";
const char* kTest =
    "from m import add\n"
    "\n"
    "\n"
    "def test_add():\n"
    "    assert add(2, 3) == 5\n"
    "\n"
    "\n"
    "def test_zero():\n"
    "    assert add(0, 0) == 0\n";

}  // namespace

TEST_CASE("a failing Python test: diagnostics in source and test file, progress, summary") {
  Workspace w;
  w.write("m.py", kSource);
  w.write("test_m.py", kTest);
  TestClient c;
  initialize(c, w);
  Json r = waitLong(c, runTests(c, w.uri("m.py")));
  INFO(r.dump());
  REQUIRE(r.contains("result"));
  CHECK(r["result"]["passed"] == 1);
  CHECK(r["result"]["failed"] == 1);
  CHECK(r["result"]["errors"] == 0);
  CHECK(r["result"]["skipped"] == 0);
  CHECK(r["result"]["cached"] == false);

  // The test file: the failing assertion (line 5), code test-failed.
  Json t = lastDiagnostics(c, w.uri("test_m.py"));
  INFO(t.dump());
  REQUIRE(t["diagnostics"].size() == 1);
  Json td = t["diagnostics"][0];
  CHECK(td["source"] == "greenlight");
  CHECK(td["code"] == "test-failed");
  CHECK(td["severity"] == 1);
  CHECK(td["range"]["start"] == Json{{"line", 4}, {"character", 4}});
  CHECK(td["range"]["end"] == Json{{"line", 4}, {"character", 25}});
  CHECK_THAT(td["message"].get<std::string>(), Catch::Contains("test_add"));
  CHECK(td["data"]["test"] == "test_add");
  CHECK(td["data"].contains("output"));

  // The source: the `return` that produced the wrong value (line 2), with the locals there,
  // related to the assertion and to the definition.
  Json s = lastDiagnostics(c, w.uri("m.py"));
  INFO(s.dump());
  REQUIRE(s["diagnostics"].size() == 1);
  Json sd = s["diagnostics"][0];
  CHECK(sd["code"] == "test-failed");
  CHECK(sd["range"]["start"] == Json{{"line", 1}, {"character", 4}});
  CHECK_THAT(sd["message"].get<std::string>(), Catch::Contains("add returned here with a=2, b=3"));
  REQUIRE(sd["relatedInformation"].size() == 2);
  CHECK(sd["relatedInformation"][0]["location"]["uri"] == w.uri("test_m.py"));
  CHECK(sd["relatedInformation"][0]["location"]["range"]["start"] == Json{{"line", 4}, {"character", 4}});
  CHECK(sd["relatedInformation"][1]["location"]["uri"] == w.uri("m.py"));
  CHECK(sd["relatedInformation"][1]["location"]["range"]["start"]["line"] == 0);
  CHECK(sd["data"]["test"] == "test_add");
  CHECK(sd["data"]["origin"]["line"] == 2);

  // Progress: begin, a report per finished test, end with the summary.
  auto begins = c.notifications("$/progress");
  REQUIRE_FALSE(begins.empty());
  Json token = begins.front()["params"]["token"];
  auto values = progressValues(c, token);
  REQUIRE(values.size() >= 4);
  CHECK(values.front()["kind"] == "begin");
  CHECK(values.front()["cancellable"] == true);
  std::set<std::string> reported;
  for (auto& v : values)
    if (v["kind"] == "report") reported.insert(v["message"].get<std::string>());
  CHECK(reported.count("test_add failed"));
  CHECK(reported.count("test_zero passed"));
  CHECK(values.back()["kind"] == "end");
  CHECK(values.back()["message"] == "1 passed, 1 failed");
}

TEST_CASE("unsaved fix + save: the run uses the editor's text and clears the diagnostics") {
  Workspace w;
  w.write("m.py", kSource);
  w.write("test_m.py", kTest);
  TestClient c;
  initialize(c, w);
  const std::string src = w.uri("m.py"), test = w.uri("test_m.py");
  c.notify("textDocument/didOpen", {{"textDocument", {{"uri", src}, {"languageId", "python"}, {"version", 1}, {"text", kSource}}}});
  Json r = waitLong(c, runTests(c, src));
  REQUIRE(r["result"]["failed"] == 1);
  REQUIRE(lastDiagnostics(c, src)["diagnostics"].size() == 1);
  CHECK(lastDiagnostics(c, src)["version"] == 1);
  REQUIRE(lastDiagnostics(c, test)["diagnostics"].size() == 1);

  // Fix it in the editor only: the file on disk keeps the bug.
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", src}, {"version", 2}}},
            {"contentChanges", {{{"range", {{"start", {{"line", 1}, {"character", 13}}}, {"end", {{"line", 1}, {"character", 14}}}}},
                                 {"text", "+"}}}}});
  const std::size_t before = publishCount(c, src);
  c.notify("textDocument/didSave", {{"textDocument", {{"uri", src}}}});
  REQUIRE(c.pumpUntil([&] { return publishCount(c, src) > before && publishCount(c, test) > 1; }, std::chrono::seconds(90)));
  Json s = lastDiagnostics(c, src);
  CHECK(s["diagnostics"].empty());
  CHECK(s["version"] == 2);
  CHECK(lastDiagnostics(c, test)["diagnostics"].empty());
  std::ifstream disk(w.root / "m.py");
  CHECK(std::string((std::istreambuf_iterator<char>(disk)), {}) == kSource);
}

TEST_CASE("saving a test file runs its source's tests, and runOnSave false does nothing") {
  Workspace w;
  w.write("m.py", kSource);
  w.write("test_m.py", kTest);
  TestClient c;
  initialize(c, w);
  c.notify("textDocument/didSave", {{"textDocument", {{"uri", w.uri("test_m.py")}}}});
  REQUIRE(c.pumpUntil([&] { return publishCount(c, w.uri("m.py")) > 0; }, std::chrono::seconds(90)));
  CHECK(lastDiagnostics(c, w.uri("m.py"))["diagnostics"].size() == 1);

  TestClient off;
  initialize(off, w, Json{{"runOnSave", false}});
  off.notify("textDocument/didSave", {{"textDocument", {{"uri", w.uri("m.py")}}}});
  off.pumpUntil([] { return false; }, std::chrono::milliseconds(800));
  CHECK(off.notifications("textDocument/publishDiagnostics").empty());
  CHECK(off.notifications("$/progress").empty());
}

TEST_CASE("opening a file with tests starts its interpreter ahead - the run on save takes it") {
  // As `greenlight lsp` does; the test process keeps no spares otherwise.
  sandbox::keepSpares(true);
  struct SparesOff {
    ~SparesOff() { sandbox::keepSpares(false); }
  } sparesOff;
  Workspace w;
  w.write("m.py", kSource);
  w.write("test_m.py", kTest);
  const std::string src = w.uri("m.py");
  const Json open{{"textDocument", {{"uri", src}, {"languageId", "python"}, {"version", 1}, {"text", kSource}}}};

  // warmInterpreters off: an open starts nothing ahead.
  TestClient cold;
  initialize(cold, w, Json{{"sandbox", {{"warmInterpreters", false}}}});
  const auto start = sandbox::spareStats();
  cold.notify("textDocument/didOpen", open);
  cold.pumpUntil([] { return false; }, std::chrono::milliseconds(1500));
  CHECK(sandbox::spareStats().warmBuilt == start.warmBuilt);

  TestClient c;
  initialize(c, w);
  const auto before = sandbox::spareStats();
  c.notify("textDocument/didOpen", open);
  // No run was asked for, yet the builder starts a Python interpreter for the run's shape.
  REQUIRE(c.pumpUntil([&] { return sandbox::spareStats().warmBuilt > before.warmBuilt; },
                      gltest::scaled(std::chrono::seconds(60))));
  const auto ready = sandbox::spareStats();
  CHECK(ready.warmUsed == before.warmUsed);
  c.notify("textDocument/didSave", {{"textDocument", {{"uri", src}}}});
  REQUIRE(c.pumpUntil([&] { return publishCount(c, src) > 0; }, std::chrono::seconds(90)));
  // The save's run went to that interpreter and reported what a cold run reports.
  CHECK(sandbox::spareStats().warmUsed == ready.warmUsed + 1);
  CHECK(sandbox::spareStats().warmFellBack == ready.warmFellBack);
  REQUIRE(lastDiagnostics(c, src)["diagnostics"].size() == 1);
  CHECK_THAT(lastDiagnostics(c, src)["diagnostics"][0]["message"].get<std::string>(),
             Catch::Contains("add returned here with a=2, b=3"));
}

TEST_CASE("$/cancelRequest kills the sandbox at once and answers -32800 exactly once") {
  // The test would sleep for 10 minutes and the sandbox allows 15: a python gone within the
  // (scaled) bound below was killed by the cancellation, not by its end or its time limit.
  Workspace w;
  w.write("slow.py", "def slow():\n    return 1\n");
  w.write("test_slow.py", "import time\nfrom slow import slow\n\ndef test_slow():\n    time.sleep(600)\n    assert slow() == 1\n");
  TestClient c;
  initialize(c, w, Json::object(), 900);
  const auto killed = std::chrono::seconds(60);

  SECTION("by $/cancelRequest") {
    auto id = runTests(c, w.uri("slow.py"));
    REQUIRE(waitForSandbox(c));
    c.notify("$/cancelRequest", {{"id", id}});
    REQUIRE(c.pumpUntil([&] { return !c.responsesFor(id).empty(); }, std::chrono::seconds(30)));
    CHECK(c.responsesFor(id)[0]["error"]["code"] == -32800);
    CHECK(c.pumpUntil([] { return descendants("python").empty(); }, killed));
  }
  SECTION("by window/workDoneProgress/cancel") {
    auto id = runTests(c, w.uri("slow.py"));
    REQUIRE(waitForSandbox(c));
    Json token = c.notifications("$/progress").front()["params"]["token"];
    c.notify("window/workDoneProgress/cancel", {{"token", token}});
    REQUIRE(c.pumpUntil([&] { return !c.responsesFor(id).empty(); }, std::chrono::seconds(30)));
    CHECK(c.responsesFor(id)[0]["error"]["code"] == -32800);
    CHECK(c.pumpUntil([] { return descendants("python").empty(); }, killed));
  }
  SECTION("by greenlight.cancel") {
    auto id = runTests(c, w.uri("slow.py"));
    REQUIRE(waitForSandbox(c));
    Json r = c.request("workspace/executeCommand", {{"command", "greenlight.cancel"}, {"arguments", Json::array()}});
    CHECK(r["result"]["cancelled"] == 1);
    REQUIRE(c.pumpUntil([&] { return !c.responsesFor(id).empty(); }, std::chrono::seconds(30)));
    CHECK(c.responsesFor(id)[0]["error"]["code"] == -32800);
    CHECK(c.pumpUntil([] { return descendants("python").empty(); }, killed));
  }
  // The progress ends when the killed run has been reaped, which can be after the -32800 (the
  // Server answers a cancelled request at once) and after python left the process table.
  const Json token = c.notifications("$/progress").front()["params"]["token"];
  CHECK(c.pumpUntil([&] {
    auto values = progressValues(c, token);
    return !values.empty() && values.back()["kind"] == "end";
  }, std::chrono::seconds(30)));
  // Exactly one response: a second one would come soon after the first.
  c.pumpUntil([] { return false; }, std::chrono::milliseconds(300));
  for (auto& m : c.received())
    if (m.contains("id") && !m.contains("method")) CHECK(c.responsesFor(m["id"]).size() == 1);
  CHECK(c.notifications("textDocument/publishDiagnostics").empty());
}

TEST_CASE("an identical rerun is answered from the cache") {
  Workspace w;
  w.write("m.py", kSource);
  w.write("test_m.py", kTest);
  TestClient c;
  initialize(c, w);
  Json first = waitLong(c, runTests(c, w.uri("m.py")));
  REQUIRE(first["result"]["cached"] == false);
  Json second = waitLong(c, runTests(c, w.uri("m.py")));
  CHECK(second["result"]["cached"] == true);
  CHECK(second["result"]["failed"] == 1);
  CHECK(second["result"]["passed"] == 1);
  CHECK(lastDiagnostics(c, w.uri("test_m.py"))["diagnostics"].size() == 1);
  auto ends = 0;
  for (auto& m : c.notifications("$/progress"))
    if (m["params"]["value"]["kind"] == "end" && m["params"]["value"]["message"] == "1 passed, 1 failed (cached)") ++ends;
  CHECK(ends == 1);
}

TEST_CASE("columns after emoji and CJK text are UTF-16 (and bytes for a UTF-8 client)") {
  Workspace w;
  // A SyntaxError whose offset (code points) lies after an emoji and two CJK characters.
  const std::string line = "s = \"" + kEmoji + kCjk + "\" + )";
  w.write("u.py", "def f():\n    return 1\n" + line + "\n");
  w.write("test_u.py", "from u import f\n\ndef test_f():\n    assert f() == 1\n");
  for (auto encoding : {std::string("utf-16"), std::string("utf-8")}) {
    TestClient c;
    c.initialize(Json{{"window", {{"workDoneProgress", true}}}, {"general", {{"positionEncodings", {encoding}}}}},
                 Json{{"rootUri", protocol::uriFromPath(w.root.string())},
                      {"initializationOptions", {{"sandbox", {{"timeLimitSeconds", 120}}}}}});
    Json r = waitLong(c, runTests(c, w.uri("u.py")));
    INFO(r.dump());
    Json s = lastDiagnostics(c, w.uri("u.py"));
    INFO(s.dump());
    REQUIRE(s["diagnostics"].size() >= 1);
    Json d = s["diagnostics"][0];
    CHECK(d["code"] == "compile-error");
    CHECK(d["range"]["start"]["line"] == 2);
    // ')' follows 12 code points: UTF-16 puts it at 13 (the emoji is two units), UTF-8 at 19.
    CHECK(d["range"]["start"]["character"] == (encoding == "utf-16" ? 13 : 19));
  }
}

TEST_CASE("runs for different files proceed in parallel") {
  // Each test waits (up to 100 s) for SIGUSR1, which the host sends only once both sandboxed
  // runs are alive and ready for it: runs made one after the other would never both be, and
  // how slow the machine is changes nothing.
  Workspace w;
  for (const std::string n : {"a", "b"}) {
    w.write(n + ".py", "def f():\n    return 1\n");
    w.write("test_" + n + ".py",
            "import signal, time\nfrom " + n + " import f\n\n"
            "released = []\nsignal.signal(signal.SIGUSR1, lambda *_: released.append(1))\n\n"
            "def test_f():\n"
            "    deadline = time.monotonic() + 100\n"
            "    while not released and time.monotonic() < deadline:\n"
            "        time.sleep(0.02)\n"
            "    assert released, 'no SIGUSR1: the other run never ran at the same time'\n"
            "    assert f() == 1\n");
  }
  TestClient c;
  initialize(c, w);
  auto a = runTests(c, w.uri("a.py"));
  auto b = runTests(c, w.uri("b.py"));
  bool overlapped = false;
  REQUIRE(c.pumpUntil(
      [&] {
        if (!overlapped) {
          auto both = descendants("python");
          if (both.size() >= 2 && std::all_of(both.begin(), both.end(), catchesUsr1)) {
            overlapped = true;
            for (int pid : both) ::kill(pid, SIGUSR1);
          }
        }
        return !c.responsesFor(a).empty() && !c.responsesFor(b).empty();
      },
      std::chrono::seconds(180)));
  CHECK(overlapped);
  INFO(c.responsesFor(a)[0].dump() << "\n" << c.responsesFor(b)[0].dump());
  CHECK(c.responsesFor(a)[0]["result"]["passed"] == 1);
  CHECK(c.responsesFor(b)[0]["result"]["passed"] == 1);
}

TEST_CASE("bad arguments answer -32602 naming the field") {
  Workspace w;
  w.write("m.py", kSource);
  TestClient c;
  initialize(c, w);
  auto call = [&](Json args) {
    return c.request("workspace/executeCommand", {{"command", "greenlight.runTests"}, {"arguments", args}});
  };
  auto message = [](const Json& r) { return r["error"]["message"].get<std::string>(); };
  Json r = call(Json::array());
  CHECK(r["error"]["code"] == -32602);
  CHECK_THAT(message(r), Catch::StartsWith("arguments[0]"));
  r = call(Json::array({5}));
  CHECK(r["error"]["code"] == -32602);
  r = call(Json::array({Json::object()}));
  CHECK(r["error"]["code"] == -32602);
  CHECK_THAT(message(r), Catch::Contains("uri"));
  r = call(Json::array({{{"uri", 5}}}));
  CHECK_THAT(message(r), Catch::Contains("uri"));
  r = call(Json::array({{{"uri", "http://example.com/m.py"}}}));
  CHECK(r["error"]["code"] == -32602);
  CHECK_THAT(message(r), Catch::Contains("uri"));
  r = call(Json::array({{{"uri", w.uri("nope.py")}}}));
  CHECK(r["error"]["code"] == -32602);
  CHECK_THAT(message(r), Catch::Contains("no such file"));
  r = call(Json::array({{{"uri", w.uri("m.py")}, {"position", {{"line", "x"}}}}}));
  CHECK(r["error"]["code"] == -32602);
  CHECK_THAT(message(r), Catch::Contains("position"));
  CHECK(c.notifications("$/progress").empty());
}

namespace {

std::size_t threadsOfThisProcess() {
  std::size_t n = 0;
  if (DIR* d = ::opendir("/proc/self/task")) {
    while (dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') ++n;
    ::closedir(d);
  }
  return n;
}

void oneSessionWithARun() {
  Workspace w;
  w.write("m.py", kSource);
  w.write("test_m.py", kTest);
  TestClient c;
  initialize(c, w);
  Json r = waitLong(c, runTests(c, w.uri("m.py")));
  REQUIRE(r.contains("result"));
  CHECK(r["result"]["failed"] == 1);
}

}  // namespace

TEST_CASE("a server with every feature leaves no thread behind when it is destroyed") {
  // A feature kept alive past its server (a reference cycle through the shared test board did
  // that) keeps its TestService workers too, and their callbacks then reach a destroyed server.
  oneSessionWithARun();  // process-wide helpers (if any) start here, not in the measured session
  const std::size_t before = threadsOfThisProcess();
  oneSessionWithARun();
  oneSessionWithARun();
  auto deadline = std::chrono::steady_clock::now() + gltest::scaled(std::chrono::seconds(10));
  while (threadsOfThisProcess() > before && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(threadsOfThisProcess() <= before);
}
