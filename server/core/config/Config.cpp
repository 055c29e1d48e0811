#include "core/config/Config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>


namespace greenlight::core {
namespace {

using nlohmann::json;

const char* const kEnvVars[] = {"GREENLIGHT_PROVIDER", "GREENLIGHT_BASE_URL", "GREENLIGHT_MODEL",
                                "OPENAI_BASE_URL",     "OPENAI_API_KEY",      "ANTHROPIC_API_KEY",
                                "OLLAMA_HOST"};

// Merges `over` into `base`: objects key by key, nulls skipped, anything else replaces.
// `origin` records, per dotted leaf path, which layer supplied the value.
void mergeInto(json& base, const json& over, const std::string& prefix, const char* layer,
               std::map<std::string, std::string>& origin) {
  for (auto it = over.begin(); it != over.end(); ++it) {
    if (it.value().is_null()) continue;
    std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it.value().is_object() && base.contains(it.key()) && base[it.key()].is_object()) {
      mergeInto(base[it.key()], it.value(), path, layer, origin);
    } else {
      base[it.key()] = it.value();
      origin[path] = layer;
    }
  }
}

struct Reader {
  const json& root;
  std::string* error;
  bool ok = true;

  const json* find(const char* key, const json& obj) const {
    auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
  }
  void fail(const std::string& path, const char* expected) {
    if (ok && error) *error = "greenlight." + path + ": expected " + expected;
    ok = false;
  }
  void number(const json& obj, const char* key, const std::string& path, double& out) {
    if (const json* v = find(key, obj)) {
      if (v->is_number()) out = v->get<double>();
      else fail(path, "a number");
    }
  }
  void integer(const json& obj, const char* key, const std::string& path, int& out) {
    if (const json* v = find(key, obj)) {
      if (v->is_number_integer() || (v->is_number() && v->get<double>() == static_cast<int>(v->get<double>())))
        out = static_cast<int>(v->get<double>());
      else fail(path, "an integer");
    }
  }
  void boolean(const json& obj, const char* key, const std::string& path, bool& out) {
    if (const json* v = find(key, obj)) {
      if (v->is_boolean()) out = v->get<bool>();
      else fail(path, "true or false");
    }
  }
  void string(const json& obj, const char* key, const std::string& path, std::string& out) {
    if (const json* v = find(key, obj)) {
      if (v->is_string()) out = v->get<std::string>();
      else fail(path, "a string");
    }
  }
  void optString(const json& obj, const char* key, const std::string& path,
                 std::optional<std::string>& out) {
    if (const json* v = find(key, obj)) {
      if (v->is_string()) out = v->get<std::string>();
      else fail(path, "a string or null");
    }
  }
  void strings(const json& obj, const char* key, const std::string& path,
               std::vector<std::string>& out) {
    if (const json* v = find(key, obj)) {
      if (!v->is_array()) return fail(path, "an array of strings");
      std::vector<std::string> items;
      for (std::size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string()) return fail(path + "[" + std::to_string(i) + "]", "a string");
        items.push_back((*v)[i].get<std::string>());
      }
      out = std::move(items);
    }
  }
  const json* object(const json& obj, const char* key, const std::string& path) {
    const json* v = find(key, obj);
    if (v && !v->is_object()) {
      fail(path, "an object");
      return nullptr;
    }
    return v;
  }
};

}  // namespace

json defaultConfigJson() { return configToJson(Config{}); }

json configToJson(const Config& c) {
  json j = {
      {"provider", c.provider},
      {"baseUrl", c.baseUrl ? json(*c.baseUrl) : json(nullptr)},
      {"model", c.model ? json(*c.model) : json(nullptr)},
      {"apiKeyEnv", c.apiKeyEnv ? json(*c.apiKeyEnv) : json(nullptr)},
      {"temperature", c.temperature},
      {"maxTokens", c.maxTokens},
      {"timeoutSeconds", c.timeoutSeconds},
      {"maxRetries", c.maxRetries},
      {"refine",
       {{"maxRounds", c.refine.maxRounds},
        {"candidates", c.refine.candidates},
        {"timeoutSeconds", c.refine.timeoutSeconds},
        {"preview", c.refine.preview},
        {"requireCoverage", c.refine.requireCoverage}}},
      {"generate", {{"testsFirst", c.generate.testsFirst}}},
      {"runOnSave", c.runOnSave},
      {"sandbox",
       {{"timeLimitSeconds", c.sandbox.timeLimitAuto ? json(nullptr) : json(c.sandbox.timeLimitSeconds)},
        {"memoryLimitMB", c.sandbox.memoryLimitMB},
        {"processes", c.sandbox.processes},
        {"outputLimitKB", c.sandbox.outputLimitKB},
        {"network", c.sandbox.network},
        {"allowUnsandboxed", c.sandbox.allowUnsandboxed},
        {"warmInterpreters", c.sandbox.warmInterpreters}}},
      {"tests", {{"command", c.testsCommand ? json(*c.testsCommand) : json(nullptr)}}},
      {"python", {{"interpreter", c.pythonInterpreter}}},
      {"node", {{"path", c.nodePath}}},
      {"cxx", {{"compiler", c.cxxCompiler}, {"flags", c.cxxFlags}}},
  };
  return j;
}

std::optional<Config> configFromJson(const json& s, std::string* error) {
  if (!s.is_object()) {
    if (error) *error = "greenlight: expected an object";
    return std::nullopt;
  }
  Config c;
  Reader r{s, error};
  r.string(s, "provider", "provider", c.provider);
  if (r.ok && c.provider != "auto" && c.provider != "openai" && c.provider != "anthropic") {
    if (error) *error = "greenlight.provider: expected \"auto\", \"openai\" or \"anthropic\", got \"" + c.provider + "\"";
    return std::nullopt;
  }
  r.optString(s, "baseUrl", "baseUrl", c.baseUrl);
  r.optString(s, "model", "model", c.model);
  r.optString(s, "apiKeyEnv", "apiKeyEnv", c.apiKeyEnv);
  r.number(s, "temperature", "temperature", c.temperature);
  r.integer(s, "maxTokens", "maxTokens", c.maxTokens);
  r.number(s, "timeoutSeconds", "timeoutSeconds", c.timeoutSeconds);
  r.integer(s, "maxRetries", "maxRetries", c.maxRetries);
  if (const json* o = r.object(s, "refine", "refine")) {
    r.integer(*o, "maxRounds", "refine.maxRounds", c.refine.maxRounds);
    r.integer(*o, "candidates", "refine.candidates", c.refine.candidates);
    r.number(*o, "timeoutSeconds", "refine.timeoutSeconds", c.refine.timeoutSeconds);
    r.boolean(*o, "preview", "refine.preview", c.refine.preview);
    r.boolean(*o, "requireCoverage", "refine.requireCoverage", c.refine.requireCoverage);
  }
  if (const json* o = r.object(s, "generate", "generate")) {
    r.string(*o, "testsFirst", "generate.testsFirst", c.generate.testsFirst);
    if (r.ok && c.generate.testsFirst != "ask" && c.generate.testsFirst != "always" && c.generate.testsFirst != "never") {
      if (error)
        *error = "greenlight.generate.testsFirst: expected \"ask\", \"always\" or \"never\", got \"" + c.generate.testsFirst + "\"";
      return std::nullopt;
    }
  }
  r.boolean(s, "runOnSave", "runOnSave", c.runOnSave);
  if (const json* o = r.object(s, "sandbox", "sandbox")) {
    r.number(*o, "timeLimitSeconds", "sandbox.timeLimitSeconds", c.sandbox.timeLimitSeconds);
    if (auto it = o->find("timeLimitSeconds"); it != o->end() && it->is_number()) c.sandbox.timeLimitAuto = false;
    r.integer(*o, "memoryLimitMB", "sandbox.memoryLimitMB", c.sandbox.memoryLimitMB);
    r.integer(*o, "processes", "sandbox.processes", c.sandbox.processes);
    r.integer(*o, "outputLimitKB", "sandbox.outputLimitKB", c.sandbox.outputLimitKB);
    r.boolean(*o, "network", "sandbox.network", c.sandbox.network);
    r.boolean(*o, "allowUnsandboxed", "sandbox.allowUnsandboxed", c.sandbox.allowUnsandboxed);
    r.boolean(*o, "warmInterpreters", "sandbox.warmInterpreters", c.sandbox.warmInterpreters);
  }
  if (const json* o = r.object(s, "tests", "tests")) {
    if (r.find("command", *o)) {
      std::vector<std::string> argv;
      r.strings(*o, "command", "tests.command", argv);
      if (r.ok) c.testsCommand = std::move(argv);
    }
  }
  if (const json* o = r.object(s, "python", "python"))
    r.string(*o, "interpreter", "python.interpreter", c.pythonInterpreter);
  if (const json* o = r.object(s, "node", "node")) r.string(*o, "path", "node.path", c.nodePath);
  if (const json* o = r.object(s, "cxx", "cxx")) {
    r.string(*o, "compiler", "cxx.compiler", c.cxxCompiler);
    r.strings(*o, "flags", "cxx.flags", c.cxxFlags);
  }
  if (!r.ok) return std::nullopt;
  auto positive = [&](double v, const char* path) {
    if (v > 0) return true;
    if (error) *error = std::string("greenlight.") + path + ": must be greater than 0";
    return false;
  };
  if (!positive(c.timeoutSeconds, "timeoutSeconds") ||
      !positive(c.sandbox.timeLimitSeconds, "sandbox.timeLimitSeconds") ||
      !positive(c.sandbox.memoryLimitMB, "sandbox.memoryLimitMB") ||
      !positive(c.sandbox.processes, "sandbox.processes") ||
      !positive(c.sandbox.outputLimitKB, "sandbox.outputLimitKB") ||
      !positive(c.maxTokens, "maxTokens") || !positive(c.refine.timeoutSeconds, "refine.timeoutSeconds"))
    return std::nullopt;
  if (c.maxRetries < 0 || c.refine.maxRounds < 1 || c.refine.maxRounds > 10 || c.refine.candidates < 1 ||
      c.refine.candidates > 8) {
    if (error) *error = "greenlight: maxRetries must be >= 0, refine.maxRounds 1..10, refine.candidates 1..8";
    return std::nullopt;
  }
  return c;
}

const char* ConfigLayers::layerName(Layer layer) {
  switch (layer) {
    case Defaults: return "default";
    case Environment: return "environment";
    case WorkspaceFile: return ".greenlight.json";
    case InitializationOptions: return "initializationOptions";
    case Client: return "workspace/configuration";
    default: return "?";
  }
}

ConfigLayers::ConfigLayers() {
  for (auto& l : layers_) l = json::object();
  layers_[Defaults] = defaultConfigJson();
}

void ConfigLayers::set(Layer layer, json value) {
  layers_[layer] = value.is_object() ? std::move(value) : json::object();
}

void ConfigLayers::setEnvironment(const std::map<std::string, std::string>& env) {
  env_ = env;
  json j = json::object();
  auto get = [&](const char* k) -> const std::string* {
    auto it = env.find(k);
    return it == env.end() || it->second.empty() ? nullptr : &it->second;
  };
  if (auto* v = get("GREENLIGHT_PROVIDER")) j["provider"] = *v;
  if (auto* v = get("GREENLIGHT_BASE_URL")) j["baseUrl"] = *v;
  if (auto* v = get("GREENLIGHT_MODEL")) j["model"] = *v;
  layers_[Environment] = std::move(j);
}

bool ConfigLayers::loadWorkspaceFile(const std::string& root, std::string* error) {
  layers_[WorkspaceFile] = json::object();
  std::ifstream in(root + "/.greenlight.json");
  if (!in) return true;
  std::stringstream buf;
  buf << in.rdbuf();
  json j = json::parse(buf.str(), nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (j.is_discarded() || !j.is_object()) {
    if (error) *error = root + "/.greenlight.json: not a JSON object";
    return false;
  }
  // Accept both {"greenlight": {...}} and the bare section.
  if (j.contains("greenlight") && j["greenlight"].is_object()) j = j["greenlight"];
  layers_[WorkspaceFile] = std::move(j);
  return true;
}

std::optional<Config> ConfigLayers::resolve(std::string* error) const {
  json merged = json::object();
  std::map<std::string, std::string> origin;
  for (int i = 0; i < kLayerCount; ++i)
    mergeInto(merged, layers_[i], "", layerName(static_cast<Layer>(i)), origin);
  std::string why;
  auto config = configFromJson(merged, &why);
  if (!config) {
    // Name the layer that supplied the offending key when we can tell.
    std::string key = why.rfind("greenlight.", 0) == 0 ? why.substr(11, why.find(':') - 11) : "";
    auto it = origin.find(key);
    if (error) *error = why + (it != origin.end() ? " (from " + it->second + ")" : "");
    return std::nullopt;
  }
  config->environment = env_;
  config->origin = std::move(origin);
  return config;
}

std::map<std::string, std::string> relevantEnvironment() {
  std::map<std::string, std::string> env;
  for (const char* name : kEnvVars)
    if (const char* v = std::getenv(name)) env[name] = v;
  return env;
}

}  // namespace greenlight::core
