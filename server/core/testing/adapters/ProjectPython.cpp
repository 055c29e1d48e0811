#include "core/testing/adapters/ProjectPython.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/testing/PythonEnvs.h"
#include "core/testing/adapters/PythonRun.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

// The interpreter a script's shebang names: "#!/usr/bin/python3" -> "/usr/bin/python3";
// "#!/usr/bin/env python3" -> "python3" (a name for PATH); "" for anything else.
std::string shebangInterpreter(const std::string& script) {
  std::ifstream in(script, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line) || line.rfind("#!", 0) != 0) return "";
  std::string rest = line.substr(2);
  while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ')) rest.pop_back();
  std::size_t i = rest.find_first_not_of(' ');
  if (i == std::string::npos) return "";
  rest = rest.substr(i);
  std::string first = rest.substr(0, rest.find(' '));
  if (fs::path(first).filename() == "env") {
    std::string args = rest.size() > first.size() ? rest.substr(first.size()) : "";
    std::size_t s = args.find_first_not_of(' ');
    if (s == std::string::npos) return "";
    args = args.substr(s);
    if (args.rfind("-S ", 0) == 0) args = args.substr(3);
    return args.substr(0, args.find(' '));
  }
  return fs::path(first).filename().string().rfind("python", 0) == 0 ? first : "";
}

}  // namespace

PythonChoice pythonWith(const std::string& module, const DiscoveryContext& ctx) {
  PythonChoice choice;
  const Config defaults;
  const Config& config = ctx.request.config ? *ctx.request.config : defaults;
  std::vector<std::string> seen;  // real binaries already asked
  auto envLookup = [&](const std::string& key) -> std::string {
    auto it = ctx.request.toolEnvironment.find(key);
    if (it != ctx.request.toolEnvironment.end()) return it->second;
    const char* v = std::getenv(key.c_str());
    return v ? v : "";
  };
  // A name as the shell in the project resolves it (Toolchain.h).
  auto resolve = [&](const std::string& name, std::string* error) {
    ToolRequest tr;
    tr.name = name;
    tr.workspaceRoot = ctx.workspaceRoot;
    tr.environment = ctx.request.toolEnvironment;
    return resolveTool(tr, error);
  };
  // Asks one candidate; true when it imports the module.
  auto ask = [&](const std::string& name, const std::string& how) {
    std::string error;
    auto tool = resolve(name, &error);
    if (!tool) {
      choice.tried.push_back(how + ": " + error);
      return false;
    }
    const std::string key = tool->invokedAs.empty() ? tool->path : tool->invokedAs;
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return false;
    seen.push_back(key);
    if (!interpreterImports(*tool, module, ctx.workspaceRoot, config)) {
      choice.tried.push_back(how + " (" + key + "): cannot import " + module);
      return false;
    }
    choice.tool = tool;
    return true;
  };
  if (ask(config.pythonInterpreter, "python.interpreter '" + config.pythonInterpreter + "'")) return choice;
  for (const auto& venv : projectVenvs(ctx.workspaceRoot, envLookup)) {
    for (const char* bin : {"/bin/python3", "/bin/python"}) {
      if (::access((venv + bin).c_str(), X_OK) != 0) continue;
      if (ask(venv + bin, "the venv " + venv)) return choice;
      break;
    }
  }
  for (const char* runner : {"pytest", "py.test"}) {
    if (module != "pytest") break;
    std::string error;
    auto script = resolve(runner, &error);
    if (!script) {
      if (std::string(runner) == "pytest") choice.tried.push_back("pytest on PATH: none");
      continue;
    }
    const std::string interpreter = shebangInterpreter(script->invokedAs.empty() ? script->path : script->invokedAs);
    if (interpreter.empty()) {
      choice.tried.push_back(std::string(runner) + " on PATH (" + script->path + "): no Python shebang");
      continue;
    }
    if (ask(interpreter, "the interpreter of " + (script->invokedAs.empty() ? script->path : script->invokedAs))) return choice;
  }
  ask("python", "python on PATH");
  return choice;
}

std::string noPythonWithMessage(const std::string& module, const std::string& why, const PythonChoice& choice) {
  std::string tried;
  for (const auto& t : choice.tried) tried += (tried.empty() ? "" : "; ") + t;
  return "this project runs its tests with " + module + " (" + why + "), but no Python interpreter found can import " +
         module + " (tried " + (tried.empty() ? "nothing" : tried) + "). Install " + module +
         " for the project's interpreter, or choose the interpreter: \"python\": {\"interpreter\": \"/path/to/python\"} in "
         ".greenlight.json, or greenlight.python.interpreter in the editor.";
}

}  // namespace greenlight::core::testing
