// Provider resolution: which provider, URL, model and key a Config means (DESIGN.md,
// "provider: auto"), and which source won, for `greenlight doctor`.
//
//   provider "openai" / "anthropic": that protocol; baseUrl from the config, else (OpenAI)
//     $OPENAI_BASE_URL, else the official URL; key from $apiKeyEnv, else $OPENAI_API_KEY /
//     $ANTHROPIC_API_KEY.
//   provider "auto", in order:
//     1. explicit settings: a baseUrl (any layer, GREENLIGHT_BASE_URL included) -> an
//        OpenAI-compatible server there (Anthropic when the host is api.anthropic.com);
//        an apiKeyEnv naming a set variable -> Anthropic if the name says ANTHROPIC
//        or CLAUDE, else OpenAI;
//     2. a key in the environment: $OPENAI_API_KEY (with $OPENAI_BASE_URL), else
//        $ANTHROPIC_API_KEY (a model named claude-* prefers Anthropic when both are set);
//     3. a local server that answers GET /v1/models within the probe timeout: Ollama at
//        $OLLAMA_HOST (default 127.0.0.1:11434), then llama.cpp's server at 127.0.0.1:8080;
//        the model defaults to the first one the server lists;
//     4. none.
// API keys are read from Config::environment, and for a custom apiKeyEnv from the process
// environment; they are never logged.
//
// Thread-safety: resolveProvider() is reentrant; it blocks for the local probes (at most
// about 2 x probeTimeout) when it gets to step 3, so call it off the LSP loop.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/config/Config.h"
#include "core/providers/Endpoint.h"

namespace greenlight::core::providers {

inline constexpr const char* kOpenAIDefaultBaseUrl = "https://api.openai.com/v1";
inline constexpr const char* kAnthropicDefaultBaseUrl = "https://api.anthropic.com";
inline constexpr const char* kOpenAIDefaultModel = "gpt-4o-mini";
inline constexpr const char* kAnthropicDefaultModel = "claude-sonnet-4-5";
inline constexpr const char* kOllamaDefaultHost = "127.0.0.1:11434";
inline constexpr const char* kLlamaCppDefaultUrl = "http://127.0.0.1:8080";

struct ProbeResult {
  bool answered = false;
  std::vector<std::string> models;  // ids from /v1/models, in order
  std::string detail;               // why it did not answer
};

struct ResolveOptions {
  // GET {baseUrl}/models with a short timeout. Default: a real HTTP probe through libcurl.
  std::function<ProbeResult(const std::string& openaiBaseUrl, std::chrono::milliseconds timeout)> probe;
  std::chrono::milliseconds probeTimeout{1500};
  // Reads an environment variable; default: Config::environment, then the process environment.
  std::function<std::optional<std::string>(const std::string& name)> getenv;
  bool probeLocal = true;  // false: skip step 3
  std::string llamaCppUrl = kLlamaCppDefaultUrl;
};

struct ResolvedProvider {
  bool found = false;
  Endpoint endpoint;          // valid when found
  std::string source;         // which source won, e.g. "OPENAI_API_KEY in the environment"
  std::string problem;        // set when found but unusable (e.g. the key is missing)
  std::string hint;           // what to do about `problem`, or how to configure one when !found
  std::vector<std::string> tried;  // the local servers probed and what happened
};

ResolvedProvider resolveProvider(const Config& config, const ResolveOptions& options = {});

// The Config a command-line tool uses: defaults < the process environment < <root>/.greenlight.json
// < `overrides` (the tool's flags, e.g. {"provider": "openai"}). Keys set by `overrides` get
// the origin `flagOrigin` (e.g. "--provider") so resolution reports them as command-line flags.
std::optional<Config> configForCommandLine(const std::string& workspaceRoot, const nlohmann::json& overrides,
                                           const std::map<std::string, std::string>& flagOrigin,
                                           std::string* error);

// OLLAMA_HOST ("host", "host:port", "http://host:port", "0.0.0.0") -> "http://host:port".
std::string ollamaBaseUrl(const std::string& ollamaHost);

// The default probe: GET {baseUrl}/models through a short-lived CurlTransport.
ProbeResult probeOpenAICompatible(const std::string& baseUrl, std::chrono::milliseconds timeout);

}  // namespace greenlight::core::providers
