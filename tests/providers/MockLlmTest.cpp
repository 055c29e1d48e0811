// The provider layer against an outside peer: @dwmkerr/mock-llm, an OpenAI-compatible mock
// server written by others, installed by the providers_mockllm_install fixture. Exits 77 (ctest
// SKIP_RETURN_CODE) with the reason when node or the package is missing.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>

#include "Process.h"
#include "TestTime.h"
#include "core/providers/ChatClient.h"
#include "core/providers/Resolve.h"

using namespace greenlight::core::providers;
using namespace std::chrono_literals;

namespace {

int gPort = 0;

const char kConfig[] = R"YAML(streaming:
  chunkSize: 4
  chunkIntervalMs: 5
rules:
  - path: "/v1/chat/completions"
    method: "POST"
    match: "@"
    response:
      status: 200
      content: |
        {
          "id": "chatcmpl-{{timestamp}}",
          "object": "chat.completion",
          "model": "{{jmes request body.model}}",
          "choices": [{"message": {"role": "assistant", "content": "{{jmes request body.messages[-1].content}}"}, "finish_reason": "stop"}]
        }
  - path: "/v1/chat/completions"
    method: "POST"
    match: "contains(body.messages[-1].content, 'error-401')"
    response:
      status: 401
      content: '{"error": {"message": "Invalid API key", "type": "invalid_request_error", "code": "invalid_api_key"}}'
  - path: "/v1/chat/completions"
    method: "POST"
    match: "contains(body.messages[-1].content, 'error-503')"
    response:
      status: 503
      content: '{"error": {"message": "Service unavailable", "type": "server_error"}}'
  - path: "/v1/models"
    method: "GET"
    response:
      status: 200
      content: '{"object": "list", "data": [{"id": "mock-model", "object": "model", "owned_by": "mock"}]}'
)YAML";

Endpoint endpoint() {
  Endpoint ep;
  ep.name = "mock-llm";
  ep.baseUrl = "http://127.0.0.1:" + std::to_string(gPort) + "/v1";
  ep.model = "gpt-mock";
  ep.apiKey = "sk-mock";
  ep.timeoutSeconds = 20;
  ep.maxRetries = 1;
  return ep;
}

ChatRequest ask(const std::string& text, bool stream) {
  ChatRequest r;
  r.system = "echo";
  r.messages.push_back({"user", text});
  r.stream = stream;
  return r;
}

}  // namespace

TEST_CASE("mock-llm: a streamed reply arrives in several deltas and whole", "[providers][mockllm]") {
  ChatClient client;
  std::vector<std::string> deltas;
  auto r = client.complete(endpoint(), ask("def greet(name): return 'hi ' + name", true), {},
                           [&](std::string_view d) { deltas.emplace_back(d); });
  REQUIRE(r.ok());
  CHECK(r.text == "def greet(name): return 'hi ' + name");
  CHECK(deltas.size() > 3);  // 4-character chunks
  CHECK(r.finish == FinishReason::Stop);
}

TEST_CASE("mock-llm: a whole (non-streamed) reply", "[providers][mockllm]") {
  ChatClient client;
  auto r = client.complete(endpoint(), ask("print(42)", false));
  REQUIRE(r.ok());
  CHECK(r.text == "print(42)");
  CHECK(r.model == "gpt-mock");
  CHECK(r.finishRaw == "stop");
}

TEST_CASE("mock-llm: errors whole and inside a 200 stream", "[providers][mockllm]") {
  ChatClient client;
  auto whole = client.complete(endpoint(), ask("error-401", false));
  CHECK(whole.error.kind == ErrorKind::Auth);
  CHECK_THAT(whole.error.message, Catch::Contains("Invalid API key"));
  // mock-llm, like OpenAI, reports errors on a stream as a 200 with an error object.
  auto streamed = client.complete(endpoint(), ask("error-401", true));
  CHECK(streamed.error.kind == ErrorKind::StreamError);
  CHECK_THAT(streamed.error.message, Catch::Contains("Invalid API key"));
  auto unavailable = client.complete(endpoint(), ask("error-503", false));
  CHECK(unavailable.error.kind == ErrorKind::Server);
  CHECK(unavailable.attempts == 2);
}

TEST_CASE("mock-llm: many concurrent streams", "[providers][mockllm]") {
  ChatClient client;
  constexpr int kN = 6;
  std::vector<std::promise<ChatResult>> done(kN);
  for (int i = 0; i < kN; ++i) {
    ChatCallbacks cb;
    cb.onDone = [&, i](ChatResult r) { done[i].set_value(std::move(r)); };
    client.start(endpoint(), ask("request number " + std::to_string(i), true), cb);
  }
  for (int i = 0; i < kN; ++i) {
    auto f = done[i].get_future();
    REQUIRE(f.wait_for(gltest::scaled(60s)) == std::future_status::ready);
    auto r = f.get();
    REQUIRE(r.ok());
    CHECK(r.text == "request number " + std::to_string(i));
  }
}

TEST_CASE("mock-llm: provider resolution probes it and takes its model", "[providers][mockllm]") {
  auto probe = probeOpenAICompatible(endpoint().baseUrl, gltest::scaled(20s));
  CHECK(probe.answered);
  CHECK(probe.models == std::vector<std::string>{"mock-model"});
}

int main(int argc, char** argv) {
  std::string dir = GREENLIGHT_MOCKLLM_DIR;
  std::string mainJs = dir + "/node_modules/@dwmkerr/mock-llm/dist/main.js";
  std::string node = greenlight::test::findOnPath("node");
  if (node.empty()) {
    std::printf("SKIP: node is not on PATH; install nodejs to run the mock-llm tests\n");
    return 77;
  }
  if (::access(mainJs.c_str(), R_OK) != 0) {
    std::printf("SKIP: %s is missing; the providers_mockllm_install fixture (npm ci) did not install it\n",
                mainJs.c_str());
    return 77;
  }
  std::string config = dir + "/mock-llm.yaml";
  std::ofstream(config) << kConfig;
  gPort = greenlight::test::freePort();
  std::string log = dir + "/mock-llm.log";
  greenlight::test::BackgroundProcess server(
      {node, mainJs, "--config", config},
      {"HOST=127.0.0.1", "PORT=" + std::to_string(gPort), "PATH=/usr/bin:/bin", "NODE_ENV=test"}, log);
  // node loads some 120 packages before it listens: a second on an idle machine, over 20 s on
  // 2 cores at load 20. Wait for the port, or for the server to die, with a generous bound.
  const auto bound = gltest::scaled(180s);
  const auto deadline = std::chrono::steady_clock::now() + bound;
  bool listening = false;
  while (!(listening = greenlight::test::waitForPort(gPort, 1s)) && server.running() &&
         std::chrono::steady_clock::now() < deadline) {
  }
  if (!listening) {
    std::printf("FAIL: mock-llm %s on 127.0.0.1:%d; see %s\n",
                server.running() ? ("did not start listening within " + std::to_string(bound.count() / 1000) + " s").c_str()
                                 : "exited before listening",
                gPort, log.c_str());
    return 1;
  }
  int rc = Catch::Session().run(argc, argv);
  server.stop();
  return rc;
}
