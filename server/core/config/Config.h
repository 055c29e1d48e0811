// greenlight's settings (section "greenlight" of DESIGN.md) and the layering that produces them.
//
// Layers, lowest first: defaults < environment < .greenlight.json at the workspace root <
// initializationOptions < workspace/configuration. Each layer is a JSON object; objects merge
// key by key and a null (or absent) value leaves the lower layer's value in place, so an editor
// that sends every key with null defaults changes nothing.
//
// Thread-safety: Config is a plain value. ConfigLayers is not synchronised; the LSP layer owns
// one and hands copies of the resolved Config to work it starts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace greenlight::core {

struct SandboxSettings {
  // The time limit of a run. Auto (`null`, the default) fits the suite: a test that runs
  // timeLimitSeconds (10 s) with no test finishing is stopped as hung (core/testing/Watchdog.h),
  // and the whole run gets max(300 s, 3 × the file's last duration) (TestService). A number
  // fixes a hard limit for the whole run.
  double timeLimitSeconds = 10;
  bool timeLimitAuto = true;
  int memoryLimitMB = 512;
  int processes = 512;
  int outputLimitKB = 1024;
  bool network = false;
  bool allowUnsandboxed = false;
  // Long-lived processes (the language server, `generate`) keep one Python and one node
  // interpreter started ahead per shape (sandbox Policy::WarmStart); a one-shot `run` never does.
  bool warmInterpreters = true;
};

struct RefineSettings {
  int maxRounds = 3;             // 1..10
  int candidates = 1;            // completions asked in round 1, 1..8
  double timeoutSeconds = 300;   // the whole loop
  bool preview = false;          // LSP: the edit asks for confirmation (change annotation)
  // DESIGN.md "Coverage": a passing candidate whose new lines no test ran gets one more round
  // (RefineLoop; the lines come from the run's coverage, core/testing/Coverage.h).
  bool requireCoverage = false;
};

// DESIGN.md "Apply": with no test near the target, whether tests are first written from the
// comment ("ask" | "always" | "never"; core/refine/TestsFirst.h). Over LSP "ask" and "always"
// propose tests; the CLI proposes with --tests-first, --yes or "always".
struct GenerateSettings {
  std::string testsFirst = "ask";
};

struct Config {
  std::string provider = "auto";  // auto | openai | anthropic
  std::optional<std::string> baseUrl;
  std::optional<std::string> model;
  std::optional<std::string> apiKeyEnv;  // name of the variable holding the key, never the key
  double temperature = 0.2;
  int maxTokens = 2048;
  double timeoutSeconds = 120;
  int maxRetries = 3;
  RefineSettings refine;
  GenerateSettings generate;
  bool runOnSave = true;
  SandboxSettings sandbox;
  std::optional<std::vector<std::string>> testsCommand;  // argv with {file} {dir}
  std::string pythonInterpreter = "python3";
  std::string nodePath = "node";
  std::string cxxCompiler = "g++";
  std::vector<std::string> cxxFlags = {"-std=c++20", "-g", "-O0"};

  // The environment variables the config layer read (GREENLIGHT_*, OPENAI_*, ANTHROPIC_API_KEY,
  // OLLAMA_HOST). Provider resolution reads keys from here; never log this map.
  std::map<std::string, std::string> environment;
  // For each dotted key that some layer set ("provider", "sandbox.timeLimitSeconds"), the name
  // of the layer that won: "default", "environment", ".greenlight.json",
  // "initializationOptions", "workspace/configuration".
  std::map<std::string, std::string> origin;
};

// The defaults as a JSON object (the DESIGN.md shape).
nlohmann::json defaultConfigJson();

// Parses a merged settings object. On a type error returns nullopt and sets `error` to a
// message naming the JSON path, e.g. "greenlight.sandbox.timeLimitSeconds: expected a number".
std::optional<Config> configFromJson(const nlohmann::json& settings, std::string* error);
nlohmann::json configToJson(const Config& config);

class ConfigLayers {
 public:
  enum Layer { Defaults = 0, Environment, WorkspaceFile, InitializationOptions, Client, kLayerCount };
  static const char* layerName(Layer layer);

  ConfigLayers();
  // Replaces one layer. `value` must be an object (or null to clear the layer).
  void set(Layer layer, nlohmann::json value);
  // Reads the environment layer from `env` (tests pass a map; real code passes environ).
  void setEnvironment(const std::map<std::string, std::string>& env);
  // Reads <root>/.greenlight.json. Returns false and sets `error` when it exists but cannot be
  // parsed; a missing file clears the layer and returns true.
  bool loadWorkspaceFile(const std::string& workspaceRoot, std::string* error);

  // The merged, validated configuration. On error the message names the JSON path and the
  // layer; the caller should keep its previous Config.
  std::optional<Config> resolve(std::string* error) const;

 private:
  nlohmann::json layers_[kLayerCount];
  std::map<std::string, std::string> env_;
};

// The process environment as a map (only the variables Config cares about).
std::map<std::string, std::string> relevantEnvironment();

}  // namespace greenlight::core
