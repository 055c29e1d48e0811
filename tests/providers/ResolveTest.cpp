// provider: auto and explicit providers (DESIGN.md "Configuration"), with a fake probe.
#include <catch2/catch.hpp>

#include "core/config/Config.h"
#include "core/providers/Resolve.h"

using namespace greenlight::core;
using namespace greenlight::core::providers;

namespace {

struct Setup {
  std::map<std::string, std::string> env;
  nlohmann::json file = nlohmann::json::object();
  nlohmann::json client = nlohmann::json::object();
  std::map<std::string, ProbeResult> answering;  // base URL -> result
  std::vector<std::string> probed;

  ResolvedProvider resolve() {
    ConfigLayers layers;
    layers.setEnvironment(env);
    layers.set(ConfigLayers::WorkspaceFile, file);
    layers.set(ConfigLayers::Client, client);
    std::string error;
    auto config = layers.resolve(&error);
    REQUIRE(config);
    ResolveOptions o;
    o.probe = [this](const std::string& url, std::chrono::milliseconds) {
      probed.push_back(url);
      auto it = answering.find(url);
      if (it != answering.end()) return it->second;
      ProbeResult r;
      r.detail = "connection refused";
      return r;
    };
    o.getenv = [this](const std::string& name) -> std::optional<std::string> {
      auto it = env.find(name);
      return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    return resolveProvider(*config, o);
  }
};

ProbeResult answers(std::vector<std::string> models) {
  ProbeResult r;
  r.answered = true;
  r.models = std::move(models);
  return r;
}

}  // namespace

TEST_CASE("nothing configured and nothing local: none with a hint", "[providers][resolve]") {
  Setup s;
  auto r = s.resolve();
  CHECK_FALSE(r.found);
  CHECK(r.source == "none");
  CHECK_THAT(r.hint, Catch::Contains("OPENAI_API_KEY") && Catch::Contains("ollama serve"));
  CHECK(s.probed == std::vector<std::string>{"http://127.0.0.1:11434/v1", "http://127.0.0.1:8080/v1"});
  CHECK(r.tried.size() == 2);
}

TEST_CASE("a key in the environment wins over local servers", "[providers][resolve]") {
  Setup s;
  s.env["OPENAI_API_KEY"] = "sk-1";
  s.answering["http://127.0.0.1:11434/v1"] = answers({"llama3"});
  auto r = s.resolve();
  REQUIRE(r.found);
  CHECK(r.endpoint.name == "openai");
  CHECK(r.endpoint.protocol == Protocol::OpenAIChat);
  CHECK(r.endpoint.baseUrl == kOpenAIDefaultBaseUrl);
  CHECK(r.endpoint.model == kOpenAIDefaultModel);
  CHECK(r.endpoint.apiKey == "sk-1");
  CHECK(r.endpoint.apiKeyEnv == "OPENAI_API_KEY");
  CHECK(r.source == "OPENAI_API_KEY in the environment");
  CHECK(s.probed.empty());
  CHECK(r.problem.empty());

  s.env.erase("OPENAI_API_KEY");
  s.env["ANTHROPIC_API_KEY"] = "sk-ant";
  auto a = s.resolve();
  CHECK(a.endpoint.protocol == Protocol::AnthropicMessages);
  CHECK(a.endpoint.baseUrl == kAnthropicDefaultBaseUrl);
  CHECK(a.endpoint.apiKey == "sk-ant");
  CHECK(a.source == "ANTHROPIC_API_KEY in the environment");
}

TEST_CASE("both keys: OpenAI unless the model is a Claude", "[providers][resolve]") {
  Setup s;
  s.env["OPENAI_API_KEY"] = "sk-1";
  s.env["ANTHROPIC_API_KEY"] = "sk-2";
  CHECK(s.resolve().endpoint.name == "openai");
  s.env["GREENLIGHT_MODEL"] = "claude-opus-4";
  auto r = s.resolve();
  CHECK(r.endpoint.name == "anthropic");
  CHECK(r.endpoint.model == "claude-opus-4");
}

TEST_CASE("OPENAI_BASE_URL goes with OPENAI_API_KEY", "[providers][resolve]") {
  Setup s;
  s.env["OPENAI_API_KEY"] = "k";
  s.env["OPENAI_BASE_URL"] = "http://localhost:9999/v1";
  s.env["GREENLIGHT_MODEL"] = "qwen";
  auto r = s.resolve();
  CHECK(r.endpoint.baseUrl == "http://localhost:9999/v1");
  CHECK(r.endpoint.name == "openai-compatible");
  CHECK_THAT(r.source, Catch::Contains("OPENAI_BASE_URL"));
}

TEST_CASE("explicit settings win over keys: baseUrl provider apiKeyEnv - layer precedence", "[providers][resolve]") {
  Setup s;
  s.env["OPENAI_API_KEY"] = "sk-env";
  s.file = {{"baseUrl", "http://127.0.0.1:1234/v1"}, {"model", "local-model"}};
  auto r = s.resolve();
  REQUIRE(r.found);
  CHECK(r.endpoint.baseUrl == "http://127.0.0.1:1234/v1");
  CHECK(r.endpoint.name == "openai-compatible");
  CHECK(r.endpoint.model == "local-model");
  CHECK(r.source == "greenlight.baseUrl in .greenlight.json");

  // GREENLIGHT_BASE_URL is the environment layer, below the file.
  s.env["GREENLIGHT_BASE_URL"] = "http://127.0.0.1:5555/v1";
  CHECK(s.resolve().endpoint.baseUrl == "http://127.0.0.1:1234/v1");
  s.file = nlohmann::json::object();
  s.env["GREENLIGHT_MODEL"] = "m";
  auto e = s.resolve();
  CHECK(e.endpoint.baseUrl == "http://127.0.0.1:5555/v1");
  CHECK(e.source == "GREENLIGHT_BASE_URL in the environment");

  // workspace/configuration beats everything.
  s.client = {{"provider", "anthropic"}, {"apiKeyEnv", "MY_CLAUDE_KEY"}, {"baseUrl", nullptr}};
  s.env.erase("GREENLIGHT_BASE_URL");
  s.env["MY_CLAUDE_KEY"] = "sk-mine";
  auto a = s.resolve();
  CHECK(a.endpoint.name == "anthropic");
  CHECK(a.endpoint.apiKey == "sk-mine");
  CHECK(a.endpoint.apiKeyEnv == "MY_CLAUDE_KEY");
  CHECK(a.source == "provider \"anthropic\" (greenlight.provider in workspace/configuration)");

  s.client = {{"apiKeyEnv", "MY_CLAUDE_KEY"}};
  s.env.erase("OPENAI_API_KEY");
  auto k = s.resolve();
  CHECK(k.endpoint.name == "anthropic");
  CHECK_THAT(k.source, Catch::Contains("apiKeyEnv=MY_CLAUDE_KEY"));
}

TEST_CASE("an explicit official provider without its key reports the missing variable", "[providers][resolve]") {
  Setup s;
  s.env["GREENLIGHT_PROVIDER"] = "openai";
  auto r = s.resolve();
  REQUIRE(r.found);
  CHECK(r.problem == "$OPENAI_API_KEY is not set");
  CHECK_THAT(r.hint, Catch::Contains("export OPENAI_API_KEY"));
  CHECK(r.source == "provider \"openai\" (GREENLIGHT_PROVIDER in the environment)");
}

TEST_CASE("local servers: Ollama first then llama.cpp - model from the server's list", "[providers][resolve]") {
  Setup s;
  s.answering["http://127.0.0.1:8080/v1"] = answers({"qwen2.5-coder-7b.gguf"});
  auto r = s.resolve();
  REQUIRE(r.found);
  CHECK(r.endpoint.name == "llama.cpp");
  CHECK(r.endpoint.baseUrl == "http://127.0.0.1:8080/v1");
  CHECK(r.endpoint.model == "qwen2.5-coder-7b.gguf");
  CHECK(r.endpoint.apiKey.empty());
  CHECK_THAT(r.source, Catch::Contains("llama.cpp"));

  s.answering["http://127.0.0.1:11434/v1"] = answers({"llama3.2:latest", "qwen"});
  auto o = s.resolve();
  CHECK(o.endpoint.name == "ollama");
  CHECK(o.endpoint.model == "llama3.2:latest");

  s.env["OLLAMA_HOST"] = "0.0.0.0:7777";
  s.answering["http://127.0.0.1:7777/v1"] = answers({});
  auto h = s.resolve();
  CHECK(h.endpoint.baseUrl == "http://127.0.0.1:7777/v1");
  CHECK(h.problem == "no model is configured and http://127.0.0.1:7777/v1 lists none");
  CHECK_THAT(h.hint, Catch::Contains("ollama pull"));
  CHECK_THAT(h.source, Catch::Contains("OLLAMA_HOST"));
}

TEST_CASE("OLLAMA_HOST forms", "[providers][resolve]") {
  CHECK(ollamaBaseUrl("") == "http://127.0.0.1:11434");
  CHECK(ollamaBaseUrl("127.0.0.1:11434") == "http://127.0.0.1:11434");
  CHECK(ollamaBaseUrl("0.0.0.0") == "http://127.0.0.1:11434");
  CHECK(ollamaBaseUrl("gpu-box") == "http://gpu-box:11434");
  CHECK(ollamaBaseUrl("https://ollama.example.com:443/") == "https://ollama.example.com:443");
  CHECK(ollamaBaseUrl("[::1]:9000") == "http://[::1]:9000");
}
