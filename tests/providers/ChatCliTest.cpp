// `greenlight chat` end to end: the real binary against the fake provider on 127.0.0.1.
#include <catch2/catch.hpp>

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>

#include "FakeServer.h"
#include "Process.h"
#include "TestTime.h"

using greenlight::test::FakeResponse;
using greenlight::test::FakeServer;
using greenlight::test::runProcess;
using namespace std::chrono_literals;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/greenlight-chat-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

// Only what the test says: nothing of the caller's environment leaks in (no real keys).
std::vector<std::string> envFor(const FakeServer& server, std::vector<std::string> extra = {}) {
  std::vector<std::string> env = {"PATH=/usr/bin:/bin", "HOME=/tmp", "GREENLIGHT_PROVIDER=openai",
                                  "OPENAI_BASE_URL=" + server.url("/v1"), "OPENAI_API_KEY=sk-cli-SECRET-999",
                                  "GREENLIGHT_MODEL=fake-model"};
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

greenlight::test::ProcessResult chat(const std::vector<std::string>& args, const std::vector<std::string>& env,
                                     const std::string& cwd) {
  std::vector<std::string> argv = {GREENLIGHT_BIN_PATH, "chat"};
  argv.insert(argv.end(), args.begin(), args.end());
  return runProcess(argv, env, cwd, 30s);
}

}  // namespace

TEST_CASE("chat streams the reply to stdout and exits 0", "[providers][cli]") {
  FakeServer server;
  TempDir dir;
  server.enqueue(FakeResponse::sse(greenlight::test::openaiStream({"Hello", " from", " the fake"}), 5));
  auto r = chat({"--usage", "say", "hello"}, envFor(server), dir.path);
  CHECK(r.exitCode == 0);
  CHECK(r.out == "Hello from the fake\n");
  CHECK_THAT(r.err, Catch::Contains("finish stop") && Catch::Contains("11 input"));
  auto req = server.requests().at(0);
  CHECK(req.json()["messages"][0]["content"] == "say hello");
  CHECK(req.headers["authorization"] == "Bearer sk-cli-SECRET-999");
}

TEST_CASE("chat: Anthropic through --provider and --base-url - prompt from stdin", "[providers][cli]") {
  FakeServer server;
  TempDir dir;
  server.enqueue(FakeResponse::sse(greenlight::test::anthropicStream({"Bonjour"})));
  auto argv = std::vector<std::string>{GREENLIGHT_BIN_PATH, "chat", "--provider", "anthropic", "--base-url",
                                       server.url(""), "--model", "claude-x", "--system", "be brief", "-"};
  auto r = runProcess(argv, {"PATH=/usr/bin:/bin", "ANTHROPIC_API_KEY=sk-ant-cli"}, dir.path, 30s, {}, 0,
                      "translate hello\n");
  CHECK(r.exitCode == 0);
  CHECK(r.out == "Bonjour\n");
  auto req = server.requests().at(0);
  CHECK(req.path == "/v1/messages");
  CHECK(req.json()["model"] == "claude-x");
  CHECK(req.json()["system"] == "be brief");
  CHECK(req.json()["messages"][0]["content"] == "translate hello\n");
  CHECK(req.headers["x-api-key"] == "sk-ant-cli");
}

TEST_CASE("chat: a provider error goes to stderr with exit 1 without the key", "[providers][cli]") {
  FakeServer server;
  TempDir dir;
  server.enqueue(FakeResponse::status(401, R"({"error":{"message":"Incorrect API key provided"}})"));
  auto r = chat({"hi"}, envFor(server), dir.path);
  CHECK(r.exitCode == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::StartsWith("greenlight chat: openai-compatible (" + server.url("/v1/chat/completions")) &&
                        Catch::Contains("authentication failed") && Catch::Contains("$OPENAI_API_KEY"));
  CHECK_THAT(r.err, !Catch::Contains("SECRET"));

  // A 429 then success: the retry is announced on stderr, the reply still arrives.
  server.enqueue(FakeResponse::status(429, "{}", {{"retry-after-ms", "50"}}));
  server.enqueue(FakeResponse::sse(greenlight::test::openaiStream({"ok"})));
  auto s = chat({"hi"}, envFor(server), dir.path);
  CHECK(s.exitCode == 0);
  CHECK(s.out == "ok\n");
  CHECK_THAT(s.err, Catch::Contains("retrying in 0.1 s") && Catch::Contains("HTTP 429"));
}

TEST_CASE("chat: Ctrl-C stops a streaming reply at once", "[providers][cli]") {
  FakeServer server;
  TempDir dir;
  FakeResponse r = FakeResponse::sseHead();
  r.chunk(greenlight::test::openaiDelta("partial answer"));
  r.hold();
  server.enqueue(r);
  std::vector<std::string> argv = {GREENLIGHT_BIN_PATH, "chat", "write", "a", "poem"};
  auto res = runProcess(
      argv, envFor(server), dir.path, 30s,
      [](const std::string& out, const std::string&) { return out.find("partial answer") != std::string::npos; },
      SIGINT);
  CHECK(res.exitCode == 130);
  CHECK_THAT(res.out, Catch::StartsWith("partial answer"));
  CHECK_THAT(res.err, Catch::Contains("interrupted"));
  CHECK(server.waitForDisconnect(gltest::scaled(30s)));
  // A figure, not a timing assertion: the held reply never ends by itself, so exit code 130
  // is what shows SIGINT stopped it.
  WARN("SIGINT -> greenlight chat exited in " << res.afterTrigger.count() << " ms");
}

TEST_CASE("chat: usage errors exit 2 - no server no provider no libcurl exit 1", "[providers][cli]") {
  FakeServer server;
  TempDir dir;
  CHECK(chat({}, envFor(server), dir.path).exitCode == 2);
  CHECK(chat({"--provider", "bogus", "hi"}, envFor(server), dir.path).exitCode == 2);
  CHECK(chat({"--max-tokens", "zero", "hi"}, envFor(server), dir.path).exitCode == 2);
  auto help = chat({"--help"}, envFor(server), dir.path);
  CHECK(help.exitCode == 0);
  CHECK_THAT(help.out, Catch::Contains("--provider P"));

  int closed;
  {
    FakeServer gone;
    closed = gone.port();
  }
  auto refused = chat({"--base-url", "http://127.0.0.1:" + std::to_string(closed) + "/v1", "hi"}, envFor(server), dir.path);
  CHECK(refused.exitCode == 1);
  CHECK_THAT(refused.err, Catch::Contains("no LLM server at that URL"));

  auto none = runProcess({GREENLIGHT_BIN_PATH, "chat", "hi"},
                         {"PATH=/usr/bin:/bin", "OLLAMA_HOST=127.0.0.1:" + std::to_string(closed)}, dir.path, 30s);
  CHECK(none.exitCode == 1);
  CHECK_THAT(none.err, Catch::Contains("no LLM provider") && Catch::Contains("hint:"));

  auto nokey = runProcess({GREENLIGHT_BIN_PATH, "chat", "--provider", "openai", "hi"}, {"PATH=/usr/bin:/bin"},
                          dir.path, 30s);
  CHECK(nokey.exitCode == 1);
  CHECK_THAT(nokey.err, Catch::Contains("$OPENAI_API_KEY is not set"));

  auto nolib = chat({"hi"}, envFor(server, {"GREENLIGHT_LIBCURL=/nonexistent/libcurl.so.4"}), dir.path);
  CHECK(nolib.exitCode == 1);
  CHECK_THAT(nolib.err, Catch::Contains("cannot load libcurl") && Catch::Contains("apt-get install libcurl4"));

  // A broken .greenlight.json is a configuration error.
  {
    FILE* f = std::fopen((dir.path + "/.greenlight.json").c_str(), "w");
    std::fputs("{\"maxTokens\": \"lots\"}", f);
    std::fclose(f);
  }
  auto bad = chat({"hi"}, envFor(server), dir.path);
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.err, Catch::Contains("greenlight.maxTokens"));
}
