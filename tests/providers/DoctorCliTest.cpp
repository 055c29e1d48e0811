// `greenlight doctor` end to end against the fake provider.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <sstream>

#include "FakeServer.h"
#include "Process.h"

using greenlight::test::FakeResponse;
using greenlight::test::FakeServer;
using greenlight::test::runProcess;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Every WARN/FAIL line is followed by a hint line; the exit code is 1 exactly when a FAIL shows.
void checkShape(const greenlight::test::ProcessResult& r) {
  auto ls = lines(r.out);
  bool anyFail = false;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    INFO(r.out);
    if (ls[i].rfind("      hint: ", 0) == 0) continue;
    bool ok = ls[i].rfind("OK    ", 0) == 0, warn = ls[i].rfind("WARN  ", 0) == 0, fail = ls[i].rfind("FAIL  ", 0) == 0;
    CHECK((ok || warn || fail));
    anyFail = anyFail || fail;
    if (warn || fail) {
      REQUIRE(i + 1 < ls.size());
      CHECK(ls[i + 1].rfind("      hint: ", 0) == 0);
    }
  }
  CHECK(r.exitCode == (anyFail ? 1 : 0));
  for (const char* check : {"sandbox: ", "python: ", "node: ", "g++: ", "libcurl: ", "provider: ", "provider reachable: "})
    CHECK_THAT(r.out, Catch::Contains(check));
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/greenlight-doctor-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("doctor: a reachable provider - which source won - a 1-token request", "[providers][cli][doctor]") {
  FakeServer server;
  TempDir dir;
  server.enqueue(FakeResponse::status(
      200, R"J({"model":"fake-model","choices":[{"index":0,"message":{"role":"assistant","content":"OK"},"finish_reason":"length"}]})J"));
  auto r = runProcess({GREENLIGHT_BIN_PATH, "doctor"},
                      {"PATH=/usr/bin:/bin", "HOME=/tmp", "GREENLIGHT_PROVIDER=openai", "OPENAI_BASE_URL=" + server.url("/v1"),
                       "OPENAI_API_KEY=sk-doc-SECRET", "GREENLIGHT_MODEL=fake-model"},
                      dir.path, 60s);
  checkShape(r);
  CHECK_THAT(r.out, Catch::Contains("OK    provider: openai-compatible fake-model at " + server.url("/v1") +
                                    " (source: provider \"openai\" (GREENLIGHT_PROVIDER in the environment))"));
  CHECK_THAT(r.out, Catch::Contains("OK    provider reachable: a 1-token request answered in"));
  CHECK_THAT(r.out, Catch::Contains("OK    python: /usr/bin/python3") || Catch::Contains("OK    python: /usr/bin/python3."));
  CHECK_THAT(r.out, !Catch::Contains("SECRET"));
  auto req = server.requests().at(0);
  CHECK(req.json()["max_tokens"] == 1);
  CHECK(req.json()["stream"] == false);
}

TEST_CASE("doctor: a key the provider refuses is a FAIL with a hint", "[providers][cli][doctor]") {
  FakeServer server;
  TempDir dir;
  server.enqueue(FakeResponse::status(401, R"({"error":{"message":"bad key"}})"));
  auto r = runProcess({GREENLIGHT_BIN_PATH, "doctor"},
                      {"PATH=/usr/bin:/bin", "ANTHROPIC_API_KEY=sk-x", "GREENLIGHT_BASE_URL=" + server.url(""),
                       "GREENLIGHT_PROVIDER=anthropic"},
                      dir.path, 60s);
  checkShape(r);
  CHECK(r.exitCode == 1);
  CHECK_THAT(r.out, Catch::Contains("FAIL  provider reachable: anthropic (" + server.url("/v1/messages") +
                                    "): authentication failed"));
  CHECK_THAT(r.out, Catch::Contains("hint: export ANTHROPIC_API_KEY with a valid key"));
}

TEST_CASE("doctor: no provider anywhere is a WARN - --offline skips the request", "[providers][cli][doctor]") {
  TempDir dir;
  int closed;
  {
    FakeServer gone;
    closed = gone.port();
  }
  auto r = runProcess({GREENLIGHT_BIN_PATH, "doctor"}, {"PATH=/usr/bin:/bin", "OLLAMA_HOST=127.0.0.1:" + std::to_string(closed)},
                      dir.path, 60s);
  checkShape(r);
  CHECK_THAT(r.out, Catch::Contains("WARN  provider: none configured"));
  CHECK_THAT(r.out, Catch::Contains("WARN  provider reachable: skipped: no provider"));

  FakeServer server;
  auto o = runProcess({GREENLIGHT_BIN_PATH, "doctor", "--offline"},
                      {"PATH=/usr/bin:/bin", "OPENAI_API_KEY=k", "OPENAI_BASE_URL=" + server.url("/v1"), "GREENLIGHT_MODEL=m"},
                      dir.path, 60s);
  checkShape(o);
  CHECK_THAT(o.out, Catch::Contains("WARN  provider reachable: skipped (--offline)"));
  CHECK(server.requestCount() == 0);
  CHECK(runProcess({GREENLIGHT_BIN_PATH, "doctor", "--bogus"}, {"PATH=/usr/bin:/bin"}, dir.path, 30s).exitCode == 2);
}
