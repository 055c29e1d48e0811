#include "core/providers/Resolve.h"

#include <cstdlib>
#include <future>

#include <nlohmann/json.hpp>

#include "core/providers/CurlTransport.h"

namespace greenlight::core::providers {
namespace {

std::string hostOf(const std::string& url) {
  auto start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  auto end = url.find_first_of(":/?#", start);
  return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string originOf(const Config& c, const std::string& key) {
  auto it = c.origin.find(key);
  return it == c.origin.end() ? "default" : it->second;
}

// "baseUrl" set in the environment layer came from GREENLIGHT_BASE_URL; say so.
std::string describeSetting(const Config& c, const std::string& key, const std::string& envName) {
  std::string origin = originOf(c, key);
  if (origin.rfind("--", 0) == 0) return origin + " on the command line";
  if (origin == "environment") return envName + " in the environment";
  return "greenlight." + key + " in " + origin;
}

}  // namespace

std::optional<Config> configForCommandLine(const std::string& workspaceRoot, const nlohmann::json& overrides,
                                           const std::map<std::string, std::string>& flagOrigin,
                                           std::string* error) {
  ConfigLayers layers;
  layers.setEnvironment(relevantEnvironment());
  if (!layers.loadWorkspaceFile(workspaceRoot, error)) return std::nullopt;
  layers.set(ConfigLayers::Client, overrides);
  auto config = layers.resolve(error);
  if (!config) return std::nullopt;
  for (const auto& [key, flag] : flagOrigin)
    if (overrides.contains(key)) config->origin[key] = flag;
  if (config->apiKeyEnv)
    if (const char* v = std::getenv(config->apiKeyEnv->c_str())) config->environment[*config->apiKeyEnv] = v;
  return config;
}

std::string ollamaBaseUrl(const std::string& hostIn) {
  std::string host = hostIn.empty() ? kOllamaDefaultHost : hostIn;
  std::string scheme = "http://";
  if (auto p = host.find("://"); p != std::string::npos) {
    scheme = host.substr(0, p + 3);
    host = host.substr(p + 3);
  }
  while (!host.empty() && host.back() == '/') host.pop_back();
  std::string port = "11434";
  std::string name = host;
  if (!host.empty() && host[0] == '[') {  // [::1]:11434
    auto close = host.find(']');
    name = host.substr(0, close + 1);
    if (close != std::string::npos && close + 1 < host.size() && host[close + 1] == ':') port = host.substr(close + 2);
  } else if (auto colon = host.rfind(':'); colon != std::string::npos) {
    name = host.substr(0, colon);
    port = host.substr(colon + 1);
  }
  // Ollama listens on 0.0.0.0 to mean "everywhere"; connect locally.
  if (name.empty() || name == "0.0.0.0") name = "127.0.0.1";
  if (name == "[::]") name = "[::1]";
  return scheme + name + ":" + port;
}

ProbeResult probeOpenAICompatible(const std::string& baseUrl, std::chrono::milliseconds timeout) {
  ProbeResult result;
  auto transport = std::make_shared<CurlTransport>();
  HttpRequest req;
  req.method = "GET";
  std::string base = baseUrl;
  while (!base.empty() && base.back() == '/') base.pop_back();
  req.url = base + "/models";
  req.headers.emplace_back("Accept", "application/json");
  req.totalTimeout = timeout;
  req.connectTimeout = timeout;
  auto body = std::make_shared<std::string>();
  auto status = std::make_shared<int>(0);
  std::promise<HttpOutcome> done;
  auto future = done.get_future();
  HttpHandlers h;
  h.onHead = [status](const HttpHead& head) { *status = head.status; };
  h.onBody = [body](std::string_view bytes) {
    if (body->size() > (4u << 20)) return false;
    body->append(bytes);
    return true;
  };
  h.onDone = [&done](const HttpOutcome& out) { done.set_value(out); };
  transport->start(std::move(req), std::move(h));
  HttpOutcome out = future.get();
  if (out.failure != HttpFailure::None) {
    result.detail = out.detail.empty() ? "no answer" : out.detail;
    return result;
  }
  if (*status != 200) {
    result.detail = "GET " + base + "/models answered HTTP " + std::to_string(*status);
    return result;
  }
  auto j = nlohmann::json::parse(*body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    result.detail = "GET " + base + "/models did not answer with JSON";
    return result;
  }
  result.answered = true;
  if (auto it = j.find("data"); it != j.end() && it->is_array())
    for (const auto& m : *it)
      if (m.is_object() && m.contains("id") && m["id"].is_string()) result.models.push_back(m["id"].get<std::string>());
  return result;
}

ResolvedProvider resolveProvider(const Config& config, const ResolveOptions& optionsIn) {
  ResolveOptions options = optionsIn;
  if (!options.probe) options.probe = probeOpenAICompatible;
  auto getenv = [&](const std::string& name) -> std::optional<std::string> {
    if (options.getenv) {
      auto v = options.getenv(name);
      if (v && v->empty()) return std::nullopt;
      return v;
    }
    if (auto it = config.environment.find(name); it != config.environment.end())
      return it->second.empty() ? std::nullopt : std::optional<std::string>(it->second);
    // Only a custom apiKeyEnv can be missing from Config::environment.
    if (config.apiKeyEnv && name == *config.apiKeyEnv)
      if (const char* v = std::getenv(name.c_str()); v && *v) return std::string(v);
    return std::nullopt;
  };

  ResolvedProvider r;
  Endpoint ep;
  ep.timeoutSeconds = config.timeoutSeconds;
  ep.maxRetries = config.maxRetries;
  ep.temperature = config.temperature;
  ep.maxTokens = config.maxTokens;
  ep.stallSeconds = std::min(60.0, config.timeoutSeconds);

  // Fills the key from apiKeyEnv or the protocol's default variable; reports a missing key
  // when the server is one of the official APIs (local servers need none).
  auto attachKey = [&](Endpoint& e) {
    std::string var = config.apiKeyEnv.value_or(e.protocol == Protocol::AnthropicMessages ? "ANTHROPIC_API_KEY"
                                                                                          : "OPENAI_API_KEY");
    e.apiKeyEnv = var;
    if (auto key = getenv(var)) {
      e.apiKey = *key;
    } else {
      std::string host = hostOf(e.baseUrl);
      if (host == "api.openai.com" || host == "api.anthropic.com") {
        r.problem = "$" + var + " is not set";
        r.hint = "export " + var + "=<your key> (keys come from the environment only), or set "
                 "greenlight.apiKeyEnv to the variable that holds it";
      }
    }
  };
  // For OpenAI-compatible servers without a configured model: ask the server for its list.
  auto pickModel = [&](Endpoint& e, const std::vector<std::string>& listed, bool mayProbe) {
    if (config.model) {
      e.model = *config.model;
      return;
    }
    std::vector<std::string> models = listed;
    if (models.empty() && mayProbe) models = options.probe(e.baseUrl, options.probeTimeout).models;
    if (!models.empty()) {
      e.model = models.front();
    } else if (r.problem.empty()) {
      r.problem = "no model is configured and " + e.baseUrl + " lists none";
      r.hint = e.name == "ollama" ? "run 'ollama pull <model>' (e.g. qwen2.5-coder) or set greenlight.model"
                                  : "set greenlight.model (or GREENLIGHT_MODEL)";
    }
  };
  auto openAIExplicit = [&](const std::string& source) {
    ep.protocol = Protocol::OpenAIChat;
    ep.name = "openai";
    if (config.baseUrl) ep.baseUrl = *config.baseUrl;
    else if (auto env = getenv("OPENAI_BASE_URL")) ep.baseUrl = *env;
    else ep.baseUrl = kOpenAIDefaultBaseUrl;
    bool official = hostOf(ep.baseUrl) == "api.openai.com";
    if (!official) ep.name = "openai-compatible";
    attachKey(ep);
    if (official) ep.model = config.model.value_or(kOpenAIDefaultModel);
    else pickModel(ep, {}, options.probeLocal);
    r.source = source;
  };
  auto anthropicExplicit = [&](const std::string& source) {
    ep.protocol = Protocol::AnthropicMessages;
    ep.name = "anthropic";
    ep.baseUrl = config.baseUrl.value_or(kAnthropicDefaultBaseUrl);
    attachKey(ep);
    ep.model = config.model.value_or(kAnthropicDefaultModel);
    r.source = source;
  };
  auto done = [&]() {
    r.found = true;
    r.endpoint = ep;
    return r;
  };

  if (config.provider == "openai") {
    openAIExplicit("provider \"openai\" (" + describeSetting(config, "provider", "GREENLIGHT_PROVIDER") + ")");
    return done();
  }
  if (config.provider == "anthropic") {
    anthropicExplicit("provider \"anthropic\" (" + describeSetting(config, "provider", "GREENLIGHT_PROVIDER") + ")");
    return done();
  }
  if (config.provider != "auto") {
    r.problem = "unknown provider \"" + config.provider + "\"";
    r.hint = "set greenlight.provider to auto, openai or anthropic";
    return r;
  }

  // 1. Explicit settings.
  if (config.baseUrl) {
    std::string source = describeSetting(config, "baseUrl", "GREENLIGHT_BASE_URL");
    if (hostOf(*config.baseUrl) == "api.anthropic.com") anthropicExplicit(source);
    else openAIExplicit(source);
    return done();
  }
  if (config.apiKeyEnv && getenv(*config.apiKeyEnv)) {
    std::string source = "greenlight.apiKeyEnv=" + *config.apiKeyEnv + " (" + originOf(config, "apiKeyEnv") + ")";
    if (config.apiKeyEnv->find("ANTHROPIC") != std::string::npos ||
        config.apiKeyEnv->find("CLAUDE") != std::string::npos)
      anthropicExplicit(source);
    else openAIExplicit(source);
    return done();
  }
  // 2. A key in the environment.
  bool haveOpenAI = getenv("OPENAI_API_KEY").has_value();
  bool haveAnthropic = getenv("ANTHROPIC_API_KEY").has_value();
  bool wantsClaude = config.model && config.model->rfind("claude", 0) == 0;
  if (haveAnthropic && (!haveOpenAI || wantsClaude)) {
    anthropicExplicit("ANTHROPIC_API_KEY in the environment");
    return done();
  }
  if (haveOpenAI) {
    openAIExplicit(std::string("OPENAI_API_KEY in the environment") +
                   (getenv("OPENAI_BASE_URL") ? " (with OPENAI_BASE_URL)" : ""));
    return done();
  }
  // 3. A local server that answers.
  if (options.probeLocal) {
    std::string ollamaHost = getenv("OLLAMA_HOST").value_or(kOllamaDefaultHost);
    struct Local {
      std::string name, base, source;
    };
    std::vector<Local> locals = {
        {"ollama", ollamaBaseUrl(ollamaHost) + "/v1",
         "a local Ollama that answered at " + ollamaBaseUrl(ollamaHost) +
             (getenv("OLLAMA_HOST") ? " (OLLAMA_HOST)" : "")},
        {"llama.cpp", options.llamaCppUrl + "/v1", "a local llama.cpp server that answered at " + options.llamaCppUrl},
    };
    for (const auto& local : locals) {
      ProbeResult probe = options.probe(local.base, options.probeTimeout);
      r.tried.push_back(local.name + " at " + local.base + ": " + (probe.answered ? "answered" : probe.detail));
      if (!probe.answered) continue;
      ep.protocol = Protocol::OpenAIChat;
      ep.name = local.name;
      ep.baseUrl = local.base;
      ep.apiKeyEnv.clear();
      pickModel(ep, probe.models, false);
      r.source = local.source;
      return done();
    }
  }
  // 4. None.
  r.found = false;
  r.source = "none";
  r.hint = "export OPENAI_API_KEY or ANTHROPIC_API_KEY, start a local server ('ollama serve' or "
           "'llama-server --port 8080'), or set greenlight.baseUrl to an OpenAI-compatible endpoint";
  return r;
}

}  // namespace greenlight::core::providers
