// What the end-to-end `greenlight generate` tests share: a throwaway workspace, the scripted
// model (tests/fakes/scripted_model.py) as a real HTTP server on 127.0.0.1, and running the real
// binary with a clean environment while watching it (to interrupt it at a chosen moment).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "TestTime.h"

namespace greenlight::test::refine {

// Waits are upper bounds, never expectations: they scale like every C++ test's (common/TestTime.h).
using gltest::scaled;

// The key every test hands greenlight: it must never show up in a prompt or an output.
inline const char* kApiKey = "sk-test-SECRET-4242424242";

class Workspace {
 public:
  Workspace();  // a fresh directory with an empty .greenlight.json (the workspace root)
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const std::string& root() const { return root_; }
  std::string path(const std::string& rel) const { return root_ + "/" + rel; }
  void write(const std::string& rel, const std::string& text) const;
  std::string read(const std::string& rel) const;
  // Every file below the root (relative paths, sorted): what a run may not add to.
  std::vector<std::string> files() const;

 private:
  std::string root_;
};

// A scripted model server. `script` is the JSON the server reads (see scripted_model.py);
// `env` is added to the server's environment ({env:NAME} in replies).
class ScriptedModel {
 public:
  explicit ScriptedModel(const nlohmann::json& script, const std::vector<std::string>& env = {});
  ~ScriptedModel();
  ScriptedModel(const ScriptedModel&) = delete;
  ScriptedModel& operator=(const ScriptedModel&) = delete;

  std::string baseUrl() const;            // http://127.0.0.1:PORT/v1
  std::vector<nlohmann::json> requests() const;  // the log so far: {"path","body","prompt","headers"}
  std::string logText() const;            // the raw log (to look for secrets)
  // The last user message of request `i`.
  std::string lastUser(std::size_t i) const;
  // Lets a reply held by a rule's "hold_until": NAME go on (creates NAME beside the script).
  void release(const std::string& name) const;

 private:
  std::string dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

struct GenerateRun {
  int exitCode = -1;          // 128+signal when killed; 137 also when the bound ran out
  bool timedOut = false;      // the bound ran out and the test killed it
  std::string out, err;
  nlohmann::json json;        // stdout parsed when it is one JSON object, else null
  double wallMs = 0;
  std::vector<pid_t> children;  // processes greenlight started that the watcher saw
};

struct GenerateOptions {
  std::vector<std::string> env;  // replaces the default provider environment when `noProvider`
  bool noProvider = false;       // no key, no base URL (and no local server to find)
  std::chrono::milliseconds bound{180000};
  // Called every ~20 ms while greenlight runs with what it printed so far; return a signal
  // number to send it (once), 0 to be called again, or -1 to stop watching.
  std::function<int(const GenerateRun&)> watch;
  bool trackChildren = false;    // fill GenerateRun::children (scans /proc on every tick)
};

// `greenlight generate ARGS...` with cwd = the workspace root and only the environment the test
// gives: PATH, HOME, the scripted model as an OpenAI-compatible provider and kApiKey.
GenerateRun generate(const Workspace& ws, const ScriptedModel* model, const std::vector<std::string>& args,
                     const GenerateOptions& options = {});

// The candidates' statuses of each round, e.g. {{"failed"}, {"passed"}}.
std::vector<std::vector<std::string>> candidateStatuses(const nlohmann::json& result);

// A reply holding one fenced block.
std::string fenced(const std::string& language, const std::string& code);

// True while /proc/PID exists and is not a zombie.
bool processAlive(pid_t pid);

}  // namespace greenlight::test::refine
