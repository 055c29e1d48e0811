#include "core/testing/JsResolve.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include <nlohmann/json.hpp>

#include "core/testing/ContentHash.h"
#include "core/testing/Discovery.h"
#include "core/testing/JsLexer.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;  // `exports` conditions are tried in the order written

namespace {

bool isFile(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isDir(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string stampOf(const std::string& p) {
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0) return "-";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

// A path without "..", "." and a trailing '/' ("/p/test/.." -> "/p").
std::string normal(const fs::path& p) {
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// node's own modules ("fs", "fs/promises", "node:test"): never a local file.
bool isBuiltin(const std::string& spec) {
  static const std::set<std::string> k = {
      "assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto", "dgram",
      "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2", "https", "inspector", "module", "net",
      "os", "path", "perf_hooks", "process", "punycode", "querystring", "readline", "repl", "stream", "string_decoder",
      "sys", "timers", "tls", "trace_events", "tty", "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib"};
  return k.count(spec.substr(0, spec.find('/'))) > 0;
}

// JSON with comments and trailing commas (tsconfig.json, jsconfig.json).
Json parseJsonc(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t start = i++;
      while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
      out.append(text, start, std::min(i, text.size() - 1) - start + 1);
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      out += '\n';
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
    } else if (c == ',') {
      std::size_t j = i + 1;
      while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
      if (j < text.size() && (text[j] == '}' || text[j] == ']')) continue;
      out += c;
    } else {
      out += c;
    }
  }
  return Json::parse(out, nullptr, false);
}

// The package name of a bare specifier ("@s/p/x" -> "@s/p", "p/x" -> "p") and the subpath
// after it ("x", "" for none).
std::pair<std::string, std::string> splitPackage(const std::string& spec) {
  std::size_t slash = spec.find('/');
  if (!spec.empty() && spec[0] == '@' && slash != std::string::npos) slash = spec.find('/', slash + 1);
  if (slash == std::string::npos) return {spec, ""};
  return {spec.substr(0, slash), spec.substr(slash + 1)};
}

// The conditions whose targets count (see the header).
bool activeCondition(const std::string& c) {
  static const std::set<std::string> k = {"import", "require", "node", "module", "development", "default", "node-addons"};
  return k.count(c) > 0;
}

// `key` of an exports/imports map matched against `request` ("./feat/x", "#x"): the exact key,
// else the pattern with one '*' whose prefix is longest (node's PATTERN_KEY_COMPARE), else a
// legacy "./dir/" folder key. The '*' match in `star`.
const Json* matchSubpath(const Json& map, const std::string& request, std::string* star) {
  if (map.contains(request) && !endsWith(request, "/")) {
    star->clear();
    return &map[request];
  }
  const Json* best = nullptr;
  std::string bestKey;
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string& k = it.key();
    const std::size_t s = k.find('*');
    if (s == std::string::npos) {
      if (endsWith(k, "/") && startsWith(request, k) && k.size() > bestKey.size()) {
        best = &it.value();
        bestKey = k;
        *star = request.substr(k.size());
      }
      continue;
    }
    const std::string pre = k.substr(0, s), post = k.substr(s + 1);
    if (request.size() >= pre.size() + post.size() && startsWith(request, pre) && endsWith(request, post) &&
        (pre.size() > bestKey.size() || !best)) {
      best = &it.value();
      bestKey = pre;
      *star = request.substr(pre.size(), request.size() - pre.size() - post.size());
    }
  }
  return best;
}

struct CachedJson {
  std::string stamp;
  std::shared_ptr<const Json> json;
};

// tsconfig's compilerOptions that move modules: baseUrl and paths (absolute directories).
struct TsPaths {
  std::string baseUrl;      // "" when unset
  std::string pathsBase;    // what `paths` targets are relative to
  Json paths = Json::object();
  bool any() const { return !baseUrl.empty() || !paths.empty(); }
};

// The value of an expression between tokens [a, b) of a config file, as a path: string
// literals joined (path.resolve / path.join / new URL), from the config's directory when it
// names __dirname, import.meta.url or process.cwd(). nullopt when it holds no string.
std::optional<std::string> pathExpression(const std::vector<js::Token>& t, std::size_t a, std::size_t b,
                                          const std::string& configDir) {
  bool fromDir = false;
  std::vector<std::string> parts;
  for (std::size_t i = a; i < b && i < t.size(); ++i) {
    if (t[i].kind == js::Tok::Ident && (t[i].text == "__dirname" || t[i].text == "meta" || t[i].text == "cwd"))
      fromDir = true;
    if (t[i].kind == js::Tok::String || (t[i].kind == js::Tok::Template && !t[i].substitutions)) parts.push_back(t[i].text);
  }
  if (parts.empty()) return std::nullopt;
  if (!fromDir && parts.size() == 1) {
    const std::string& p = parts[0];
    if (startsWith(p, "./") || startsWith(p, "../") || p == "." || p == "..") return normal(fs::path(configDir) / p);
    return p;  // '/src': the filesystem's, else the project's (resolveSpec tries both, as vite does)
  }
  fs::path out = fromDir ? fs::path(configDir) : fs::path();
  for (const auto& p : parts) out = startsWith(p, "/") ? fs::path(p) : out / p;
  return normal(out);
}

// The token after `name` ':' when it opens `open` ("{" or "["), else npos.
std::size_t valueOpening(const std::vector<js::Token>& t, std::size_t i, const char* open) {
  if (i + 2 < t.size() && t[i + 1].kind == js::Tok::Punct && t[i + 1].text == ":" && t[i + 2].kind == js::Tok::Punct &&
      t[i + 2].text == open)
    return i + 2;
  return std::string::npos;
}

bool isKeyToken(const js::Token& k) { return k.kind == js::Tok::String || k.kind == js::Tok::Ident; }

// The entries of an object literal opened at `open`: (key token index, value [begin, end)).
std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> objectEntries(const std::vector<js::Token>& t, std::size_t open) {
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> out;
  const std::size_t close = js::matching(t, open);
  if (close == std::string::npos) return out;
  std::size_t i = open + 1;
  while (i < close) {
    if (i + 1 < close && isKeyToken(t[i]) && t[i + 1].kind == js::Tok::Punct && t[i + 1].text == ":") {
      std::size_t j = i + 2;
      while (j < close && !(t[j].kind == js::Tok::Punct && t[j].text == ",")) {
        if (t[j].kind == js::Tok::Punct && (t[j].text == "(" || t[j].text == "[" || t[j].text == "{")) {
          const std::size_t m = js::matching(t, j);
          if (m == std::string::npos || m > close) return out;
          j = m;
        }
        ++j;
      }
      out.emplace_back(i, i + 2, j);
      i = j + 1;
    } else {
      ++i;
    }
  }
  return out;
}

// A regular expression literal's source ("/^@\\//i" -> "^@\\/").
std::string regexSource(const std::string& literal) {
  const std::size_t last = literal.rfind('/');
  return last == 0 || last == std::string::npos ? literal : literal.substr(1, last - 1);
}

void readModuleNameMapper(const Json& mapper, const std::string& rootDir, std::vector<JsAlias>* out) {
  if (!mapper.is_object()) return;
  for (auto it = mapper.begin(); it != mapper.end(); ++it) {
    JsAlias a{it.key(), true, {}, true};
    for (const auto& v : it.value().is_array() ? it.value() : Json::array({it.value()})) {
      if (!v.is_string()) continue;
      std::string r = v.get<std::string>();
      if (auto p = r.find("<rootDir>"); p != std::string::npos) r.replace(p, 9, rootDir);
      a.replacements.push_back(r);
    }
    if (!a.replacements.empty()) out->push_back(std::move(a));
  }
}

// jest's moduleNameMapper and vite's resolve.alias, as the config file's literal text writes them.
void readConfigText(const std::string& text, const std::string& configDir, bool jest, std::vector<JsAlias>* out) {
  const auto t = js::lex(text);
  std::string rootDir = configDir;
  if (jest) {
    for (std::size_t i = 0; i + 2 < t.size(); ++i) {
      if (t[i].kind == js::Tok::Ident && t[i].text == "rootDir" && t[i + 1].text == ":" && t[i + 2].kind == js::Tok::String)
        rootDir = normal(fs::path(configDir) / t[i + 2].text);
    }
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!isKeyToken(t[i])) continue;
    if (jest && t[i].text == "moduleNameMapper") {
      const std::size_t open = valueOpening(t, i, "{");
      if (open == std::string::npos) continue;
      for (const auto& [k, a, b] : objectEntries(t, open)) {
        JsAlias alias{t[k].text, true, {}, true};
        for (std::size_t j = a; j < b; ++j) {
          if (t[j].kind != js::Tok::String) continue;
          std::string r = t[j].text;
          if (auto p = r.find("<rootDir>"); p != std::string::npos) r.replace(p, 9, rootDir);
          alias.replacements.push_back(r);
        }
        if (!alias.replacements.empty()) out->push_back(std::move(alias));
      }
    } else if (!jest && t[i].text == "alias") {
      if (std::size_t open = valueOpening(t, i, "{"); open != std::string::npos) {
        for (const auto& [k, a, b] : objectEntries(t, open)) {
          if (auto r = pathExpression(t, a, b, configDir)) out->push_back({t[k].text, false, {*r}});
        }
      } else if (std::size_t arr = valueOpening(t, i, "["); arr != std::string::npos) {
        const std::size_t close = js::matching(t, arr);
        for (std::size_t j = arr + 1; close != std::string::npos && j < close; ++j) {
          if (!(t[j].kind == js::Tok::Punct && t[j].text == "{")) continue;
          JsAlias alias;
          bool haveFind = false;
          for (const auto& [k, a, b] : objectEntries(t, j)) {
            if (t[k].text == "find" && a < b) {
              haveFind = t[a].kind == js::Tok::String || t[a].kind == js::Tok::Regex;
              alias.regex = t[a].kind == js::Tok::Regex;
              alias.find = alias.regex ? regexSource(t[a].text) : t[a].text;
            } else if (t[k].text == "replacement") {
              if (auto r = pathExpression(t, a, b, configDir)) alias.replacements = {*r};
            }
          }
          if (haveFind && !alias.replacements.empty()) out->push_back(std::move(alias));
          j = js::matching(t, j);
          if (j == std::string::npos) break;
        }
      }
    }
  }
}

// An alias as a compiled rule.
struct AliasRule {
  JsAlias alias;
  std::optional<std::regex> re;
};

}  // namespace

// ---- config aliases ----

std::vector<JsAlias> jsConfigAliases(const std::string& root) {
  std::vector<JsAlias> out;
  if (auto pkg = readFile(root + "/package.json")) {
    Json j = Json::parse(*pkg, nullptr, false);
    if (j.is_object() && j.contains("jest") && j["jest"].is_object() && j["jest"].contains("moduleNameMapper")) {
      std::string rootDir = root;
      if (j["jest"].contains("rootDir") && j["jest"]["rootDir"].is_string())
        rootDir = normal(fs::path(root) / j["jest"]["rootDir"].get<std::string>());
      readModuleNameMapper(j["jest"]["moduleNameMapper"], rootDir, &out);
    }
  }
  if (auto text = readFile(root + "/jest.config.json")) {
    Json j = Json::parse(*text, nullptr, false);
    if (j.is_object() && j.contains("moduleNameMapper")) readModuleNameMapper(j["moduleNameMapper"], root, &out);
  }
  for (const char* f : {"jest.config.js", "jest.config.cjs", "jest.config.mjs", "jest.config.ts", "jest.config.cts",
                        "jest.config.mts"}) {
    if (auto text = readFile(root + "/" + f)) readConfigText(*text, root, true, &out);
  }
  for (const char* base : {"vitest.config", "vite.config", "vitest.workspace"}) {
    for (const char* ext : {".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"}) {
      if (auto text = readFile(root + "/" + base + ext)) readConfigText(*text, root, false, &out);
    }
  }
  return out;
}

// ---- specifiers ----

std::vector<std::string> jsSpecifiers(const std::string& text, bool* dynamic) {
  static const std::set<std::string> callers = {"require", "import", "mock", "doMock", "unmock", "requireActual",
                                                "importActual", "requireMock", "importMock", "resolve", "createMockFromModule"};
  std::vector<std::string> out;
  if (dynamic) *dynamic = false;
  const auto toks = js::lex(text);
  auto literal = [](const js::Token& t) { return t.kind == js::Tok::String || (t.kind == js::Tok::Template && !t.substitutions); };
  for (std::size_t i = 1; i < toks.size(); ++i) {
    const js::Token& p = toks[i - 1];
    // A call's argument is the name only when it is the whole argument ("require('./a/' + x)" is
    // computed, "jest.mock('./m', factory)" names './m').
    const bool whole = i + 1 < toks.size() && toks[i + 1].kind == js::Tok::Punct &&
                       (toks[i + 1].text == ")" || toks[i + 1].text == ",");
    if (literal(toks[i]) && (whole || p.kind == js::Tok::Ident)) {
      if (p.kind == js::Tok::Ident && (p.text == "from" || p.text == "import") && toks[i].kind == js::Tok::String)
        out.push_back(toks[i].text);
      else if (p.kind == js::Tok::Punct && p.text == "(" && i >= 2 && toks[i - 2].kind == js::Tok::Ident &&
               callers.count(toks[i - 2].text))
        out.push_back(toks[i].text);
      continue;
    }
    // require(name) / import(name): what it loads is computed (not `x.require(`: a method).
    if (dynamic && p.kind == js::Tok::Punct && p.text == "(" && i >= 2 && toks[i - 2].kind == js::Tok::Ident &&
        (toks[i - 2].text == "require" || toks[i - 2].text == "import") &&
        !(i >= 3 && toks[i - 3].kind == js::Tok::Punct && toks[i - 3].text == ".") &&
        !(toks[i].kind == js::Tok::Punct && toks[i].text == ")"))
      *dynamic = true;
  }
  return out;
}

// ---- the resolver ----

struct JsResolver::Impl {
  std::string root;
  std::vector<JsAlias> aliases;
  std::vector<AliasRule> rules;
  std::string key;
  mutable std::mutex mutex;
  mutable std::map<std::string, CachedJson> jsonCache;       // package.json / tsconfig by path
  mutable std::map<std::string, std::shared_ptr<const TsPaths>> tsCache;  // by directory (stamped inside)
  mutable std::map<std::string, std::string> tsStamp;

  // A JSON (or JSONC) file, parsed once per version of it; null when absent or malformed.
  std::shared_ptr<const Json> json(const std::string& path, bool jsonc = false) const {
    const std::string stamp = stampOf(path);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (auto it = jsonCache.find(path); it != jsonCache.end() && it->second.stamp == stamp) return it->second.json;
    }
    std::shared_ptr<const Json> parsed;
    if (stamp != "-") {
      if (auto text = readFile(path)) {
        Json j = jsonc ? parseJsonc(*text) : Json::parse(*text, nullptr, false);
        if (j.is_object()) parsed = std::make_shared<const Json>(std::move(j));
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (jsonCache.size() > 4000) jsonCache.clear();
    jsonCache[path] = {stamp, parsed};
    return parsed;
  }

  // A path as a module: the file, TypeScript's .js-for-.ts, with an extension, as a directory.
  void resolvePath(const fs::path& base, std::vector<std::string>* out, int depth = 0) const {
    static const char* const exts[] = {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"};
    if (depth > 4) return;
    const std::string b = normal(base);
    if (isFile(b)) {
      out->push_back(b);
      return;
    }
    const std::string ext = fs::path(b).extension().string();
    if (ext == ".js" || ext == ".jsx" || ext == ".mjs" || ext == ".cjs") {
      const std::string stem = b.substr(0, b.size() - ext.size());
      std::vector<const char*> alt = {".ts", ".tsx"};
      if (ext == ".mjs") alt = {".mts"};
      if (ext == ".cjs") alt = {".cts"};
      for (const char* a : alt) {
        if (isFile(stem + a)) {
          out->push_back(stem + a);
          return;
        }
      }
    }
    for (const char* e : exts) {
      if (isFile(b + e)) {
        out->push_back(b + e);
        return;
      }
    }
    if (!isDir(b)) return;
    // A directory: what its package.json names (node: main; bundlers: module, source), else index.*.
    const std::size_t before = out->size();
    if (auto pkg = json(b + "/package.json")) {
      for (const char* key : {"main", "module", "source"}) {
        if (pkg->contains(key) && (*pkg)[key].is_string()) {
          const std::string target = (*pkg)[key].get<std::string>();
          if (normal(fs::path(b) / target) != b) resolvePath(fs::path(b) / target, out, depth + 1);
        }
      }
    }
    if (out->size() > before) return;
    for (const char* e : exts) {
      if (isFile(b + "/index" + e)) {
        out->push_back(b + "/index" + e);
        return;
      }
    }
  }

  // An exports / imports target (a string, an array of fallbacks, a conditions object, null).
  void resolveTarget(const std::string& pkgDir, const Json& target, const std::string& star, const std::string& from,
                     std::vector<std::string>* out, int depth) const {
    if (depth > 8) return;
    if (target.is_string()) {
      std::string t = target.get<std::string>();
      for (std::size_t p; (p = t.find('*')) != std::string::npos;) t.replace(p, 1, star);
      if (startsWith(t, "./")) resolvePath(fs::path(pkgDir) / t, out);
      else if (!startsWith(t, "/") && !startsWith(t, "../")) resolveBare(from, t, out, nullptr, depth + 1);  // imports: a package
    } else if (target.is_array()) {
      for (const auto& t : target) resolveTarget(pkgDir, t, star, from, out, depth + 1);
    } else if (target.is_object()) {
      for (auto it = target.begin(); it != target.end(); ++it)
        if (activeCondition(it.key())) resolveTarget(pkgDir, it.value(), star, from, out, depth + 1);
    }
  }

  // A package's directory entered by `subpath` ("" for the package itself): `exports` when it
  // has them, else its main / the path under it.
  void resolvePackage(const std::string& pkgDir, const std::string& subpath, const std::string& from,
                      std::vector<std::string>* out, int depth) const {
    auto pkg = json(pkgDir + "/package.json");
    if (pkg && pkg->contains("exports") && !(*pkg)["exports"].is_null()) {
      const Json& exports = (*pkg)["exports"];
      const std::string request = subpath.empty() ? "." : "./" + subpath;
      bool subpathMap = false;
      if (exports.is_object())
        for (auto it = exports.begin(); it != exports.end(); ++it) subpathMap = subpathMap || startsWith(it.key(), ".");
      if (!subpathMap) {
        if (request == ".") resolveTarget(pkgDir, exports, "", from, out, depth);
        return;
      }
      std::string star;
      if (const Json* t = matchSubpath(exports, request, &star)) resolveTarget(pkgDir, *t, star, from, out, depth);
      return;
    }
    resolvePath(subpath.empty() ? fs::path(pkgDir) : fs::path(pkgDir) / subpath, out);
  }

  // The nearest package.json at or above `dir` (within the filesystem), "" when none.
  std::string nearestPackage(fs::path dir) const {
    for (;; dir = dir.parent_path()) {
      if (isFile((dir / "package.json").string())) return dir.string();
      if (dir == dir.parent_path()) return "";
    }
  }

  // The tsconfig.json / jsconfig.json nearest `dir` (up to the root), read with its `extends`.
  std::shared_ptr<const TsPaths> tsconfigFor(const fs::path& dir) const {
    for (fs::path d = dir;; d = d.parent_path()) {
      for (const char* name : {"tsconfig.json", "jsconfig.json"}) {
        const std::string f = (d / name).string();
        if (isFile(f)) return tsconfig(f);
      }
      if (d.string() == root || d == d.parent_path() || !startsWith(d.string(), root)) break;
    }
    return nullptr;
  }

  std::shared_ptr<const TsPaths> tsconfig(const std::string& file) const {
    auto ts = std::make_shared<TsPaths>();
    std::string stamp;
    std::vector<std::string> chain;  // the file, then what it extends
    for (std::string f = file; !f.empty() && chain.size() < 8;) {
      if (std::find(chain.begin(), chain.end(), f) != chain.end()) break;
      chain.push_back(f);
      stamp += stampOf(f) + ";";
      auto j = json(f, true);
      std::string next;
      if (j && j->contains("extends")) {
        const Json& e = (*j)["extends"];
        const std::string ext = e.is_string() ? e.get<std::string>() : e.is_array() && !e.empty() && e[0].is_string() ? e[0].get<std::string>() : "";
        const fs::path dir = fs::path(f).parent_path();
        if (startsWith(ext, ".") || startsWith(ext, "/")) {
          next = normal(dir / ext);
          if (!isFile(next) && isFile(next + ".json")) next += ".json";
        } else if (!ext.empty()) {
          for (fs::path d = dir;; d = d.parent_path()) {
            const fs::path c = d / "node_modules" / ext;
            if (isFile(c.string())) next = c.string();
            else if (isFile(c.string() + ".json")) next = c.string() + ".json";
            else if (isFile((c / "tsconfig.json").string())) next = (c / "tsconfig.json").string();
            if (!next.empty() || d == d.parent_path()) break;
          }
        }
      }
      f = next;
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (auto it = tsCache.find(file); it != tsCache.end() && tsStamp[file] == stamp) return it->second;
    }
    // The nearest definition wins: walk from the furthest base to the file.
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      auto j = json(*it, true);
      if (!j || !j->contains("compilerOptions") || !(*j)["compilerOptions"].is_object()) continue;
      const Json& co = (*j)["compilerOptions"];
      const fs::path dir = fs::path(*it).parent_path();
      if (co.contains("baseUrl") && co["baseUrl"].is_string()) ts->baseUrl = normal(dir / co["baseUrl"].get<std::string>());
      if (co.contains("paths") && co["paths"].is_object()) {
        ts->paths = co["paths"];
        ts->pathsBase = dir.string();
      }
    }
    if (!ts->baseUrl.empty() && !ts->paths.empty()) ts->pathsBase = ts->baseUrl;
    std::shared_ptr<const TsPaths> done = ts;
    std::lock_guard<std::mutex> lock(mutex);
    if (tsCache.size() > 2000) tsCache.clear();
    tsCache[file] = done;
    tsStamp[file] = stamp;
    return done;
  }

  // A bare specifier: tsconfig paths, the package itself, a workspace package, baseUrl.
  void resolveBare(const std::string& from, const std::string& spec, std::vector<std::string>* out, bool* known,
                   int depth) const {
    if (depth > 8) return;
    const fs::path dir = fs::path(from).parent_path();
    const auto [name, sub] = splitPackage(spec);
    const std::size_t before = out->size();
    if (auto ts = tsconfigFor(dir); ts && ts->any()) {
      std::string star;
      if (const Json* targets = ts->paths.empty() ? nullptr : matchSubpath(ts->paths, spec, &star)) {
        for (const auto& t : targets->is_array() ? *targets : Json::array({*targets})) {
          if (!t.is_string()) continue;
          std::string s = t.get<std::string>();
          for (std::size_t p; (p = s.find('*')) != std::string::npos;) s.replace(p, 1, star);
          resolvePath(fs::path(ts->pathsBase) / s, out);
        }
        if (out->size() > before) return;
      }
    }
    // The package's own name (self-reference), from the nearest package.json up.
    for (fs::path d = dir; !d.empty();) {
      const std::string pkgDir = nearestPackage(d);
      if (pkgDir.empty()) break;
      if (auto pkg = json(pkgDir + "/package.json"); pkg && pkg->contains("name") && (*pkg)["name"] == name) {
        resolvePackage(pkgDir, sub, from, out, depth);
        if (known) *known = true;
        return;
      }
      const fs::path up = fs::path(pkgDir).parent_path();
      if (up == fs::path(pkgDir) || !startsWith(up.string(), root)) break;
      d = up;
    }
    // Installed: a package in node_modules (not ours), or a workspace package linked there.
    for (fs::path d = dir;; d = d.parent_path()) {
      const fs::path candidate = d / "node_modules" / name;
      if (isFile((candidate / "package.json").string()) || isDir(candidate.string())) {
        std::error_code ec;
        const std::string real = fs::weakly_canonical(candidate, ec).string();
        if (known) *known = true;
        if (!ec && real.find("/node_modules/") == std::string::npos) resolvePackage(real, sub, from, out, depth);
        return;
      }
      if (d == d.parent_path()) break;
    }
    if (auto ts = tsconfigFor(dir); ts && !ts->baseUrl.empty()) {
      resolvePath(fs::path(ts->baseUrl) / spec, out);
      if (out->size() > before) return;
    }
    // Conventions without a config greenlight could read: "@/x", "~/x", "src/x" under the
    // root and its src/.
    const std::string first = spec.substr(0, spec.find('/'));
    const std::string rest = spec.find('/') == std::string::npos ? "" : spec.substr(spec.find('/') + 1);
    for (const fs::path& base : {fs::path(root), fs::path(root) / "src"}) {
      if (!rest.empty() && (first == "@" || first == "~" || first == "$" || first == "#")) resolvePath(base / rest, out);
      if (out->size() == before && first[0] != '@' && (isDir((base / first).string()) || isFile((base / first).string())))
        resolvePath(base / spec, out);
      if (out->size() > before) return;
    }
  }

  void resolveSpec(const std::string& from, std::string spec, std::vector<std::string>* out, bool* known, int depth) const {
    if (spec.empty() || depth > 8) return;
    if (startsWith(spec, "node:") || isBuiltin(spec)) {
      if (known) *known = true;
      return;
    }
    if (auto q = spec.find_first_of("?#", 1); q != std::string::npos) spec = spec.substr(0, q);
    // The runner's aliases come first, as jest's moduleNameMapper and vite's alias plugin do.
    for (const auto& rule : rules) {
      std::vector<std::string> mapped;
      if (rule.re) {
        std::smatch m;
        if (!std::regex_search(spec, m, *rule.re)) continue;
        for (const auto& r : rule.alias.replacements) {
          std::string s;
          for (std::size_t i = 0; i < r.size(); ++i) {
            if (r[i] == '$' && i + 1 < r.size() && std::isdigit(static_cast<unsigned char>(r[i + 1]))) {
              const std::size_t g = static_cast<std::size_t>(r[++i] - '0');
              if (g < m.size()) s += m[g].str();
            } else {
              s += r[i];
            }
          }
          // jest's mapping is the whole module path; vite replaces the match in the specifier.
          mapped.push_back(rule.alias.whole ? s : m.prefix().str() + s + m.suffix().str());
        }
      } else {
        const std::string& f = rule.alias.find;
        if (!(spec == f || startsWith(spec, f + "/"))) continue;
        mapped.push_back(rule.alias.replacements[0] + spec.substr(f.size()));
      }
      if (known) *known = true;
      for (const auto& s : mapped) {
        if (startsWith(s, "/")) {
          const std::size_t before = out->size();
          resolvePath(s, out);
          if (out->size() == before) resolvePath(fs::path(root) / s.substr(1), out);
        }
        else if (startsWith(s, ".")) resolvePath(fs::path(root) / s, out);
        else resolveSpec(from, s, out, nullptr, depth + 1);
      }
      return;
    }
    const fs::path dir = fs::path(from).parent_path();
    if (spec == "." || spec == ".." || startsWith(spec, "./") || startsWith(spec, "../")) {
      resolvePath(dir / spec, out);
    } else if (startsWith(spec, "/")) {
      const std::size_t before = out->size();
      resolvePath(spec, out);
      if (out->size() == before) resolvePath(fs::path(root) / spec.substr(1), out);
    } else if (spec[0] == '#') {
      // package.json "imports" of the importing file's package.
      const std::string pkgDir = nearestPackage(dir);
      if (auto pkg = pkgDir.empty() ? nullptr : json(pkgDir + "/package.json"); pkg && pkg->contains("imports")) {
        std::string star;
        if (const Json* t = matchSubpath((*pkg)["imports"], spec, &star)) {
          if (known) *known = true;
          resolveTarget(pkgDir, *t, star, from, out, depth);
          return;
        }
      }
      resolveBare(from, spec, out, known, depth);
    } else {
      resolveBare(from, spec, out, known, depth);
    }
  }
};

JsResolver::JsResolver(std::string root, std::optional<std::vector<JsAlias>> aliases) : impl_(std::make_unique<Impl>()) {
  impl_->root = normal(root);
  impl_->aliases = aliases ? std::move(*aliases) : jsConfigAliases(impl_->root);
  std::uint64_t h = fnv1a(impl_->root);
  for (const auto& a : impl_->aliases) {
    h = fnv1a(std::string(a.whole ? "map:" : a.regex ? "re:" : "s:") + a.find + "\n", h);
    for (const auto& r : a.replacements) h = fnv1a(r + "\n", h);
    AliasRule rule{a, std::nullopt};
    if (a.regex) {
      try {
        rule.re = support::regex(a.find);
      } catch (const std::regex_error&) {
        continue;  // a JavaScript-only construct (lookbehind, named groups): the rule is left out
      }
    }
    if (!a.replacements.empty()) impl_->rules.push_back(std::move(rule));
  }
  impl_->key = hex64(h);
}

JsResolver::~JsResolver() = default;

std::shared_ptr<const JsResolver> JsResolver::forRoot(const std::string& root, const std::optional<std::vector<JsAlias>>& aliases) {
  static std::mutex mutex;
  static std::map<std::string, std::pair<std::string, std::shared_ptr<const JsResolver>>> cache;
  // What the resolver read once: the aliases' sources. (package.json and tsconfig files read
  // while resolving are stamped one by one.)
  std::string stamp = stampOf(root + "/package.json");
  if (!aliases) {
    for (const char* f : {"jest.config.json", "jest.config.js", "jest.config.cjs", "jest.config.mjs", "jest.config.ts",
                          "jest.config.cts", "jest.config.mts"})
      stamp += ";" + stampOf(root + "/" + f);
    for (const char* base : {"vitest.config", "vite.config", "vitest.workspace"})
      for (const char* ext : {".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"}) stamp += ";" + stampOf(root + "/" + base + ext);
  }
  std::string key = normal(root) + "\n";
  if (aliases) {
    key += "aliases";
    for (const auto& a : *aliases) {
      key += "\n" + std::string(a.whole ? "map:" : a.regex ? "re:" : "s:") + a.find;
      for (const auto& r : a.replacements) key += "\t" + r;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end() && it->second.first == stamp) return it->second.second;
  }
  auto resolver = std::make_shared<const JsResolver>(root, aliases);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() > 64) cache.clear();
  cache[key] = {stamp, resolver};
  return resolver;
}

std::vector<std::string> JsResolver::resolve(const std::string& from, const std::string& spec, bool* known) const {
  std::vector<std::string> out;
  bool k = false;
  impl_->resolveSpec(from, spec, &out, &k, 0);
  std::vector<std::string> local;
  for (auto& f : out) {
    if (f.find("/node_modules/") == std::string::npos && std::find(local.begin(), local.end(), f) == local.end())
      local.push_back(f);
  }
  if (known) *known = k || !out.empty();
  return local;
}

JsImports JsResolver::imports(const std::string& file, const std::string& text) const {
  JsImports out;
  bool dynamic = false;
  for (const std::string& spec : jsSpecifiers(text, &dynamic)) {
    bool known = false;
    auto files = resolve(file, spec, &known);
    if (files.empty() && !known) out.unsure.push_back(spec);
    out.files.insert(out.files.end(), files.begin(), files.end());
  }
  if (dynamic) out.unsure.push_back("require(<computed>)");
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  return out;
}

const std::string& JsResolver::root() const { return impl_->root; }
const std::vector<JsAlias>& JsResolver::aliases() const { return impl_->aliases; }
const std::string& JsResolver::key() const { return impl_->key; }

}  // namespace greenlight::core::testing
