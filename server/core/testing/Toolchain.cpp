// Tool resolution: see Toolchain.h for the order. Host processes are started only for
// `--version` and, as a last resort, `pyenv which`; both are the user's own tools (the same
// ones their shell runs), never workspace code.
#include "core/testing/Toolchain.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "core/testing/NodeVersions.h"
#include "core/testing/PythonEnvs.h"
#include "core/testing/Subprocess.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

std::string envOr(const ToolRequest& req, const std::string& key) {
  auto it = req.environment.find(key);
  if (it != req.environment.end()) return it->second;
  const char* v = std::getenv(key.c_str());
  return v ? v : "";
}

bool isExecutableFile(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

std::string readSmallFile(const std::string& p, std::size_t cap = 4096) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return "";
  std::string s(cap, '\0');
  in.read(s.data(), static_cast<std::streamsize>(cap));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream ss(path);
  std::string item;
  while (std::getline(ss, item, ':')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string realPath(const std::string& p) {
  std::error_code ec;
  fs::path r = fs::canonical(p, ec);
  return ec ? p : r.string();
}

// A pyenv shim is a small script that ends up in `pyenv exec`.
bool isPyenvShim(const std::string& p) {
  if (p.find("/shims/") != std::string::npos) {
    std::string head = readSmallFile(p, 2048);
    if (head.rfind("#!", 0) == 0 && head.find("pyenv") != std::string::npos) return true;
  }
  return false;
}

// The installation root of a binary: <prefix>/bin/<name> -> <prefix>.
std::string prefixOf(const std::string& binary) {
  fs::path p(binary);
  fs::path dir = p.parent_path();
  if (dir.filename() == "bin") return dir.parent_path().string();
  return dir.string();
}

void addPrefix(Tool& tool, const std::string& prefix) {
  if (prefix.empty() || isSystemPrefix(prefix)) return;
  for (const auto& p : tool.bindPrefixes) {
    if (prefix == p || prefix.rfind(p + "/", 0) == 0) return;
  }
  tool.bindPrefixes.push_back(prefix);
}

std::vector<std::string> pyenvVersions(const ToolRequest& req, const std::string& root) {
  std::string v = envOr(req, "PYENV_VERSION");
  if (v.empty() && !req.workspaceRoot.empty()) {
    for (fs::path dir = req.workspaceRoot; !dir.empty(); dir = dir.parent_path()) {
      std::string f = readSmallFile((dir / ".python-version").string());
      if (!f.empty()) {
        v = f;
        break;
      }
      if (dir == dir.parent_path()) break;
    }
  }
  if (v.empty()) v = readSmallFile(root + "/version");
  std::vector<std::string> out;
  std::stringstream ss(v);
  std::string item;
  while (ss >> item) {
    if (item.rfind('#', 0) == 0) continue;
    for (std::string part; !item.empty();) {
      auto colon = item.find(':');
      part = item.substr(0, colon);
      if (!part.empty()) out.push_back(part);
      if (colon == std::string::npos) break;
      item = item.substr(colon + 1);
    }
  }
  if (out.empty()) out.push_back("system");
  return out;
}

std::string searchPath(const std::vector<std::string>& dirs, const std::string& name,
                       bool skipShims) {
  for (const auto& d : dirs) {
    std::string cand = d + "/" + name;
    if (!isExecutableFile(cand)) continue;
    if (skipShims && isPyenvShim(cand)) continue;
    return cand;
  }
  return "";
}

std::string firstLine(const std::string& s) {
  auto nl = s.find('\n');
  return trim(nl == std::string::npos ? s : s.substr(0, nl));
}

struct CacheEntry {
  std::optional<Tool> tool;
  std::string error;
};

std::mutex& cacheMutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, CacheEntry>& cache() {
  static std::map<std::string, CacheEntry> c;
  return c;
}

std::optional<Tool> resolveUncached(const ToolRequest& req, std::string* error) {
  Tool tool;
  tool.requested = req.name;
  const std::string& name = req.name;
  if (name.empty()) {
    *error = "no tool name configured";
    return std::nullopt;
  }
  std::string found;
  if (name.find('/') != std::string::npos) {
    fs::path p(name);
    if (p.is_relative() && !req.workspaceRoot.empty()) p = fs::path(req.workspaceRoot) / p;
    if (!isExecutableFile(p.string())) {
      *error = "'" + name + "': " + p.string() + " is not an executable file";
      return std::nullopt;
    }
    found = p.lexically_normal().string();
    tool.via = "absolute";
    // A venv's interpreter named by its path: the venv itself must be bound (its python is a
    // symlink out of it, its site-packages are in it).
    fs::path venv = fs::path(found).parent_path().parent_path();
    std::error_code ec;
    if (fs::exists(venv / "pyvenv.cfg", ec)) {
      addPrefix(tool, realPath(venv.string()));
      tool.environment.push_back("VIRTUAL_ENV=" + realPath(venv.string()));
    }
  }
  const bool isPython = name.rfind("python", 0) == 0;
  if (found.empty() && isPython) {
    const std::vector<std::string> venvs =
        projectVenvs(req.workspaceRoot, [&](const std::string& key) { return envOr(req, key); });
    for (const auto& v : venvs) {
      std::string cand = v + "/bin/" + name;
      if (isExecutableFile(cand) && fs::exists(v + "/pyvenv.cfg")) {
        found = cand;
        tool.via = "venv";
        addPrefix(tool, realPath(v));
        tool.environment.push_back("VIRTUAL_ENV=" + realPath(v));
        break;
      }
    }
  }
  const std::vector<std::string> dirs = splitPath(envOr(req, "PATH"));
  std::string nvm = envOr(req, "NVM_DIR");
  if (nvm.empty() && !envOr(req, "HOME").empty()) nvm = envOr(req, "HOME") + "/.nvm";
  // The node a project pins in .nvmrc / .node-version, when nvm has it installed.
  if (found.empty() && name == "node") {
    found = nvmNodeMatching(nvm, nodeVersionFile(req.workspaceRoot));
    if (!found.empty()) tool.via = "nvmrc";
  }
  if (found.empty()) {
    found = searchPath(dirs, name, false);
    if (!found.empty()) tool.via = "path";
    // A venv's bin on PATH (direnv, a venv activated by PATH alone): the venv must be bound, as
    // for one named by its path.
    std::error_code ec;
    const fs::path venv = fs::path(found).parent_path().parent_path();
    if (!found.empty() && fs::exists(venv / "pyvenv.cfg", ec)) {
      addPrefix(tool, realPath(venv.string()));
      tool.environment.push_back("VIRTUAL_ENV=" + realPath(venv.string()));
    }
  }
  // package.json's engines.node that the node on PATH does not satisfy: nvm's newest that does.
  if (!found.empty() && name == "node" && tool.via == "path") {
    const std::string range = enginesNode(req.workspaceRoot);
    if (!range.empty()) {
      auto out = runHostCommand({found, "--version"}, {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"}, "/", 5.0);
      auto have = parseNodeVersion(firstLine(out.output));
      if (have && !satisfiesRange(*have, range)) {
        for (const auto& [version, bin] : nvmNodes(nvm)) {
          if (!satisfiesRange(version, range)) continue;
          found = bin;
          tool.via = "engines";
          break;
        }
      }
    }
  }
  if (!found.empty() && isPyenvShim(found)) {
    std::string root = envOr(req, "PYENV_ROOT");
    if (root.empty()) root = fs::path(found).parent_path().parent_path().string();
    std::string target;
    for (const auto& version : pyenvVersions(req, root)) {
      if (version == "system") {
        target = searchPath(dirs, name, true);
      } else {
        std::string cand = root + "/versions/" + version + "/bin/" + name;
        if (isExecutableFile(cand)) target = cand;
      }
      if (!target.empty()) break;
    }
    if (target.empty()) {
      // The version files did not settle it (a plugin, a virtualenv name...): ask pyenv.
      std::vector<std::string> argv = {fs::path(root).string() + "/bin/pyenv", "which", name};
      if (!isExecutableFile(argv[0])) argv[0] = searchPath(dirs, "pyenv", false);
      if (!argv[0].empty()) {
        std::vector<std::string> env = {"PATH=" + envOr(req, "PATH"), "PYENV_ROOT=" + root,
                                        "HOME=" + envOr(req, "HOME")};
        if (!envOr(req, "PYENV_VERSION").empty()) env.push_back("PYENV_VERSION=" + envOr(req, "PYENV_VERSION"));
        auto out = runHostCommand(argv, env, req.workspaceRoot.empty() ? "/" : req.workspaceRoot, 5.0);
        if (out.exitCode == 0 && isExecutableFile(firstLine(out.output))) target = firstLine(out.output);
      }
    }
    if (target.empty()) {
      *error = "'" + name + "' is a pyenv shim (" + found + ") but no installed pyenv version provides it";
      return std::nullopt;
    }
    found = target;
    tool.via = "pyenv";
  }
  if (found.empty() && name == "node") {
    std::string alias = trim(readSmallFile(nvm + "/alias/default"));
    if (!alias.empty()) {
      std::error_code ec;
      for (const auto& entry : fs::directory_iterator(nvm + "/versions/node", ec)) {
        std::string v = entry.path().filename().string();
        std::string want = alias[0] == 'v' ? alias : "v" + alias;
        if (v == want || v.rfind(want + ".", 0) == 0) {
          std::string cand = entry.path().string() + "/bin/node";
          if (isExecutableFile(cand)) {
            found = cand;
            tool.via = "nvm";
            break;
          }
        }
      }
    }
  }
  if (found.empty()) {
    *error = "'" + name + "' not found on PATH (" + envOr(req, "PATH") + ")";
    return std::nullopt;
  }
  tool.invokedAs = found;
  tool.path = realPath(found);
  addPrefix(tool, prefixOf(tool.path));
  // A venv's python is a symlink into its base installation; a pyenv version links its own
  // libpython via an rpath under the prefix: both are covered by the prefixes above.
  struct stat st;
  if (::stat(tool.path.c_str(), &st) == 0) {
    tool.fingerprint = std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
                       std::to_string(static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec);
  }
  if (req.queryVersion) {
    auto out = runHostCommand({tool.path, "--version"}, {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"}, "/", 5.0);
    tool.version = firstLine(out.output);
  }
  return tool;
}

}  // namespace

bool isSystemPrefix(const std::string& path) {
  static const char* kDirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"};
  for (const char* d : kDirs) {
    std::string s = d;
    if (path == s || path.rfind(s + "/", 0) == 0) return true;
  }
  return false;
}

std::optional<Tool> resolveTool(const ToolRequest& request, std::string* error) {
  std::string key = request.name + '\0' + request.workspaceRoot + '\0' + envOr(request, "PATH") + '\0' +
                    envOr(request, "PYENV_VERSION") + '\0' + envOr(request, "VIRTUAL_ENV") + '\0' +
                    envOr(request, "NVM_DIR") + '\0' + envOr(request, "UV_PROJECT_ENVIRONMENT") + '\0' +
                    envOr(request, "POETRY_VIRTUALENVS_PATH") + '\0' + (request.queryVersion ? "v" : "");
  {
    std::lock_guard<std::mutex> lock(cacheMutex());
    auto it = cache().find(key);
    if (it != cache().end()) {
      if (!it->second.tool && error) *error = it->second.error;
      return it->second.tool;
    }
  }
  std::string err;
  auto tool = resolveUncached(request, &err);
  std::lock_guard<std::mutex> lock(cacheMutex());
  cache()[key] = {tool, err};
  if (!tool && error) *error = err;
  return tool;
}

void clearToolCache() {
  std::lock_guard<std::mutex> lock(cacheMutex());
  cache().clear();
}

}  // namespace greenlight::core::testing
