#include "core/testing/PythonEnvs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "core/testing/Discovery.h"
#include "core/testing/Sha256.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

bool isVenv(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "pyvenv.cfg", ec);
}

// `key = "value"` (or 'value') under `[section]` of a TOML file, "" when absent. Enough for the
// few flat keys read here; not a TOML parser.
std::string tomlString(const std::string& text, const std::string& section, const std::string& key) {
  std::istringstream in(text);
  std::string line, current;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (t[0] == '[') {
      auto close = t.find(']');
      current = trim(t.substr(t[1] == '[' ? 2 : 1, close == std::string::npos ? std::string::npos : close - (t[1] == '[' ? 2 : 1)));
      continue;
    }
    if (current != section) continue;
    auto eq = t.find('=');
    if (eq == std::string::npos || trim(t.substr(0, eq)) != key) continue;
    std::string v = trim(t.substr(eq + 1));
    if (v.size() >= 2 && (v[0] == '"' || v[0] == '\'')) {
      auto end = v.find(v[0], 1);
      if (end != std::string::npos) return v.substr(1, end - 1);
    }
    return "";
  }
  return "";
}

bool hasSection(const std::string& text, const std::string& section) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    if (t.rfind("[" + section + "]", 0) == 0 || t.rfind("[" + section + ".", 0) == 0) return true;
  }
  return false;
}

// PEP 503 normalisation, as Poetry names packages: lower case, runs of -_. as one '-'.
std::string canonicalName(const std::string& name) {
  std::string out;
  bool dash = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      dash = true;
      continue;
    }
    if (dash && !out.empty()) out += '-';
    dash = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string poetryVirtualenvsPath(const EnvLookup& env) {
  if (auto p = env("POETRY_VIRTUALENVS_PATH"); !p.empty()) return p;
  std::string configHome = env("XDG_CONFIG_HOME");
  if (configHome.empty() && !env("HOME").empty()) configHome = env("HOME") + "/.config";
  if (!configHome.empty()) {
    std::string configured = tomlString(readFile((fs::path(configHome) / "pypoetry" / "config.toml").string()).value_or(""), "virtualenvs", "path");
    if (!configured.empty()) return configured;
  }
  if (auto p = env("POETRY_CACHE_DIR"); !p.empty()) return p + "/virtualenvs";
  std::string cacheHome = env("XDG_CACHE_HOME");
  if (cacheHome.empty() && !env("HOME").empty()) cacheHome = env("HOME") + "/.cache";
  return cacheHome.empty() ? "" : cacheHome + "/pypoetry/virtualenvs";
}

}  // namespace

std::string poetryEnvName(const std::string& packageName, const std::string& projectDir) {
  if (packageName.empty()) return "";
  std::string name = canonicalName(packageName);
  for (char& c : name) {
    if (std::string_view(" $`!*@\"\\\r\n\t").find(c) != std::string_view::npos) c = '_';
  }
  if (name.size() > 42) name.resize(42);
  const auto digest = sha256(projectDir);
  return name + "-" + base64Url(digest.data(), digest.size()).substr(0, 8);
}

std::string poetryVenv(const std::string& root, const EnvLookup& env) {
  const std::string pyproject = readFile((fs::path(root) / "pyproject.toml").string()).value_or("");
  if (!hasSection(pyproject, "tool.poetry")) return "";
  std::string name = tomlString(pyproject, "tool.poetry", "name");
  if (name.empty()) name = tomlString(pyproject, "project", "name");
  std::error_code ec;
  const fs::path real = fs::canonical(root, ec);
  const std::string envName = poetryEnvName(name, ec ? root : real.string());
  const std::string base = poetryVirtualenvsPath(env);
  if (envName.empty() || base.empty()) return "";
  // envs.toml records which Python minor version `poetry env use` made active.
  const std::string minor = tomlString(readFile((fs::path(base) / "envs.toml").string()).value_or(""), envName, "minor");
  if (!minor.empty() && isVenv(fs::path(base) / (envName + "-py" + minor))) return (fs::path(base) / (envName + "-py" + minor)).string();
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(base, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind(envName + "-py", 0) == 0 && isVenv(entry.path())) found.push_back(entry.path().string());
  }
  if (found.empty()) return "";
  // The newest Python: "-py3.12" after "-py3.9" (compare the minor numerically).
  auto minorOf = [&](const std::string& p) {
    auto dot = p.rfind('.');
    return dot == std::string::npos ? 0 : std::atoi(p.c_str() + dot + 1);
  };
  return *std::max_element(found.begin(), found.end(),
                           [&](const std::string& a, const std::string& b) { return minorOf(a) < minorOf(b); });
}

std::vector<std::string> projectVenvs(const std::string& root, const EnvLookup& env) {
  std::vector<std::string> out;
  auto add = [&](const std::string& dir) {
    if (dir.empty() || !isVenv(dir)) return;
    if (std::find(out.begin(), out.end(), dir) == out.end()) out.push_back(dir);
  };
  add(env("VIRTUAL_ENV"));
  if (root.empty()) return out;
  if (std::string uv = env("UV_PROJECT_ENVIRONMENT"); !uv.empty()) add(uv[0] == '/' ? uv : root + "/" + uv);
  add(root + "/.venv");
  add(root + "/venv");
  add(poetryVenv(root, env));
  return out;
}

}  // namespace greenlight::core::testing
