#include "core/testing/cmake/UserConfig.h"
#include "core/testing/Discovery.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/Regex.h"

namespace greenlight::core::testing::cmake {
namespace fs = std::filesystem;

namespace {

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool startsWith(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

bool underDir(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && startsWith(path, dir) && path[dir.size()] == '/');
}

// One CMake command invocation: its name, its arguments (unquoted), the line it starts on.
struct Command {
  std::string name;
  std::vector<std::string> args;
  int line = 0;
};

// The commands of a list file, read by hand: comments, quoted and bracket arguments, nested
// parentheses (a regex cannot balance them).
std::vector<Command> commandsOf(const std::string& text) {
  std::vector<Command> out;
  std::size_t i = 0;
  int line = 1;
  const auto advance = [&](std::size_t to) {
    for (; i < to && i < text.size(); ++i)
      if (text[i] == '\n') ++line;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      const std::size_t end = text.find('\n', i);
      advance(end == std::string::npos ? text.size() : end);
      continue;
    }
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
      advance(i + 1);
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
    std::size_t k = j;
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
    if (k >= text.size() || text[k] != '(') {
      advance(j);
      continue;
    }
    Command cmd;
    cmd.name = lower(text.substr(i, j - i));
    cmd.line = line;
    advance(k + 1);
    int depth = 1;
    std::string cur;
    bool have = false;
    const auto flush = [&] {
      if (have) cmd.args.push_back(cur);
      cur.clear();
      have = false;
    };
    while (i < text.size() && depth > 0) {
      const char d = text[i];
      if (d == '"') {
        std::size_t e = i + 1;
        while (e < text.size() && text[e] != '"') e += text[e] == '\\' ? 2 : 1;
        cur += text.substr(i + 1, std::min(e, text.size()) - i - 1);
        have = true;
        advance(e + 1);
      } else if (d == '[' && i + 1 < text.size() && (text[i + 1] == '[' || text[i + 1] == '=')) {
        std::size_t e = i + 1;
        while (e < text.size() && text[e] == '=') ++e;
        if (e < text.size() && text[e] == '[') {
          const std::string close = "]" + std::string(e - i - 1, '=') + "]";
          const std::size_t end = text.find(close, e + 1);
          cur += text.substr(e + 1, (end == std::string::npos ? text.size() : end) - e - 1);
          have = true;
          advance(end == std::string::npos ? text.size() : end + close.size());
        } else {
          cur += d;
          have = true;
          advance(i + 1);
        }
      } else if (d == '#') {
        flush();
        const std::size_t end = text.find('\n', i);
        advance(end == std::string::npos ? text.size() : end);
      } else if (d == '(') {
        ++depth;
        flush();
        advance(i + 1);
      } else if (d == ')') {
        --depth;
        flush();
        advance(i + 1);
      } else if (std::isspace(static_cast<unsigned char>(d))) {
        flush();
        advance(i + 1);
      } else {
        cur += d;
        have = true;
        advance(i + 1);
      }
    }
    out.push_back(std::move(cmd));
  }
  return out;
}

std::string valueAfter(const std::vector<std::string>& args, const std::string& key) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == key) return args[i + 1];
  return "";
}

bool has(const std::vector<std::string>& args, const std::string& key) {
  return std::find(args.begin(), args.end(), key) != args.end();
}

// ---- presets

std::string hostSystemName() { return "Linux"; }

struct PresetMacros {
  std::string sourceDir, presetName, generator, fileDir;
  std::map<std::string, std::string> env;  // the preset's environment
};

std::string expandMacros(const std::string& s, const PresetMacros& m, int depth = 0) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] != '$') {
      out += s[i++];
      continue;
    }
    const std::size_t open = s.find('{', i);
    const std::size_t close = open == std::string::npos ? std::string::npos : s.find('}', open);
    if (open == std::string::npos || close == std::string::npos) {
      out += s.substr(i);
      break;
    }
    const std::string kind = s.substr(i + 1, open - i - 1), name = s.substr(open + 1, close - open - 1);
    std::string value;
    bool known = true;
    if (kind.empty()) {
      if (name == "sourceDir") value = m.sourceDir;
      else if (name == "sourceParentDir") value = fs::path(m.sourceDir).parent_path().string();
      else if (name == "sourceDirName") value = fs::path(m.sourceDir).filename().string();
      else if (name == "presetName") value = m.presetName;
      else if (name == "generator") value = m.generator;
      else if (name == "hostSystemName") value = hostSystemName();
      else if (name == "fileDir") value = m.fileDir;
      else if (name == "dollar") value = "$";
      else if (name == "pathListSep") value = ":";
      else known = false;
    } else if (kind == "env") {
      auto it = m.env.find(name);
      if (it != m.env.end() && depth < 4) value = expandMacros(it->second, m, depth + 1);
      else if (const char* v = std::getenv(name.c_str())) value = v;
    } else if (kind == "penv") {
      if (const char* v = std::getenv(name.c_str())) value = v;
    } else if (kind == "vendor") {
      value.clear();
    } else {
      known = false;
    }
    if (!known) {
      out += s.substr(i, close - i + 1);
    } else {
      out += value;
    }
    i = close + 1;
  }
  return out;
}

bool conditionHolds(const nlohmann::json& c, const PresetMacros& m) {
  if (c.is_null()) return true;
  if (c.is_boolean()) return c.get<bool>();
  if (!c.is_object()) return true;
  const std::string type = c.value("type", "");
  const auto str = [&](const char* key) {
    auto it = c.find(key);
    return it != c.end() && it->is_string() ? expandMacros(it->get<std::string>(), m) : std::string();
  };
  if (type == "const") return c.value("value", true);
  if (type == "equals") return str("lhs") == str("rhs");
  if (type == "notEquals") return str("lhs") != str("rhs");
  if (type == "inList" || type == "notInList") {
    bool found = false;
    const std::string s = str("string");
    if (auto it = c.find("list"); it != c.end() && it->is_array())
      for (const auto& v : *it) found = found || (v.is_string() && expandMacros(v.get<std::string>(), m) == s);
    return type == "inList" ? found : !found;
  }
  if (type == "anyOf" || type == "allOf") {
    auto it = c.find("conditions");
    if (it == c.end() || !it->is_array()) return true;
    bool any = false, all = true;
    for (const auto& sub : *it) {
      const bool h = conditionHolds(sub, m);
      any = any || h;
      all = all && h;
    }
    return type == "anyOf" ? any : all;
  }
  if (type == "not") return !conditionHolds(c.value("condition", nlohmann::json()), m);
  if (type == "matches" || type == "notMatches") {
    try {
      const bool hit = std::regex_search(str("string"), support::regex(str("regex")));
      return type == "matches" ? hit : !hit;
    } catch (const std::exception&) {
      return true;
    }
  }
  return true;
}

struct RawPreset {
  nlohmann::json json;
  std::string file;
};

void readPresetFile(const fs::path& path, std::vector<RawPreset>& out, std::set<std::string>& seen, std::string* error) {
  std::error_code ec;
  const std::string key = fs::weakly_canonical(path, ec).string();
  if (!seen.insert(key).second) return;
  auto text = readFile(path.string());
  if (!text) return;
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object()) {
    if (error && error->empty()) *error = path.string() + ": not a JSON object (CMake presets)";
    return;
  }
  if (auto inc = j.find("include"); inc != j.end() && inc->is_array())
    for (const auto& f : *inc)
      if (f.is_string()) readPresetFile(path.parent_path() / f.get<std::string>(), out, seen, error);
  if (auto cps = j.find("configurePresets"); cps != j.end()) {
    if (!cps->is_array()) {
      if (error && error->empty()) *error = path.string() + ": configurePresets: expected an array";
      return;
    }
    for (const auto& p : *cps)
      if (p.is_object() && p.contains("name") && p["name"].is_string()) out.push_back({p, path.string()});
  }
}

std::string cacheValue(const nlohmann::json& v, std::string* type) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "TRUE" : "FALSE";
  if (v.is_object()) {
    if (v.contains("type") && v["type"].is_string()) *type = v["type"].get<std::string>();
    const auto& val = v.value("value", nlohmann::json());
    if (val.is_boolean()) return val.get<bool>() ? "TRUE" : "FALSE";
    if (val.is_string()) return val.get<std::string>();
  }
  return "";
}

// ---- the user's cache


bool systemPath(const std::string& p) {
  for (const char* d : {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/proc", "/dev", "/sys", "/tmp"})
    if (underDir(p, d)) return true;
  return p == "/" || p.empty();
}

// The directory a path names (itself, or a file's parent), when it exists and is worth binding.
void addReadOnly(std::vector<std::string>& dirs, const std::string& path) {
  if (path.empty() || path[0] != '/') return;
  std::error_code ec;
  fs::path p = fs::path(path).lexically_normal();
  if (!fs::exists(p, ec)) return;
  if (!fs::is_directory(p, ec)) p = p.parent_path();
  const std::string s = p.string();
  if (systemPath(s)) return;
  if (std::find(dirs.begin(), dirs.end(), s) == dirs.end()) dirs.push_back(s);
}

std::string relativeTo(const std::string& file, const std::string& dir) {
  const std::string r = fs::path(file).lexically_relative(dir).string();
  return r.empty() || startsWith(r, "..") ? file : r;
}

// Where the user's build downloaded an ExternalProject_Add dependency's sources, when they are
// there: its SOURCE_DIR, else <PREFIX>/src/<name>, else <binary dir>/<name>-prefix/src/<name>, with
// the directory variables a list file uses for them resolved (relative paths are relative to the
// binary dir of the list file's directory, as ExternalProject reads them). "" when a path uses
// another variable or when nothing is there (a project that sets the EP_BASE directory property
// keeps its sources elsewhere: nothing is found, and its download gets the sentence).
std::string externalSourcesOf(const FetchedDependency& d, const ProjectDir& project, const UserBuild& user) {
  const fs::path listDir = fs::path(d.file).parent_path();
  const std::string rel = listDir.lexically_relative(project.sourceDir).string();
  if (rel.empty() || startsWith(rel, "..")) return "";
  // The binary dir the call ran in: its CMakeLists.txt's; a module (cmake/deps.cmake) runs in the
  // directory that include()s it, most often the top one.
  std::vector<std::string> binaryDirs = {rel == "." ? user.dir : (fs::path(user.dir) / rel).lexically_normal().string()};
  if (fs::path(d.file).filename() != "CMakeLists.txt" && binaryDirs.front() != user.dir) binaryDirs.push_back(user.dir);
  for (const std::string& binaryDir : binaryDirs) {
    const auto resolve = [&](std::string path) -> std::string {
      for (const auto& [var, value] :
           std::vector<std::pair<std::string, std::string>>{{"${CMAKE_SOURCE_DIR}", project.sourceDir},
                                                            {"${PROJECT_SOURCE_DIR}", project.sourceDir},
                                                            {"${CMAKE_CURRENT_SOURCE_DIR}", listDir.string()},
                                                            {"${CMAKE_CURRENT_LIST_DIR}", listDir.string()},
                                                            {"${CMAKE_BINARY_DIR}", user.dir},
                                                            {"${PROJECT_BINARY_DIR}", user.dir},
                                                            {"${CMAKE_CURRENT_BINARY_DIR}", binaryDir}}) {
        for (std::size_t at; (at = path.find(var)) != std::string::npos;) path.replace(at, var.size(), value);
      }
      if (path.find("${") != std::string::npos || path.find("$<") != std::string::npos) return "";
      fs::path p(path);
      return (p.is_absolute() ? p : fs::path(binaryDir) / p).lexically_normal().string();
    };
    std::string dir;
    if (!d.sourceDir.empty()) {
      dir = resolve(d.sourceDir);
    } else {
      const std::string prefix = d.prefix.empty() ? binaryDir + "/" + d.name + "-prefix" : resolve(d.prefix);
      if (!prefix.empty()) dir = prefix + "/src/" + d.name;
    }
    std::error_code ec;
    if (!dir.empty() && fs::is_directory(dir, ec) && !fs::is_empty(dir, ec)) return dir;
  }
  return "";
}

}  // namespace

std::vector<FetchedDependency> fetchedDependencies(const std::vector<std::string>& listFiles) {
  std::vector<FetchedDependency> out;
  for (const auto& f : listFiles) {
    auto text = readFile(f);
    if (!text) continue;
    const std::string low = lower(*text);
    if (low.find("fetchcontent_declare") == std::string::npos && low.find("externalproject_add") == std::string::npos &&
        low.find("download") == std::string::npos)
      continue;
    for (const auto& c : commandsOf(*text)) {
      FetchedDependency d;
      d.file = f;
      d.line = c.line;
      if ((c.name == "fetchcontent_declare" || c.name == "externalproject_add") && !c.args.empty()) {
        d.name = c.args[0];
        d.how = c.name == "fetchcontent_declare" ? "FetchContent_Declare" : "ExternalProject_Add";
        for (const char* key : {"GIT_REPOSITORY", "URL", "SVN_REPOSITORY", "HG_REPOSITORY", "CVS_REPOSITORY"})
          if (d.from.empty()) d.from = valueAfter(c.args, key);
        // Sources already given (SOURCE_DIR without a download method): nothing to fetch.
        if (d.from.empty()) continue;
        d.findPackageFirst = has(c.args, "FIND_PACKAGE_ARGS") || has(c.args, "OVERRIDE_FIND_PACKAGE");
        if (d.how == "ExternalProject_Add") {
          d.prefix = valueAfter(c.args, "PREFIX");
          d.sourceDir = valueAfter(c.args, "SOURCE_DIR");
        }
        out.push_back(std::move(d));
      } else if (c.name == "file" && c.args.size() >= 2 && c.args[0] == "DOWNLOAD") {
        d.how = "file(DOWNLOAD)";
        d.from = c.args[1];
        out.push_back(std::move(d));
      }
    }
  }
  return out;
}

std::vector<ConfigurePreset> readConfigurePresets(const std::string& sourceDir, std::string* error) {
  std::vector<RawPreset> raw;
  std::set<std::string> seen;
  for (const char* name : {"CMakePresets.json", "CMakeUserPresets.json"})
    readPresetFile(fs::path(sourceDir) / name, raw, seen, error);
  std::map<std::string, const RawPreset*> byName;
  for (const auto& r : raw) byName.emplace(r.json["name"].get<std::string>(), &r);
  std::vector<ConfigurePreset> out;
  for (const auto& r : raw) {
    // The inheritance chain, nearest first (a preset's own fields win over what it inherits; of
    // several parents, the first listed wins).
    std::vector<const RawPreset*> chain;
    std::set<std::string> visited;
    std::function<void(const RawPreset*)> walk = [&](const RawPreset* p) {
      if (!visited.insert(p->json["name"].get<std::string>()).second || chain.size() > 32) return;
      chain.push_back(p);
      const auto& inh = p->json.value("inherits", nlohmann::json());
      std::vector<std::string> parents;
      if (inh.is_string()) parents.push_back(inh.get<std::string>());
      if (inh.is_array())
        for (const auto& x : inh)
          if (x.is_string()) parents.push_back(x.get<std::string>());
      for (const auto& name : parents)
        if (auto it = byName.find(name); it != byName.end()) walk(it->second);
    };
    walk(&r);
    const auto field = [&](const char* key) -> nlohmann::json {
      for (const auto* p : chain)
        if (auto it = p->json.find(key); it != p->json.end() && !it->is_null()) return *it;
      return nlohmann::json();
    };
    ConfigurePreset cp;
    cp.name = r.json["name"].get<std::string>();
    cp.file = r.file;
    cp.hidden = r.json.value("hidden", false);
    PresetMacros m;
    m.sourceDir = sourceDir;
    m.presetName = cp.name;
    m.fileDir = fs::path(r.file).parent_path().string();
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      if (auto env = (*it)->json.find("environment"); env != (*it)->json.end() && env->is_object())
        for (auto e = env->begin(); e != env->end(); ++e)
          if (e->is_string()) m.env[e.key()] = e->get<std::string>();
    if (auto g = field("generator"); g.is_string()) cp.generator = g.get<std::string>();
    m.generator = cp.generator;
    if (auto b = field("binaryDir"); b.is_string()) {
      fs::path p = expandMacros(b.get<std::string>(), m);
      if (p.is_relative()) p = fs::path(sourceDir) / p;
      cp.binaryDir = p.lexically_normal().string();
    }
    if (auto t = field("toolchainFile"); t.is_string()) {
      fs::path p = expandMacros(t.get<std::string>(), m);
      if (p.is_relative()) p = fs::path(sourceDir) / p;
      cp.toolchainFile = p.lexically_normal().string();
    }
    std::map<std::string, std::pair<std::string, std::string>> vars;  // name -> (type, value)
    std::set<std::string> unset;
    for (const auto* p : chain) {  // nearest first: the first word on a name stands
      auto cv = p->json.find("cacheVariables");
      if (cv == p->json.end() || !cv->is_object()) continue;
      for (auto e = cv->begin(); e != cv->end(); ++e) {
        if (vars.count(e.key()) || unset.count(e.key())) continue;
        if (e->is_null()) {
          unset.insert(e.key());
          continue;
        }
        std::string type;
        std::string value = expandMacros(cacheValue(*e, &type), m);
        vars[e.key()] = {type, value};
      }
    }
    for (const auto& [name, tv] : vars) cp.cacheVariables.emplace_back(tv.first.empty() ? name : name + ":" + tv.first, tv.second);
    cp.usable = conditionHolds(r.json.value("condition", nlohmann::json()), m);
    out.push_back(std::move(cp));
  }
  return out;
}

UserConfiguration userConfiguration(const ProjectDir& project, const std::optional<UserBuild>& found, bool offline) {
  UserConfiguration uc;
  const std::string& src = project.sourceDir;
  std::optional<UserBuild> user = found;
  auto presets = readConfigurePresets(src, &uc.presetError);
  // The user's build directory may be a preset's binaryDir anywhere (builds/<preset>/...).
  const ConfigurePreset* chosen = nullptr;
  std::error_code ec;
  for (const auto& p : presets) {
    if (p.binaryDir.empty()) continue;
    if (user && fs::path(user->dir).lexically_normal() == fs::path(p.binaryDir)) {
      chosen = &p;
      break;
    }
  }
  if (!chosen && !user) {
    fs::file_time_type best{};
    for (const auto& p : presets) {
      if (p.binaryDir.empty()) continue;
      auto b = readUserBuild(p.binaryDir, src);
      if (!b) continue;
      auto t = fs::last_write_time(fs::path(p.binaryDir) / "CMakeCache.txt", ec);
      if (!user || t > best) {
        user = std::move(b);
        best = t;
        chosen = &p;
      }
    }
  }
  if (!chosen) {
    for (const auto& p : presets)
      if (!p.hidden && p.usable && p.name == "default") chosen = &p;
    for (const auto& p : presets)
      if (!chosen && !p.hidden && p.usable) chosen = &p;
  }
  std::map<std::string, std::string> defined;  // NAME -> value, what the args define
  const auto define = [&](const std::string& nameType, const std::string& value) {
    const std::string name = nameType.substr(0, nameType.find(':'));
    defined[name] = value;
    uc.args.push_back("-D" + nameType + "=" + value);
  };
  if (chosen) {
    uc.source = "preset '" + chosen->name + "' (" + relativeTo(chosen->file, src) + ")";
    uc.generator = chosen->generator;
    if (!chosen->toolchainFile.empty()) define("CMAKE_TOOLCHAIN_FILE:FILEPATH", chosen->toolchainFile);
    for (const auto& [name, value] : chosen->cacheVariables) define(name, value);
  }
  if (user) {
    if (uc.source.empty()) uc.source = "the cache of " + relativeTo(user->dir, src);
    else uc.source += " and the cache of " + relativeTo(user->dir, src);
    const auto& cache = user->cache;
    if (auto g = cache.find("CMAKE_GENERATOR"); g != cache.end() && !g->second.empty()) uc.generator = g->second;
    for (auto& o : carriedOptions(*user, project.listFiles)) uc.args.push_back(std::move(o));
    for (const auto& [name, value] : cache) {
      const std::string type = user->types.count(name) ? user->types.at(name) : "";
      if (type == "INTERNAL" || type == "STATIC" || value.empty()) continue;
      const bool pathList = name == "CMAKE_PREFIX_PATH" || name == "CMAKE_MODULE_PATH" || name == "CMAKE_FIND_ROOT_PATH";
      const bool carried =
          name == "CMAKE_TOOLCHAIN_FILE" || pathList || name == "CMAKE_SYSROOT" || name == "BUILD_SHARED_LIBS" ||
          (startsWith(name, "VCPKG_") && name != "VCPKG_INSTALLED_DIR" && name != "VCPKG_MANIFEST_INSTALL") ||
          startsWith(name, "CONAN_") || (startsWith(name, "FETCHCONTENT_SOURCE_DIR_")) ||
          name == "FETCHCONTENT_TRY_FIND_PACKAGE_MODE" ||
          // find_package's results outside the build (a -DFoo_DIR the user passed, an SDK)
          (type == "PATH" && name.size() > 4 && name.compare(name.size() - 4, 4, "_DIR") == 0 && !startsWith(name, "CMAKE_") &&
           value.find("NOTFOUND") == std::string::npos && !underDir(value, user->dir));
      if (!carried || defined.count(name)) continue;
      define(name + (type.empty() ? "" : ":" + type), value);
    }
  }
  // FetchContent: the sources the user's build fetched, handed over.
  const auto deps = fetchedDependencies(project.listFiles);
  std::set<std::string> haveSource;
  for (const auto& [name, value] : defined)
    if (startsWith(name, "FETCHCONTENT_SOURCE_DIR_") && fs::is_directory(value, ec)) haveSource.insert(name.substr(24));
  if (user) {
    std::string base = user->cache.count("FETCHCONTENT_BASE_DIR") ? user->cache.at("FETCHCONTENT_BASE_DIR") : "";
    if (base.empty()) base = user->dir + "/_deps";
    for (const auto& e : fs::directory_iterator(base, ec)) {
      const std::string n = e.path().filename().string();
      if (!e.is_directory(ec) || n.size() <= 4 || n.compare(n.size() - 4, 4, "-src") != 0) continue;
      const std::string name = upper(n.substr(0, n.size() - 4));
      // An empty directory: a population that failed half-way.
      if (fs::is_empty(e.path(), ec) || haveSource.count(name)) continue;
      define("FETCHCONTENT_SOURCE_DIR_" + name + ":PATH", e.path().lexically_normal().string());
      haveSource.insert(name);
      uc.reused.push_back(n.substr(0, n.size() - 4));
    }
    // vcpkg's manifest mode installs at configure time (a download): the user's install instead.
    auto tc = defined.find("CMAKE_TOOLCHAIN_FILE");
    if (tc != defined.end() && tc->second.find("vcpkg.cmake") != std::string::npos &&
        fs::is_directory(user->dir + "/vcpkg_installed", ec)) {
      define("VCPKG_INSTALLED_DIR:PATH", user->dir + "/vcpkg_installed");
      define("VCPKG_MANIFEST_INSTALL:BOOL", "OFF");
    }
  }
  bool allPresent = true;
  for (const auto& d : deps) {
    if (d.how != "FetchContent_Declare") continue;
    if (haveSource.count(upper(d.name))) continue;
    allPresent = false;
    if (!d.findPackageFirst) uc.missing.push_back(d);
  }
  // ExternalProject_Add downloads at build time: the sources the user's build downloaded are
  // handed over through externalProjectShim().
  for (const auto& d : deps) {
    if (d.how == "FetchContent_Declare") continue;
    const std::string dir = d.how == "ExternalProject_Add" && user ? externalSourcesOf(d, project, *user) : "";
    if (dir.empty()) {
      uc.missing.push_back(d);
      continue;
    }
    uc.externalSources.emplace_back(d.name, dir);
    uc.reused.push_back(d.name);
    addReadOnly(uc.readOnly, dir);
  }
  if (offline && !haveSource.empty() && allPresent) define("FETCHCONTENT_FULLY_DISCONNECTED:BOOL", "ON");
  // What configure and build read outside the project.
  for (const auto& [name, value] : defined) {
    if (startsWith(name, "FETCHCONTENT_SOURCE_DIR_") || name == "VCPKG_INSTALLED_DIR" || (name.size() > 4 && name.compare(name.size() - 4, 4, "_DIR") == 0 && !startsWith(name, "CMAKE_"))) {
      addReadOnly(uc.readOnly, value);
    } else if (name == "CMAKE_TOOLCHAIN_FILE" || name == "VCPKG_CHAINLOAD_TOOLCHAIN_FILE") {
      // vcpkg's toolchain sits at <root>/scripts/buildsystems: its root holds the ports and triplets.
      fs::path p(value);
      if (p.filename() == "vcpkg.cmake" && p.parent_path().filename() == "buildsystems") addReadOnly(uc.readOnly, p.parent_path().parent_path().parent_path().string());
      else addReadOnly(uc.readOnly, value);
      // conan's toolchain names packages in its cache under $HOME.
      if (auto text = readFile(value)) {
        const char* home = std::getenv("HOME");
        for (const char* store : {"/.conan2", "/.conan"})
          if (home && text->find(std::string(home) + store) != std::string::npos) addReadOnly(uc.readOnly, std::string(home) + store);
      }
    } else if (name == "CMAKE_PREFIX_PATH" || name == "CMAKE_MODULE_PATH" || name == "CMAKE_FIND_ROOT_PATH" || name == "CMAKE_SYSROOT") {
      std::stringstream ss(value);
      for (std::string part; std::getline(ss, part, ';');) addReadOnly(uc.readOnly, part);
    }
  }
  return uc;
}

std::string externalProjectShim(const UserConfiguration& config) {
  if (config.externalSources.empty()) return "";
  // Each argument as a bracket argument: an unquoted ${ARGN} would drop the empty ones
  // (CONFIGURE_COMMAND "" means "no configure step").
  std::string s =
      "# Written by greenlight (issue 34): the sources of these ExternalProject_Add dependencies come from\n"
      "# the user's build, which downloaded them; greenlight's build has no network.\n"
      "include_guard(GLOBAL)\n"
      "if(CMAKE_VERSION VERSION_LESS 3.18)  # no cmake_language(EVAL): the downloads stay as written\n"
      "  return()\n"
      "endif()\n"
      "include(\"${CMAKE_ROOT}/Modules/ExternalProject.cmake\")\n";
  for (const auto& [name, dir] : config.externalSources)
    s += "set_property(GLOBAL PROPERTY [=====[GREENLIGHT_EP_SOURCE_" + name + "]=====] [=====[" + dir + "]=====])\n";
  s += "function(ExternalProject_Add name)\n"
       "  set(call \"_ExternalProject_Add([=====[${name}]=====]\")\n"
       "  if(ARGC GREATER 1)\n"
       "    math(EXPR last \"${ARGC} - 1\")\n"
       "    foreach(i RANGE 1 ${last})\n"
       "      string(APPEND call \" [=====[${ARGV${i}}]=====]\")\n"
       "    endforeach()\n"
       "  endif()\n"
       "  get_property(src GLOBAL PROPERTY \"GREENLIGHT_EP_SOURCE_${name}\")\n"
       "  if(src)\n"
       "    string(APPEND call \" DOWNLOAD_COMMAND [=====[${CMAKE_COMMAND}]=====] -E copy_directory [=====[${src}]=====] <SOURCE_DIR>\"\n"
       "                       \" UPDATE_COMMAND \\\"\\\" PATCH_COMMAND \\\"\\\"\")\n"
       "  endif()\n"
       "  cmake_language(EVAL CODE \"${call})\")\n"
       "endfunction()\n";
  return s;
}

std::string networkDiagnosis(const ProjectDir& project, const UserConfiguration& config, const std::string& output,
                             const std::string& syscall, bool building) {
  const std::string low = lower(output);
  const bool socketRefused = syscall.find("socket") != std::string::npos || syscall.find("connect") != std::string::npos;
  const bool networkWords = low.find("could not resolve host") != std::string::npos ||
                            low.find("failed to connect") != std::string::npos ||
                            low.find("couldn't resolve host") != std::string::npos ||
                            low.find("temporary failure in name resolution") != std::string::npos ||
                            low.find("network is unreachable") != std::string::npos ||
                            low.find("unable to access 'http") != std::string::npos ||
                            low.find("error: downloading") != std::string::npos ||
                            low.find("status_code: 6") != std::string::npos || low.find("status_code: 7") != std::string::npos;
  // A build fails for many reasons (a compile error in a fetched dependency's sources names it
  // too): only one that reached for the network is the network's doing.
  if (building && !networkWords && !socketRefused) return "";
  // A dependency fetched without a source to reuse: name it when CMake's words mention it (or
  // nothing else explains the failure).
  std::vector<const FetchedDependency*> named;
  for (const auto& d : config.missing) {
    const std::string n = lower(d.name);
    if (!n.empty() && (low.find(n + "-populate") != std::string::npos || low.find(n + "-src") != std::string::npos ||
                       low.find(n + "-subbuild") != std::string::npos || low.find("populating " + n) != std::string::npos ||
                       low.find(n + "-prefix") != std::string::npos || low.find(n + "-download") != std::string::npos))
      named.push_back(&d);
    else if (d.how == "file(DOWNLOAD)" && low.find(lower(d.from)) != std::string::npos)
      named.push_back(&d);
  }
  if (named.empty() && (networkWords || socketRefused))
    for (const auto& d : config.missing) named.push_back(&d);
  // A command of a list file that reaches for the network (getent hosts, curl, git clone).
  std::vector<std::string> commands;
  if (named.empty() && (networkWords || socketRefused)) {
    static const std::set<std::string> netTools = {"getent", "curl", "wget", "git", "ping", "nslookup", "host", "dig", "nc"};
    for (const auto& f : project.listFiles) {
      auto text = readFile(f);
      if (!text) continue;
      for (const auto& c : commandsOf(*text)) {
        if (c.name != "execute_process") continue;
        for (std::size_t i = 0; i + 1 < c.args.size(); ++i) {
          if (c.args[i] != "COMMAND") continue;
          const std::string prog = fs::path(c.args[i + 1]).filename().string();
          if (!netTools.count(prog)) continue;
          std::string words = c.args[i + 1];
          for (std::size_t k = i + 2; k < c.args.size() && k < i + 5 && upper(c.args[k]) != c.args[k]; ++k) words += " " + c.args[k];
          commands.push_back("`" + words + "` (execute_process at " + relativeTo(f, project.sourceDir) + ":" + std::to_string(c.line) + ")");
        }
      }
    }
  }
  if (named.empty() && commands.empty() && !networkWords && !socketRefused) return "";
  const std::string allow = "or allow the network for greenlight's configure and build: \"sandbox\": {\"network\": true} in .greenlight.json";
  std::string s = building ? "cmake could not build " + project.sourceDir + " offline (greenlight's build has no network): "
                           : "cmake could not configure " + project.sourceDir + " offline (greenlight's configure has no network): ";
  if (!named.empty()) {
    s += "it downloads ";
    for (std::size_t i = 0; i < named.size() && i < 6; ++i) {
      const auto& d = *named[i];
      if (i) s += ", ";
      s += (d.name.empty() ? d.from : d.name + " from " + d.from) + " (" + d.how + " at " + relativeTo(d.file, project.sourceDir) + ":" +
           std::to_string(d.line) + ")";
    }
    const auto& first = *named.front();
    if (first.how == "FetchContent_Declare") {
      s += ". Build the project once yourself (`cmake -S . -B build`: its FetchContent fills build/_deps/" + lower(first.name) +
           "-src, which greenlight then reuses), or set FETCHCONTENT_SOURCE_DIR_" + upper(first.name) +
           " to a local copy in your build's cache, " + allow;
    } else if (first.how == "ExternalProject_Add") {
      // Where its download lands, as the list file writes it.
      const std::string into = !first.sourceDir.empty() ? first.sourceDir
                               : "build/" + (first.prefix.empty() ? first.name + "-prefix" : first.prefix) + "/src/" + first.name;
      s += ". Build the project once yourself (`cmake --build build`: its ExternalProject_Add downloads into " + into +
           ", which greenlight then reuses), " + allow;
    } else {
      s += ". Build the project once yourself so that the download is in your build directory, " + allow;
    }
  } else if (!commands.empty()) {
    s += "a command of the configure reaches for the network: ";
    for (std::size_t i = 0; i < commands.size() && i < 4; ++i) s += (i ? ", " : "") + commands[i];
    s += socketRefused ? " (the sandbox refused " + syscall + "). Make it optional when offline, " + allow
                       : ". Make it optional when offline, " + allow;
  } else {
    s += socketRefused ? std::string("a step of the ") + (building ? "build" : "configure") + " opened a network socket (the sandbox refused " +
                             syscall + "); " + allow
                       : "a download failed; " + allow;
  }
  if (!config.reused.empty()) {
    s += ". Reused from your build: ";
    for (std::size_t i = 0; i < config.reused.size(); ++i) s += (i ? ", " : "") + config.reused[i];
  }
  return s + ".";
}

}  // namespace greenlight::core::testing::cmake
