#include "core/testing/adapters/PythonRun.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/testing/Discovery.h"
#include "core/testing/PythonCoverTracer.h"
#include "sandbox/Sandbox.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

bool interpreterImports(const Tool& tool, const std::string& module, const std::string& workspaceRoot,
                        const Config& config) {
  static std::mutex mutex;
  static std::map<std::string, bool> cache;
  const std::string key = tool.path + "|" + tool.fingerprint + "|" + tool.invokedAs + "|" + workspaceRoot + "|" + module;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  sandbox::Policy p;
  p.argv = {tool.invokedAs.empty() ? tool.path : tool.invokedAs, "-c", "import " + module};
  p.timeLimitSec = 20;
  p.cpuLimitSec = 20;
  p.memoryLimitMb = static_cast<std::size_t>(std::max(256, config.sandbox.memoryLimitMB));
  p.processes = 16;
  p.allowUnsandboxed = config.sandbox.allowUnsandboxed;
  std::error_code ec;
  if (!workspaceRoot.empty() && workspaceRoot != "/" && fs::is_directory(workspaceRoot, ec)) p.binds.push_back({workspaceRoot, "", false});
  for (const auto& prefix : tool.bindPrefixes) {
    if (!sandbox::bindsReach(p.binds, prefix) && fs::exists(prefix, ec)) p.binds.push_back({prefix, "", false});
  }
  p.env = tool.environment;
  p.env.push_back("PYTHONDONTWRITEBYTECODE=1");
  p.profile = sandbox::Profile::Python;
  const bool ok = sandbox::run(p, -1).status == sandbox::Status::Ok;
  std::lock_guard<std::mutex> lock(mutex);
  cache[key] = ok;
  return ok;
}

std::optional<PythonRunSetup> preparePythonRun(const TestPlan& plan, const RunOptions& options, Staging& staging,
                                               const std::vector<std::pair<std::string, std::string_view>>& harnessFiles,
                                               nlohmann::json config, bool stableOverlay, RunResult& result) {
  std::string error = sandboxUserCannotRead(plan.rootDir);
  if (!error.empty() || !staging.prepareInPlace(plan, options.overlay, &error, stableOverlay)) {
    result.error = error;
    return std::nullopt;
  }
  auto tool = resolveFor(plan.interpreter.empty() ? options.config.pythonInterpreter : plan.interpreter, plan, options, &error);
  if (!tool) {
    result.error = "python interpreter: " + error;
    return std::nullopt;
  }
  for (const auto& [name, text] : harnessFiles) staging.addHarnessFile(name, text);
  PythonRunSetup setup{basePolicy(plan, options, staging, &*tool), tool->invokedAs.empty() ? tool->path : tool->invokedAs};
  sandbox::Policy& p = setup.policy;
  // Only with the real sandbox: a fake executor sees exactly one step per run.
  if (!options.executor) stagePythonCoverTracer(*tool, p, staging, config);
  const std::string configPath = staging.addHarnessFile("config.json", config.dump());
  p.workdir = plan.rootDir;
  // Bound on its own also when the workspace bind holds it behind a private directory (as root).
  std::error_code ec;
  if (!sandbox::bindsReach(p.binds, plan.rootDir) && fs::is_directory(plan.rootDir, ec)) p.binds.push_back({plan.rootDir, "", false});
  for (const auto& [copy, path] : staging.overlayBinds()) p.binds.push_back({copy, path, false});
  p.profile = sandbox::Profile::Python;
  p.env.insert(p.env.end(), {"PYTHONPATH=" + std::string(kSandboxGl), "GREENLIGHT_CONFIG=" + configPath,
                             "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8"});
  return setup;
}

}  // namespace greenlight::core::testing
