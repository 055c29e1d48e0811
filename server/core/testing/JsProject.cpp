#include "core/testing/JsProject.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/testing/JsLexer.h"
#include "core/testing/JsResolve.h"
#include "core/testing/Staging.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

bool isFile(const std::string& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool isDir(const std::string& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool under(const std::string& path, const std::string& dir) {
  if (dir.empty()) return false;
  if (dir == "/") return true;
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

std::string realOr(const std::string& p) {
  std::error_code ec;
  auto r = fs::canonical(p, ec);
  return ec ? p : r.string();
}

const char* const kJestConfigs[] = {"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs",
                                    "jest.config.cts", "jest.config.mts", "jest.config.json"};
const char* const kVitestConfigs[] = {"vitest.config.ts", "vitest.config.mts", "vitest.config.cts", "vitest.config.js",
                                      "vitest.config.mjs", "vitest.config.cjs", "vitest.workspace.ts",
                                      "vitest.workspace.js", "vitest.workspace.json"};
const char* const kViteConfigs[] = {"vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs",
                                    "vite.config.cts", "vite.config.cjs"};
const char* const kMochaConfigs[] = {".mocharc.js", ".mocharc.cjs", ".mocharc.yaml", ".mocharc.yml", ".mocharc.jsonc",
                                     ".mocharc.json"};

// Directories never searched for test files or imports.
bool skippedDir(const std::string& name) {
  static const std::set<std::string> k = {"node_modules", "dist", "build", "coverage", "out", "bower_components",
                                          "jspm_packages", "target", "__pycache__"};
  return name.empty() || name[0] == '.' || k.count(name) > 0;
}


using js::matching;
using js::Tok;
using js::Token;


// A title as a regular expression: printf placeholders (%s %d %i %p %j %o %# ...) and $name /
// $name.path (jest and vitest .each) and ${...} (a template literal's substitutions) match
// anything.
std::string titleRegex(const std::string& title, bool each, bool substitutions) {
  std::string out;
  for (std::size_t i = 0; i < title.size(); ++i) {
    char c = title[i];
    if (each && c == '%' && i + 1 < title.size()) {
      char n = title[i + 1];
      if (n == '%') {
        out += "%";
        ++i;
        continue;
      }
      if (std::strchr("psdifjoO#$", n) != nullptr) {
        out += ".*?";
        ++i;
        continue;
      }
    }
    if (each && c == '$' && i + 1 < title.size() && (std::isalpha(static_cast<unsigned char>(title[i + 1])) || title[i + 1] == '_')) {
      ++i;
      while (i < title.size() && (std::isalnum(static_cast<unsigned char>(title[i])) || title[i] == '_' || title[i] == '.')) ++i;
      --i;
      out += ".*?";
      continue;
    }
    if (substitutions && c == '$' && title.compare(i, 3, "${}") == 0) {
      out += ".*?";
      i += 2;
      continue;
    }
    out += escapeJsRegex(std::string(1, c));
  }
  return out;
}

const std::set<std::string>& groupNames() {
  static const std::set<std::string> k = {"describe", "context", "suite", "fdescribe", "xdescribe", "xcontext"};
  return k;
}
const std::set<std::string>& testNames() {
  static const std::set<std::string> k = {"it", "test", "specify", "fit", "xit", "xtest", "xspecify", "bench"};
  return k;
}
const std::set<std::string>& modifiers() {
  static const std::set<std::string> k = {"only", "skip", "todo", "concurrent", "sequential", "each", "for", "skipIf",
                                          "runIf", "fails", "failing", "shuffle", "extend", "serial"};
  return k;
}

struct ImportsCacheEntry {
  std::string stamp;
  JsImports imports;
};

}  // namespace

bool isJsSourceFile(const std::string& path) {
  static const std::set<std::string> k = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"};
  auto ext = fs::path(path).extension().string();
  // .d.ts declarations hold no code.
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".d.ts") == 0) return false;
  return k.count(ext) > 0;
}

std::string escapeJsRegex(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::strchr(".*+?^${}()|[]\\/", c) != nullptr && c != '\0') out += '\\';
    out += c;
  }
  return out;
}

void forEachJsFile(const std::string& root,
                   const std::function<void(const fs::path&, const std::string&, const std::string&)>& fn) {
  if (isFilesystemRoot(root)) return;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  std::size_t n = 0;
  for (; !ec && it != end && n < 50000; it.increment(ec), ++n) {
    const auto& e = *it;
    const std::string name = e.path().filename().string();
    if (e.is_directory(ec)) {
      if (skippedDir(name) || it.depth() > 12) it.disable_recursion_pending();
      continue;
    }
    if (isJsSourceFile(name)) fn(e.path(), e.path().lexically_relative(root).string(), name);
  }
}

// ---- the project ----

std::optional<JsProject> jsProject(const std::string& file, const std::string& workspaceRoot,
                                   const OverlayProvider& overlay) {
  const fs::path root = fs::path(workspaceRoot).lexically_normal();
  for (fs::path dir = fs::path(file).parent_path();; dir = dir.parent_path()) {
    const std::string pkgPath = (dir / "package.json").string();
    if (auto text = readSource(pkgPath, overlay)) {
      auto pkg = nlohmann::json::parse(*text, nullptr, false);
      if (pkg.is_object()) {
        JsProject p;
        p.root = dir.string();
        p.packageJson = pkgPath;
        p.esm = pkg.value("type", "") == "module";
        auto exists = [&](const char* name) {
          const std::string f = (dir / name).string();
          if (!isFile(f)) return false;
          p.configFiles.push_back(f);
          return true;
        };
        bool jestConfig = false, vitestConfig = false, mochaConfig = false, viteTest = false;
        for (const char* n : kJestConfigs) jestConfig = exists(n) || jestConfig;
        for (const char* n : kVitestConfigs) vitestConfig = exists(n) || vitestConfig;
        for (const char* n : kMochaConfigs) mochaConfig = exists(n) || mochaConfig;
        for (const char* n : kViteConfigs) {
          const std::string f = (dir / n).string();
          if (!isFile(f)) continue;
          auto t = readSource(f, overlay);
          static const std::regex testBlock = support::regex(R"(\btest\s*:)");
          if (t && std::regex_search(*t, testBlock)) {
            viteTest = true;
            p.configFiles.push_back(f);
          }
        }
        jestConfig = jestConfig || pkg.contains("jest");
        mochaConfig = mochaConfig || pkg.contains("mocha");
        std::set<std::string> deps;
        for (const char* key : {"devDependencies", "dependencies", "peerDependencies"}) {
          if (!pkg.contains(key) || !pkg[key].is_object()) continue;
          for (const char* r : {"jest", "vitest", "mocha"})
            if (pkg[key].contains(r)) deps.insert(r);
        }
        std::string script;
        if (pkg.contains("scripts") && pkg["scripts"].is_object() && pkg["scripts"].contains("test") &&
            pkg["scripts"]["test"].is_string())
          script = pkg["scripts"]["test"].get<std::string>();
        static const std::regex named = support::regex(R"(\b(vitest|jest|mocha)\b)");
        static const std::regex nodeTest = support::regex(R"(\bnode\b[^&|;]*\s--test\b)");
        std::smatch m;
        if (std::regex_search(script, m, named)) {
          p.runner = m[1].str();
          p.why = "scripts.test";
        } else if (std::regex_search(script, nodeTest)) {
          p.runner = "node";
          p.why = "scripts.test";
        } else if (jestConfig) {
          p.runner = "jest";
          p.why = "config file";
        } else if (vitestConfig || (viteTest && deps.count("vitest"))) {
          p.runner = "vitest";
          p.why = "config file";
        } else if (mochaConfig) {
          p.runner = "mocha";
          p.why = "config file";
        } else if (deps.size() == 1) {
          p.runner = *deps.begin();
          p.why = "dependency";
        }
        if (!p.runner.empty()) return p;
      }
    }
    if (dir == root || dir == dir.parent_path()) break;
    auto rel = dir.lexically_relative(root);
    if (rel.empty() || rel.native().rfind("..", 0) == 0) break;
  }
  return std::nullopt;
}

namespace {

std::string packageDirFrom(const std::string& name, const std::string& root) {
  for (fs::path d = fs::path(root);; d = d.parent_path()) {
    const fs::path candidate = d / "node_modules" / name;
    if (isFile((candidate / "package.json").string())) return realOr(candidate.string());
    if (d == d.parent_path()) break;
  }
  return "";
}

}  // namespace

std::string jsPackageVersion(const std::string& name, const std::string& root) {
  const std::string dir = packageDirFrom(name, root);
  if (dir.empty()) return "";
  auto text = readFile(dir + "/package.json");
  if (!text) return "";
  auto j = nlohmann::json::parse(*text, nullptr, false);
  return j.is_object() ? j.value("version", "") : "";
}

bool versionAtLeast(const std::string& version, std::initializer_list<int> want) {
  if (version.empty()) return false;
  std::vector<int> have;
  std::istringstream in(version);
  for (std::string part; std::getline(in, part, '.');) {
    try {
      have.push_back(std::stoi(part));
    } catch (...) {
      have.push_back(0);
    }
  }
  std::size_t i = 0;
  for (int w : want) {
    int h = i < have.size() ? have[i] : 0;
    if (h != w) return h > w;
    ++i;
  }
  return true;
}

std::optional<JsRunnerInstall> findJsRunner(const std::string& runner, const std::string& root) {
  std::vector<std::pair<std::string, std::string>> bins;
  if (runner == "jest") bins = {{"jest", "bin/jest.js"}, {"jest-cli", "bin/jest.js"}};
  else if (runner == "vitest") bins = {{"vitest", "vitest.mjs"}};
  else if (runner == "mocha") bins = {{"mocha", "bin/mocha.js"}, {"mocha", "bin/mocha"}};
  for (const auto& [pkg, bin] : bins) {
    const std::string dir = packageDirFrom(pkg, root);
    if (dir.empty() || !isFile(dir + "/" + bin)) continue;
    JsRunnerInstall out;
    out.dir = dir;
    out.bin = dir + "/" + bin;
    if (auto text = readFile(dir + "/package.json")) {
      auto j = nlohmann::json::parse(*text, nullptr, false);
      if (j.is_object()) out.version = j.value("version", "");
    }
    return out;
  }
  return std::nullopt;
}

std::vector<std::string> nodeModulesBinds(const std::string& root) {
  std::vector<std::string> dirs;
  for (fs::path d = fs::path(root);; d = d.parent_path()) {
    const std::string nm = (d / "node_modules").string();
    if (isDir(nm)) dirs.push_back(realOr(nm));
    if (d == d.parent_path()) break;
  }
  // Links out of them (pnpm's global store, workspace packages elsewhere): where they lead.
  std::set<std::string> outside;
  std::size_t seen = 0;
  auto consider = [&](const fs::path& entry) {
    std::error_code ec;
    if (!fs::is_symlink(entry, ec)) return;
    const std::string target = realOr(entry.string());
    for (const auto& d : dirs)
      if (under(target, d)) return;
    if (under(target, root)) return;
    // The package's own node_modules holds its dependencies (pnpm): bind that.
    fs::path t(target);
    for (fs::path a = t; a != a.parent_path(); a = a.parent_path()) {
      if (a.filename() == "node_modules") {
        outside.insert(a.string());
        return;
      }
    }
    outside.insert(target);
  };
  for (const auto& d : dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end && seen < 5000; it.increment(ec), ++seen) {
      const std::string name = it->path().filename().string();
      if (!name.empty() && name[0] == '@') {
        std::error_code ec2;
        for (fs::directory_iterator s(it->path(), ec2); !ec2 && s != end && seen < 5000; s.increment(ec2), ++seen)
          consider(s->path());
      } else if (!name.empty() && name[0] != '.') {
        consider(it->path());
      }
    }
  }
  std::vector<std::string> out = dirs;
  if (outside.size() > 16) {
    // Many packages in one store: its common directory.
    out.push_back(commonDirectory(std::vector<std::string>(outside.begin(), outside.end())));
  } else {
    out.insert(out.end(), outside.begin(), outside.end());
  }
  return out;
}

// ---- tests in a test file ----

std::string jsTestName(const JsTestBlock& block) {
  std::string out;
  for (const auto& t : block.titles) out += (out.empty() ? "" : " > ") + t;
  return out;
}

std::vector<JsTestBlock> scanJsTests(const std::string& text) {
  std::vector<JsTestBlock> out;
  const auto t = js::lex(text);
  struct Open {
    std::size_t end;  // token index of the call's closing paren
    std::string title, pattern;
  };
  std::vector<Open> stack;
  for (std::size_t i = 0; i < t.size(); ++i) {
    while (!stack.empty() && stack.back().end < i) stack.pop_back();
    if (t[i].kind != Tok::Ident) continue;
    const bool group = groupNames().count(t[i].text) > 0;
    if (!group && !testNames().count(t[i].text)) continue;
    // Not a member (x.it(...)), nor a definition (function it(...)).
    if (i > 0 && t[i - 1].kind == Tok::Punct && t[i - 1].text == ".") continue;
    if (i > 0 && t[i - 1].kind == Tok::Ident && (t[i - 1].text == "function" || t[i - 1].text == "const" ||
                                                 t[i - 1].text == "let" || t[i - 1].text == "var"))
      continue;
    std::size_t j = i + 1;
    bool each = false, skipCall = false;
    // .only / .skip / .each(table) / .skipIf(cond) / .each`table`
    while (j + 1 < t.size() && t[j].kind == Tok::Punct && t[j].text == "." && t[j + 1].kind == Tok::Ident &&
           modifiers().count(t[j + 1].text)) {
      const std::string mod = t[j + 1].text;
      j += 2;
      if (mod == "each" || mod == "for") {
        each = true;
        if (j < t.size() && t[j].kind == Tok::Template) {
          j = t[j].next ? t[j].next : j + 1;
        } else if (j < t.size() && t[j].kind == Tok::Punct && t[j].text == "(") {
          std::size_t close = matching(t, j);
          if (close == std::string::npos) break;
          j = close + 1;
        }
      } else if (mod == "skipIf" || mod == "runIf" || mod == "extend") {
        if (j < t.size() && t[j].kind == Tok::Punct && t[j].text == "(") {
          std::size_t close = matching(t, j);
          if (close == std::string::npos) {
            skipCall = true;
            break;
          }
          j = close + 1;
        }
      }
    }
    if (skipCall || j >= t.size() || t[j].kind != Tok::Punct || t[j].text != "(") continue;
    const std::size_t close = matching(t, j);
    if (close == std::string::npos || j + 1 >= t.size()) continue;
    const Token& titleTok = t[j + 1];
    std::string title, pattern;
    if (titleTok.kind == Tok::String || titleTok.kind == Tok::Template) {
      // A title that is more than one literal ('a' + b): what follows the literal is unknown.
      const std::size_t after = titleTok.next ? titleTok.next : j + 2;
      const bool alone = after < t.size() && t[after].kind == Tok::Punct && (t[after].text == "," || t[after].text == ")");
      title = titleTok.text;
      pattern = titleRegex(title, each, titleTok.substitutions);
      if (!alone) pattern += ".*";
    } else {
      title = "<" + titleTok.text + ">";
      pattern = ".*";
    }
    JsTestBlock b;
    b.group = group;
    b.each = each;
    for (const auto& o : stack) {
      b.titles.push_back(o.title);
      b.patterns.push_back(o.pattern);
    }
    b.titles.push_back(title);
    b.patterns.push_back(pattern);
    b.line = t[i].line;
    b.endLine = t[close].line;
    out.push_back(std::move(b));
    if (group) stack.push_back({close, title, pattern});
  }
  return out;
}

// ---- imports ----

std::vector<std::string> jsLocalImports(const std::string& file, const std::string& text, const std::string& root) {
  std::vector<std::string> out;
  for (auto& f : JsResolver::forRoot(root)->imports(file, text).files)
    if (isJsSourceFile(f)) out.push_back(std::move(f));
  return out;
}


// ---- what files reach ----

namespace {

// The local modules a file imports as `resolver` maps them, cached by the file's stamp and the
// resolver's key (unsaved text: never cached).
JsImports importsOf(const std::string& file, const JsResolver& resolver, const OverlayProvider& overlay) {
  static std::mutex mutex;
  static std::map<std::string, ImportsCacheEntry> cache;
  auto local = [&](JsImports i) {
    i.files.erase(std::remove_if(i.files.begin(), i.files.end(), [](const std::string& f) { return !isJsSourceFile(f); }),
                  i.files.end());
    return i;
  };
  if (overlay) {
    if (auto text = overlay(file)) return local(resolver.imports(file, *text));
  }
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0) return {};
  const std::string stamp = std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                            std::to_string(st.st_mtim.tv_nsec) + ":" + resolver.key();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(file); it != cache.end() && it->second.stamp == stamp) return it->second.imports;
  }
  auto text = readFile(file);
  JsImports imports = text ? local(resolver.imports(file, *text)) : JsImports{};
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() > 20000) cache.clear();
  cache[file] = {stamp, imports};
  return imports;
}

}  // namespace

JsReach jsReach(const std::vector<std::string>& files, const JsResolver& resolver, const OverlayProvider& overlay,
                std::size_t cap, int maxDepth) {
  std::set<std::string> visited(files.begin(), files.end());
  std::vector<std::string> frontier(visited.begin(), visited.end());
  JsReach out;
  for (int depth = 0; depth < maxDepth && !frontier.empty() && visited.size() < cap; ++depth) {
    std::vector<std::string> next;
    for (const auto& f : frontier) {
      JsImports imports = importsOf(f, resolver, overlay);
      for (const auto& u : imports.unsure) out.unsure.push_back(f + ": " + u);
      for (const auto& imp : imports.files) {
        if (visited.size() < cap && visited.insert(imp).second) next.push_back(imp);
      }
    }
    frontier = std::move(next);
  }
  out.files.assign(visited.begin(), visited.end());
  return out;
}

JsImportGraph jsImportGraph(const std::vector<std::string>& starts, const JsResolver& resolver,
                            const OverlayProvider& overlay, std::size_t cap, int maxDepth) {
  JsImportGraph g;
  std::vector<std::string> frontier;
  for (const auto& f : starts)
    if (g.imports.emplace(f, std::vector<std::string>{}).second) frontier.push_back(f);
  for (int depth = 0; depth <= maxDepth && !frontier.empty(); ++depth) {
    std::vector<std::string> next;
    for (const auto& f : frontier) {
      JsImports imports = importsOf(f, resolver, overlay);
      if (!imports.unsure.empty()) g.unsureFiles.insert(f);
      for (const auto& imp : imports.files) {
        if (depth < maxDepth && g.imports.size() < cap && g.imports.emplace(imp, std::vector<std::string>{}).second)
          next.push_back(imp);
      }
      g.imports[f] = std::move(imports.files);
    }
    frontier = std::move(next);
  }
  return g;
}

namespace {

// The files of `g` that reach one of `targets` (targets included), by the reversed edges.
std::set<std::string> reachingAny(const JsImportGraph& g, std::vector<std::string> frontier) {
  std::map<std::string, std::vector<std::string>> loadedBy;
  for (const auto& [f, imports] : g.imports)
    for (const auto& imp : imports) loadedBy[imp].push_back(f);
  std::set<std::string> out(frontier.begin(), frontier.end());
  while (!frontier.empty()) {
    const std::string f = std::move(frontier.back());
    frontier.pop_back();
    if (auto it = loadedBy.find(f); it != loadedBy.end())
      for (const auto& l : it->second)
        if (out.insert(l).second) frontier.push_back(l);
  }
  return out;
}

}  // namespace

std::set<std::string> JsImportGraph::loaders(const std::string& target) const { return reachingAny(*this, {target}); }

std::set<std::string> JsImportGraph::unsureLoaders() const {
  return reachingAny(*this, {unsureFiles.begin(), unsureFiles.end()});
}

std::vector<std::string> JsImportGraph::closure(const std::vector<std::string>& files) const {
  std::set<std::string> out(files.begin(), files.end());
  std::vector<std::string> frontier(files.begin(), files.end());
  while (!frontier.empty()) {
    const std::string f = std::move(frontier.back());
    frontier.pop_back();
    if (auto it = imports.find(f); it != imports.end())
      for (const auto& imp : it->second)
        if (out.insert(imp).second) frontier.push_back(imp);
  }
  return {out.begin(), out.end()};
}

std::vector<std::string> jsImportClosure(const std::vector<std::string>& files, const std::string& root,
                                         const OverlayProvider& overlay, std::size_t cap) {
  return jsReach(files, *JsResolver::forRoot(root), overlay, cap).files;
}

}  // namespace greenlight::core::testing
