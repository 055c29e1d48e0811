// The reply corpus end to end (tests/refine/replies, format: ReplyCorpus.h): for every case with
// `=== test:` files, a fresh workspace holding the user's file and those files, the scripted model
// answering the case's reply verbatim, and the real `greenlight generate FILE:LINE --json --apply
// --rounds 1`. Each must pass in that one round with exactly the case's tests run and passed
// (every test of its test files, and the doctest of the user's docstring when it has examples:
// the user's examples are tests too), leave the file as the case's `=== applied` says when it
// says, hold the candidate's `=== code` and keep the user's comment and docstring byte for byte. ReplyCorpusTest.cpp checks the extraction alone; this
// checks that what greenlight takes from each shape also runs, through the real sandbox and the
// real --apply.
//
// `=== fix:` cases: `greenlight generate` has no fix mode; they go through the LSP's
// greenlight.fix (the real `greenlight lsp --stdio`, the same scripted model), which is where
// a fix is asked for.
//
// Run time: one generate is ~0.5-2 s (C++ compiles), so the cases run on a few threads
// (GL_REPLY_E2E_JOBS, default 2) and each language is its own TEST_CASE for ctest to schedule.
// Catch2 is not thread-safe: the workers only collect failures; the test thread reports them.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "GenerateFixture.h"
#include "ReplyCorpus.h"
#include "core/refine/Target.h"
#include "core/refine/UserSpec.h"
#include "core/testing/Discovery.h"

using namespace greenlight::test::refine;
using namespace greenlight::test::replies;
using greenlight::core::testing::Language;
using nlohmann::json;

namespace rf = greenlight::core::refine;

namespace {

// Cases whose reply has no code to run: nothing could pass, so they carry no test.
const std::set<std::string> kNoCode = {"python/no_code.txt", "python/none_defines_target.txt"};

json always(const std::string& reply) { return {{"rules", json::array()}, {"default", {{"text", reply}}}}; }

std::string describe(const GenerateRun& r) {
  return "exit " + std::to_string(r.exitCode) + (r.timedOut ? " (killed at the bound)" : "") + "\nstdout:\n" + r.out +
         "\nstderr:\n" + r.err;
}

struct Outcome {
  std::string id;
  std::vector<std::string> failures;  // empty: the case passed end to end
  std::string detail;                 // what greenlight printed (or the LSP server said)
};

// The user's comment and docstring as greenlight sees them in the case's file.
struct Spec {
  std::string comment, docstring, error;
};

Spec userSpec(const ReplyCase& c) {
  Spec s;
  auto language = greenlight::core::testing::languageForPath("/ws/" + c.fileName);
  if (!language) {
    s.error = "no language for " + c.fileName;
    return s;
  }
  auto lookup = c.fix ? rf::findFixTarget(c.file, c.line, *language) : rf::findTarget(c.file, c.line, *language);
  if (!lookup.target) {
    s.error = "no target at line " + std::to_string(c.line) + ": " + lookup.error;
    return s;
  }
  s.comment = lookup.target->commentText;
  s.docstring = rf::userDocstring(*lookup.target);
  return s;
}

// How many tests the run must have passed: every test in the case's test files (each exercises
// the target, so greenlight's narrowing to the target's tests keeps them all), one per plain
// assert+main C++ file, plus the doctest of the user's docstring when it has examples. A test
// greenlight leaves out fails the count.
int expectedTests(const ReplyCase& c, const Spec& spec) {
  static const std::regex pyTest(R"(^def test_\w*\()"), jsTest(R"(^\s*(test|it)\s*\()"), cxxMain(R"(\bint\s+main\s*\()");
  int n = spec.docstring.find(">>>") != std::string::npos ? 1 : 0;
  for (const auto& [name, text] : c.tests) {
    const std::string ext = std::filesystem::path(name).extension().string();
    if (ext == ".cpp") {
      n += std::regex_search(text, cxxMain) ? 1 : 0;
      continue;
    }
    if (ext != ".py" && ext != ".js" && ext != ".mjs" && ext != ".cjs") continue;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) n += std::regex_search(l, ext == ".py" ? pyTest : jsTest) ? 1 : 0;
  }
  return n;
}

// The run's result passed exactly the case's tests.
void checkCounts(const ReplyCase& c, const Spec& spec, const json& result, std::vector<std::string>& failures) {
  const json& summary = result.contains("summary") ? result["summary"] : json();
  const int expected = expectedTests(c, spec);
  const int passed = summary.is_object() && summary["passed"].is_number() ? summary["passed"].get<int>() : -1;
  const int failed = summary.is_object() && summary["failed"].is_number() ? summary["failed"].get<int>() : -1;
  if (passed != expected || failed != 0)
    failures.push_back(std::to_string(passed) + " tests passed and " + std::to_string(failed) + " failed; the case holds " +
                       std::to_string(expected) +
                       (spec.docstring.find(">>>") != std::string::npos
                            ? ": " + std::to_string(expected - 1) + " in its test files and the doctest of the user's docstring"
                            : " in its test files"));
}

// What must hold of the file after the run, whichever way it ran.
void checkFile(const ReplyCase& c, const Spec& spec, const Workspace& ws, std::vector<std::string>& failures) {
  const std::string after = ws.read(c.fileName);
  if (c.hasApplied && after != c.applied)
    failures.push_back("the file after --apply differs from `=== applied`:\n--- got\n" + after + "--- expected\n" + c.applied);
  if (c.hasCode && !c.code.empty() && after.find(c.code) == std::string::npos)
    failures.push_back("the file after --apply does not hold `=== code`:\n" + after);
  if (!spec.comment.empty() && after.find(spec.comment) == std::string::npos)
    failures.push_back("the user's comment is not byte for byte in the file:\n" + spec.comment + "--- file\n" + after);
  if (!spec.docstring.empty() && after.find(spec.docstring) == std::string::npos)
    failures.push_back("the user's docstring is not byte for byte in the file:\n" + spec.docstring + "--- file\n" + after);
  std::vector<std::string> expected = {".greenlight.json", c.fileName};
  for (const auto& [name, text] : c.tests) expected.push_back(name);
  std::sort(expected.begin(), expected.end());
  if (ws.files() != expected) {
    std::string got;
    for (const auto& f : ws.files()) got += " " + f;
    failures.push_back("the workspace holds other files than the case's:" + got);
  }
}

void writeWorkspace(const ReplyCase& c, const Workspace& ws) {
  ws.write(c.fileName, c.file);
  for (const auto& [name, text] : c.tests) ws.write(name, text);
}

Outcome runGenerate(const ReplyCase& c) {
  Outcome o{c.id(), {}, {}};
  Spec spec = userSpec(c);
  if (!spec.error.empty()) {
    o.failures.push_back(spec.error);
    return o;
  }
  try {
    Workspace ws;
    writeWorkspace(c, ws);
    ScriptedModel model(always(c.reply));
    auto r = generate(ws, &model, {c.fileName + ":" + std::to_string(c.line), "--json", "--apply", "--rounds", "1"});
    const json& j = r.json;
    o.detail = describe(r);
    auto fail = [&](const std::string& what) { o.failures.push_back(what); };
    if (r.exitCode != 0) fail("greenlight generate did not pass");
    if (!j.is_object()) {
      fail("no JSON result");
      return o;
    }
    if (j.value("status", "") != "passed") fail("status is not passed");
    if (j.value("applied", false) != true) fail("not applied");
    if (candidateStatuses(j) != std::vector<std::vector<std::string>>{{"passed"}}) fail("not one round with one passing candidate");
    checkCounts(c, spec, j, o.failures);
    if (model.requests().size() != 1) fail("the model was asked " + std::to_string(model.requests().size()) + " times");
    checkFile(c, spec, ws, o.failures);
  } catch (const std::exception& e) {
    o.failures.push_back(std::string("exception: ") + e.what());
  }
  return o;
}

// ---- greenlight.fix through `greenlight lsp --stdio` ----

// A minimal LSP client over pipes: frames out, frames in, one message at a time.
class LspClient {
 public:
  LspClient(const std::vector<std::string>& env, const std::string& cwd) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    std::vector<std::string> argv = {GL_GREENLIGHT_BIN, "lsp", "--stdio"};
    std::vector<char*> cargv, cenv;
    for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    for (auto& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
    cenv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      int devnull = ::open("/dev/null", O_WRONLY);
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::dup2(devnull, 2);
      if (::chdir(cwd.c_str()) != 0) ::_exit(126);
      ::execve(cargv[0], cargv.data(), cenv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~LspClient() {
    if (to_ >= 0) ::close(to_);
    if (pid_ > 0) {
      for (int i = 0; i < 250 && ::waitpid(pid_, nullptr, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (::waitpid(pid_, nullptr, WNOHANG) == 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
      }
    }
    ::close(from_);
  }
  LspClient(const LspClient&) = delete;
  LspClient& operator=(const LspClient&) = delete;

  void send(const json& message) {
    const std::string body = message.dump();
    const std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    std::size_t done = 0;
    while (done < frame.size()) {
      ssize_t n = ::write(to_, frame.data() + done, frame.size() - done);
      if (n <= 0) throw std::runtime_error("the server closed its input");
      done += static_cast<std::size_t>(n);
    }
  }
  // The next message, or null once `deadline` passed or the server closed its output.
  json next(std::chrono::steady_clock::time_point deadline) {
    for (;;) {
      auto header = buffer_.find("\r\n\r\n");
      if (header != std::string::npos) {
        auto at = buffer_.find("Content-Length:");
        if (at == std::string::npos || at > header) throw std::runtime_error("a frame without Content-Length");
        std::size_t length = std::stoul(buffer_.substr(at + 15, header - at - 15));
        if (buffer_.size() >= header + 4 + length) {
          json m = json::parse(buffer_.substr(header + 4, length));
          buffer_.erase(0, header + 4 + length);
          return m;
        }
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) return nullptr;
      pollfd fd{from_, POLLIN, 0};
      if (::poll(&fd, 1, static_cast<int>(std::min<long long>(left, 200))) <= 0) continue;
      char buf[65536];
      ssize_t n = ::read(from_, buf, sizeof buf);
      if (n <= 0) return nullptr;
      buffer_.append(buf, static_cast<std::size_t>(n));
    }
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffer_;
};

std::string fileUri(const std::string& path) { return "file://" + path; }

std::string languageId(const std::string& fileName) {
  const std::string ext = std::filesystem::path(fileName).extension().string();
  return ext == ".py" ? "python" : ext == ".js" || ext == ".mjs" || ext == ".cjs" ? "javascript" : "cpp";
}

// Offsets of LSP positions (UTF-16 code units; the corpus is ASCII) in `text`.
std::size_t offsetOf(const std::string& text, const json& position) {
  std::size_t line = position["line"].get<std::size_t>(), offset = 0;
  for (std::size_t l = 0; l < line && offset < text.size(); ++l) {
    auto nl = text.find('\n', offset);
    offset = nl == std::string::npos ? text.size() : nl + 1;
  }
  return std::min(text.size(), offset + position["character"].get<std::size_t>());
}

// Applies a WorkspaceEdit's edits for `uri` (documentChanges or changes) to `text`.
std::string applyEdit(std::string text, const json& edit, const std::string& uri) {
  std::vector<json> edits;
  if (edit.contains("documentChanges")) {
    for (const auto& dc : edit["documentChanges"])
      if (dc.contains("textDocument") && dc["textDocument"]["uri"] == uri)
        for (const auto& e : dc["edits"]) edits.push_back(e);
  } else if (edit.contains("changes") && edit["changes"].contains(uri)) {
    for (const auto& e : edit["changes"][uri]) edits.push_back(e);
  }
  // From the last to the first, so earlier offsets stay valid.
  std::sort(edits.begin(), edits.end(), [&](const json& a, const json& b) {
    return offsetOf(text, a["range"]["start"]) > offsetOf(text, b["range"]["start"]);
  });
  for (const auto& e : edits) {
    std::size_t begin = offsetOf(text, e["range"]["start"]), end = offsetOf(text, e["range"]["end"]);
    text.replace(begin, end - begin, e["newText"].get<std::string>());
  }
  return text;
}

Outcome runFix(const ReplyCase& c) {
  Outcome o{c.id(), {}, {}};
  Spec spec = userSpec(c);
  if (!spec.error.empty()) {
    o.failures.push_back(spec.error);
    return o;
  }
  std::string transcript;  // what the server said, for the failure message
  try {
    Workspace ws;
    writeWorkspace(c, ws);
    ScriptedModel model(always(c.reply));
    std::vector<std::string> env = {"PATH=" + std::string(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin"),
                                    "HOME=" + std::string(std::getenv("HOME") ? std::getenv("HOME") : "/tmp"),
                                    "XDG_CACHE_HOME=" + std::string(GL_TEST_CACHE_DIR), "GREENLIGHT_PROVIDER=openai",
                                    "OPENAI_BASE_URL=" + model.baseUrl(), std::string("OPENAI_API_KEY=") + kApiKey,
                                    "GREENLIGHT_MODEL=scripted"};
    for (const char* keep : {"PYENV_ROOT", "PYENV_VERSION", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"})
      if (const char* v = std::getenv(keep)) env.push_back(std::string(keep) + "=" + v);
    LspClient lsp(env, ws.root());
    const std::string uri = fileUri(ws.path(c.fileName));
    lsp.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
              {"params", {{"processId", nullptr},
                          {"workspaceFolders", json::array({{{"uri", fileUri(ws.root())}, {"name", "ws"}}})},
                          {"capabilities", {{"workspace", {{"applyEdit", true}, {"workspaceEdit", {{"documentChanges", true}}}}}}}}}});
    lsp.send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
    lsp.send({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
              {"params", {{"textDocument", {{"uri", uri}, {"languageId", languageId(c.fileName)}, {"version", 1}, {"text", c.file}}}}}});
    json fixArgs = {{"uri", uri}, {"position", {{"line", c.line - 1}, {"character", 4}}}, {"rounds", 1}};
    json fix = {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "workspace/executeCommand"}};
    fix["params"] = {{"command", "greenlight.fix"}, {"arguments", json::array({fixArgs})}};
    lsp.send(fix);
    const auto deadline = std::chrono::steady_clock::now() + scaled(std::chrono::seconds(180));
    std::string text = c.file;
    bool edited = false;
    json result;
    while (result.is_null()) {
      json m = lsp.next(deadline);
      if (m.is_null()) {
        o.failures.push_back("no reply to greenlight.fix within the bound");
        break;
      }
      transcript += m.dump() + "\n";
      if (m.contains("method") && m.contains("id")) {  // a request of the server's
        json reply = {{"jsonrpc", "2.0"}, {"id", m["id"]}, {"result", nullptr}};
        if (m["method"] == "workspace/applyEdit") {
          text = applyEdit(text, m["params"]["edit"], uri);
          edited = true;
          reply["result"] = {{"applied", true}};
        }
        lsp.send(reply);
      } else if (m.contains("id") && m["id"] == 2) {
        result = m.contains("result") ? m["result"] : json{{"error", m.value("error", json())}};
      }
    }
    lsp.send({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "shutdown"}});
    lsp.send({{"jsonrpc", "2.0"}, {"method", "exit"}});
    if (!result.is_null()) {
      if (result.value("status", "") != "passed") o.failures.push_back("greenlight.fix did not pass: " + result.dump());
      if (result.value("applied", false) != true || !edited) o.failures.push_back("greenlight.fix applied no edit");
      checkCounts(c, spec, result, o.failures);
    }
    // The client saves what the edit made of the document: then the file's checks hold as for --apply.
    ws.write(c.fileName, text);
    if (model.requests().size() != 1) o.failures.push_back("the model was asked " + std::to_string(model.requests().size()) + " times");
    checkFile(c, spec, ws, o.failures);
  } catch (const std::exception& e) {
    o.failures.push_back(std::string("exception: ") + e.what());
  }
  o.detail = "the server said:\n" + transcript;
  return o;
}

int jobs() {
  const char* v = std::getenv("GL_REPLY_E2E_JOBS");
  int n = v ? std::atoi(v) : 2;
  return std::max(1, std::min(n, 8));
}

// Every case of `language` with tests, run on jobs() threads; the failures reported here.
void runLanguage(const std::string& language, std::size_t atLeast) {
  std::vector<ReplyCase> cases;
  for (const auto& path : corpusFiles()) {
    if (path.parent_path().filename() != language) continue;
    ReplyCase c = parseCase(path);
    INFO("case " << c.id());
    if (c.tests.empty()) {
      // Every case whose code can run carries a test; only replies without code go without.
      CHECK(kNoCode.count(c.id()) == 1);
      continue;
    }
    cases.push_back(std::move(c));
  }
  REQUIRE(cases.size() >= atLeast);
  std::vector<Outcome> outcomes(cases.size());
  std::atomic<std::size_t> nextCase{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < jobs(); ++w) {
    workers.emplace_back([&] {
      for (std::size_t i = nextCase++; i < cases.size(); i = nextCase++)
        outcomes[i] = cases[i].fix ? runFix(cases[i]) : runGenerate(cases[i]);
    });
  }
  for (auto& t : workers) t.join();
  std::size_t passed = 0;
  for (const auto& o : outcomes) {
    if (o.failures.empty()) {
      ++passed;
      continue;
    }
    std::string why;
    for (const auto& f : o.failures) why += "- " + f + "\n";
    FAIL_CHECK("case " << o.id << " failed end to end:\n" << why << o.detail);
  }
  CHECK(passed == cases.size());
}

}  // namespace

TEST_CASE("reply corpus end to end: python", "[refine][e2e][replies]") { runLanguage("python", 30); }

TEST_CASE("reply corpus end to end: javascript", "[refine][e2e][replies]") { runLanguage("javascript", 19); }

TEST_CASE("reply corpus end to end: c++", "[refine][e2e][replies]") { runLanguage("cpp", 17); }
