#include "core/testing/adapters/JsProject.h"
#include "core/testing/ContentHash.h"
#include "core/testing/Discovery.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/testing/PythonBytecode.h"
#include "core/testing/adapters/PythonProject.h"
#include "core/testing/harness/Harnesses.h"
#include "sandbox/Sandbox.h"
#include "support/Log.h"
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

bool isJsLike(const std::string& path) {
  static const std::set<std::string> k = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"};
  auto ext = fs::path(path).extension().string();
  // .d.ts declarations hold no code.
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".d.ts") == 0) return false;
  return k.count(ext) > 0;
}

// ---- a small JavaScript / TypeScript lexer: enough to see calls, strings and nesting ----

enum class Tok { Ident, String, Template, Punct, Number, Regex };

struct Token {
  Tok kind;
  std::string text;  // identifier / punctuation / the string's value (escapes resolved simply)
  int line;          // 1-based line of the token's start
  std::size_t pos;
  bool substitutions = false;  // a template literal with ${...}
  std::size_t next = 0;        // such a literal: the index of the first token after it (its
                               // substitutions' tokens come between)
};

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    // Open template literals: for each, the brace depth at which its ${ began and its token.
    std::vector<std::pair<int, std::size_t>> templates;
    int braces = 0;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
        continue;
      }
      if (c == '/' && peek(1) == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '/' && peek(1) == '*') {
        i_ += 2;
        while (i_ < s_.size() && !(s_[i_] == '*' && peek(1) == '/')) {
          if (s_[i_] == '\n') ++line_;
          ++i_;
        }
        i_ += 2;
        continue;
      }
      const std::size_t start = i_;
      const int startLine = line_;
      if (c == '\'' || c == '"') {
        std::string v = quoted(c);
        out.push_back({Tok::String, std::move(v), startLine, start});
        continue;
      }
      if (c == '`') {
        ++i_;
        bool subst = false;
        std::string v = templatePart(&subst);
        if (subst) templates.emplace_back(braces, out.size());
        out.push_back({Tok::Template, std::move(v), startLine, start, subst});
        continue;
      }
      if (c == '}' && !templates.empty() && templates.back().first == braces) {
        // The end of a ${...}: the template literal goes on, folded into its token.
        const std::size_t idx = templates.back().second;
        templates.pop_back();
        ++i_;
        bool subst = false;
        std::string v = templatePart(&subst);
        out[idx].text += "${}" + v;
        if (subst) templates.emplace_back(braces, idx);
        else out[idx].next = out.size();
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80) {
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '$' ||
                                  static_cast<unsigned char>(s_[i_]) >= 0x80))
          ++i_;
        out.push_back({Tok::Ident, s_.substr(start, i_ - start), startLine, start});
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == '_')) ++i_;
        out.push_back({Tok::Number, s_.substr(start, i_ - start), startLine, start});
        continue;
      }
      if (c == '/' && regexAllowed(out)) {
        ++i_;
        bool cls = false;
        while (i_ < s_.size() && s_[i_] != '\n') {
          if (s_[i_] == '\\') {
            i_ += 2;
            continue;
          }
          if (s_[i_] == '[') cls = true;
          else if (s_[i_] == ']') cls = false;
          else if (s_[i_] == '/' && !cls) break;
          ++i_;
        }
        ++i_;
        while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
        out.push_back({Tok::Regex, s_.substr(start, i_ - start), startLine, start});
        continue;
      }
      if (c == '{') ++braces;
      if (c == '}') --braces;
      // `=>` and `...` as one token; everything else one character.
      if (c == '=' && peek(1) == '>') {
        i_ += 2;
        out.push_back({Tok::Punct, "=>", startLine, start});
        continue;
      }
      ++i_;
      out.push_back({Tok::Punct, std::string(1, c), startLine, start});
    }
    return out;
  }

 private:
  char peek(std::size_t n) const { return i_ + n < s_.size() ? s_[i_ + n] : '\0'; }

  std::string quoted(char q) {
    std::string v;
    ++i_;
    while (i_ < s_.size() && s_[i_] != q && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        char e = s_[i_ + 1];
        switch (e) {
          case 'n': v += '\n'; break;
          case 't': v += '\t'; break;
          case '\n': ++line_; break;
          default: v += e;
        }
        i_ += 2;
        continue;
      }
      v += s_[i_++];
    }
    ++i_;
    return v;
  }

  // From after ` (or the } of a substitution) to the closing ` or the next ${.
  std::string templatePart(bool* subst) {
    std::string v;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\\' && i_ + 1 < s_.size()) {
        v += s_[i_ + 1];
        i_ += 2;
        continue;
      }
      if (c == '`') {
        ++i_;
        return v;
      }
      if (c == '$' && peek(1) == '{') {
        i_ += 2;
        *subst = true;
        return v;
      }
      if (c == '\n') ++line_;
      v += c;
      ++i_;
    }
    return v;
  }

  static bool regexAllowed(const std::vector<Token>& out) {
    if (out.empty()) return true;
    const Token& t = out.back();
    switch (t.kind) {
      case Tok::Number:
      case Tok::String:
      case Tok::Template:
      case Tok::Regex: return false;
      case Tok::Ident: {
        static const std::set<std::string> kw = {"return", "typeof", "case", "do", "else", "in", "of", "new",
                                                 "delete", "void", "throw", "instanceof", "yield", "await"};
        return kw.count(t.text) > 0;
      }
      case Tok::Punct: return t.text != ")" && t.text != "]" && t.text != "}";
    }
    return true;
  }

  const std::string& s_;
  std::size_t i_ = 0;
  int line_ = 1;
};

// The index of the token that closes the bracket opened at `open`, or npos.
std::size_t matching(const std::vector<Token>& t, std::size_t open) {
  const std::string o = t[open].text;
  const std::string c = o == "(" ? ")" : o == "[" ? "]" : "}";
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].kind != Tok::Punct) continue;
    if (t[i].text == "(" || t[i].text == "[" || t[i].text == "{") ++depth;
    else if (t[i].text == ")" || t[i].text == "]" || t[i].text == "}") {
      if (--depth == 0) return t[i].text == c ? i : std::string::npos;
    }
  }
  return std::string::npos;
}

std::string escapeRegex(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::strchr(".*+?^${}()|[]\\/", c) != nullptr && c != '\0') out += '\\';
    out += c;
  }
  return out;
}

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
    out += escapeRegex(std::string(1, c));
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

// Resolves a module path the way node, TypeScript and bundlers do for local files: the path
// itself, './x.js' written for x.ts, then with each extension, then as a directory's index.
std::optional<std::string> resolveLocal(const fs::path& base) {
  static const char* const exts[] = {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"};
  const std::string b = base.lexically_normal().string();
  if (isFile(b)) return b;
  const std::string ext = base.extension().string();
  if (ext == ".js" || ext == ".jsx" || ext == ".mjs" || ext == ".cjs") {
    std::string stem = b.substr(0, b.size() - ext.size());
    const char* alt[] = {".ts", ".tsx"};
    if (ext == ".mjs") alt[0] = alt[1] = ".mts";
    if (ext == ".cjs") alt[0] = alt[1] = ".cts";
    for (const char* a : alt)
      if (isFile(stem + a)) return stem + a;
  }
  for (const char* e : exts)
    if (isFile(b + e)) return b + e;
  if (isDir(b)) {
    if (auto pkg = readFile(b + "/package.json")) {
      auto j = nlohmann::json::parse(*pkg, nullptr, false);
      for (const char* key : {"source", "module", "main"}) {
        if (j.is_object() && j.contains(key) && j[key].is_string()) {
          if (auto r = resolveLocal(fs::path(b) / j[key].get<std::string>()); r && *r != b) return r;
        }
      }
    }
    for (const char* e : exts)
      if (isFile(b + "/index" + e)) return b + "/index" + e;
  }
  return std::nullopt;
}

// Module specifiers in a file: import/export ... from 'x', import 'x', import('x'),
// require('x'), and the mock helpers' first arguments (jest.mock, vi.mock, requireActual...).
std::vector<std::string> specifiers(const std::string& text) {
  static const std::set<std::string> callers = {"require", "import", "mock", "doMock", "unmock", "requireActual",
                                                "importActual", "requireMock", "importMock", "resolve"};
  std::vector<std::string> out;
  auto toks = Lexer(text).run();
  for (std::size_t i = 1; i < toks.size(); ++i) {
    if (toks[i].kind != Tok::String) continue;
    const Token& p = toks[i - 1];
    if (p.kind == Tok::Ident && (p.text == "from" || p.text == "import")) out.push_back(toks[i].text);
    else if (p.kind == Tok::Punct && p.text == "(" && i >= 2 && toks[i - 2].kind == Tok::Ident && callers.count(toks[i - 2].text))
      out.push_back(toks[i].text);
  }
  return out;
}

struct ImportsCacheEntry {
  std::string stamp;
  std::vector<std::string> imports;
};

}  // namespace

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

std::string runnerCacheDir(const std::string& runner, const std::string& root) {
  const std::string base = bytecodeCacheDir();
  if (base.empty()) return "";
  const std::string dir = base + "/" + runner + "-cache/" + hex64(fnv1a(root));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "";
  if (::geteuid() == 0) {
    // The sandbox runs as uid 65534 when greenlight is root (sandbox/Sandbox.h).
    if (::chown(dir.c_str(), 65534, 65534) != 0) return "";
  }
  ::chmod(dir.c_str(), 0700);
  return dir;
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
  const auto t = Lexer(text).run();
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

std::string jsTitlePattern(const std::string& runner, const std::vector<const JsTestBlock*>& blocks) {
  std::string alts;
  std::set<std::string> seen;
  for (const JsTestBlock* b : blocks) {
    std::string alt;
    for (const auto& p : b->patterns) alt += (alt.empty() ? "" : " ") + p;
    if (b->group) alt += "( .*)?";
    if (!seen.insert(alt).second) continue;
    alts += (alts.empty() ? "" : "|") + alt;
  }
  return runner == "jest" ? "^(" + alts + ")$" : "(^|\\s)(" + alts + ")$";
}

// ---- imports ----

std::vector<std::string> jsLocalImports(const std::string& file, const std::string& text, const std::string& root) {
  std::vector<std::string> out;
  const fs::path dir = fs::path(file).parent_path();
  for (const std::string& spec : specifiers(text)) {
    if (spec.empty() || spec.rfind("node:", 0) == 0) continue;
    std::optional<std::string> r;
    std::string s = spec;
    if (auto q = s.find_first_of("?#"); q != std::string::npos && q > 0) s = s.substr(0, q);
    if (s[0] == '.') {
      r = resolveLocal(dir / s);
    } else if (s[0] == '/') {
      r = resolveLocal(fs::path(s));
      if (!r) r = resolveLocal(fs::path(root) / s.substr(1));
    } else {
      // A bare specifier: a package (skipped), or an alias for a local path ("@/x", "~/x",
      // "#x", "src/x", "app/x"): tried under the root and its src/.
      const std::string first = s.substr(0, s.find('/'));
      const std::string rest = s.find('/') == std::string::npos ? "" : s.substr(s.find('/') + 1);
      for (const fs::path& base : {fs::path(root), fs::path(root) / "src"}) {
        if (!r && !rest.empty() && (first == "@" || first == "~" || first == "#" || first == "$" || first[0] == '#'))
          r = resolveLocal(base / rest);
        if (!r && first[0] != '@' && (isDir((base / first).string()) || isFile((base / first).string())))
          r = resolveLocal(base / s);
      }
      // A workspace package linked into node_modules (npm/yarn/pnpm workspaces).
      if (!r && rest.find('/') == std::string::npos) {
        const std::string name = first[0] == '@' ? s : first;
        const std::string pkg = packageDirFrom(name, dir.string());
        if (!pkg.empty() && pkg.find("/node_modules/") == std::string::npos) {
          const std::string sub = first[0] == '@' ? "" : rest;
          r = resolveLocal(sub.empty() ? fs::path(pkg) : fs::path(pkg) / sub);
        }
      }
    }
    if (r && r->find("/node_modules/") == std::string::npos && isJsLike(*r)) out.push_back(*r);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ---- the runner's test files ----

namespace {

// Calls fn(path, path relative to root, file name) for every JS/TS file under root: node_modules,
// dot directories and what skippedDir() names left out, at most 12 levels and 50,000 entries.
template <class Fn>
void forEachJsFile(const std::string& root, Fn fn) {
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
    if (isJsLike(name)) fn(e.path(), e.path().lexically_relative(root).string(), name);
  }
}

// Every JS/TS file of the project (relative paths, sorted; node_modules and dot directories
// left out): what decides whether the runner's list may have changed.
std::string projectListing(const std::string& root) {
  std::vector<std::string> files;
  forEachJsFile(root, [&](const fs::path&, const std::string& rel, const std::string&) { files.push_back(rel); });
  std::sort(files.begin(), files.end());
  std::string out;
  for (const auto& f : files) out += f + "\n";
  return out;
}

std::mutex gProbeMutex;
std::map<std::string, JsProbeResult> gProbeCache;

}  // namespace

JsProbeResult probeJsProject(const JsProject& project, const Tool& node, const std::string& workspaceRoot,
                             const Config& config) {
  const std::optional<JsRunnerInstall> install = findJsRunner(project.runner, project.root);
  // The key: what could change the runner's answer.
  std::uint64_t h = fnv1a(project.root + "\n" + project.runner + "\n" + node.path + "\n" + node.fingerprint + "\n" +
                          (install ? install->dir + " " + install->version : std::string("-")));
  std::vector<std::string> keyFiles = project.configFiles;
  keyFiles.push_back(project.packageJson);
  for (const char* extra : {"tsconfig.json", "babel.config.js", ".babelrc"}) keyFiles.push_back(project.root + "/" + extra);
  for (const auto& f : keyFiles) {
    auto t = readFile(f);
    h = fnv1a(f + "\n" + (t ? *t : std::string("<none>")) + "\n", h);
  }
  h = fnv1a(projectListing(project.root), h);
  const std::string key = hex64(h);
  {
    std::lock_guard<std::mutex> lock(gProbeMutex);
    if (auto it = gProbeCache.find(key); it != gProbeCache.end()) return it->second;
  }
  const std::string cacheDir = bytecodeCacheDir();
  const std::string cacheFile = cacheDir.empty() ? "" : cacheDir + "/js-probe-" + key + ".json";
  if (!cacheFile.empty()) {
    if (auto text = readFile(cacheFile)) {
      auto j = nlohmann::json::parse(*text, nullptr, false);
      if (j.is_object() && j.contains("files") && j["files"].is_array()) {
        JsProbeResult r;
        for (const auto& f : j["files"])
          if (f.is_string()) r.testFiles.push_back(f.get<std::string>());
        std::lock_guard<std::mutex> lock(gProbeMutex);
        return gProbeCache.emplace(key, std::move(r)).first->second;
      }
    }
  }
  JsProbeResult result;
  Staging staging;
  std::string error;
  if (!staging.prepareScratch(&error)) {
    result.error = error;
    return result;
  }
  const std::string probe = staging.addHarnessFile("js_probe.js", harness::jsProbe());
  sandbox::Policy p;
  p.scratchSource = staging.hostRoot();
  p.workdir = project.root;
  p.timeLimitSec = 60;
  p.cpuLimitSec = 60;
  p.memoryLimitMb = static_cast<std::size_t>(std::max(1024, config.sandbox.memoryLimitMB));
  p.processes = std::max(64, config.sandbox.processes);
  p.allowUnsandboxed = config.sandbox.allowUnsandboxed;
  auto bind = [&](const std::string& path) {
    if (sandbox::bindsReach(p.binds, path)) return;  // (as root: not behind a private directory)
    std::error_code ec;
    if (!path.empty() && path != "/" && fs::exists(path, ec)) p.binds.push_back({path, "", false});
  };
  bind(workspaceRoot);
  bind(project.root);
  for (const auto& d : nodeModulesBinds(project.root)) bind(d);
  for (const auto& prefix : node.bindPrefixes) bind(prefix);
  p.env = node.environment;
  p.env.push_back("PATH=" + fs::path(node.path).parent_path().string() + ":/usr/local/bin:/usr/bin:/bin");
  p.env.insert(p.env.end(), {"NO_COLOR=1", "FORCE_COLOR=0", "CI=1", "NODE_OPTIONS=", "GL_JEST_CACHE=/tmp/jest"});
  p.argv = {node.invokedAs.empty() ? node.path : node.invokedAs};
  if (project.runner == "vitest") p.argv.push_back("--import=" + staging.addHarnessFile("vite_sandbox.mjs", harness::viteSandbox()));
  p.argv.insert(p.argv.end(), {probe, "--list", "--runner", project.runner});
  p.profile = sandbox::Profile::Node;
  const sandbox::Verdict v = sandbox::run(p, -1);
  auto events = extractEvents(v.stdoutData).events;
  bool answered = false;
  for (const auto& e : events) {
    if (!e.is_object() || e.value("ev", "") != "config") continue;
    answered = true;
    if (e.contains("error") && e["error"].is_string()) result.error = e["error"].get<std::string>();
    if (e.contains("files") && e["files"].is_array()) {
      for (const auto& f : e["files"])
        if (f.is_string()) result.testFiles.push_back(f.get<std::string>());
    }
  }
  if (!answered) {
    std::string tail = v.stderrData.size() > 800 ? v.stderrData.substr(v.stderrData.size() - 800) : v.stderrData;
    result.error = "the probe of " + project.runner + "'s configuration ended with " +
                   std::string(sandbox::statusName(v.status)) +
                   (v.status == sandbox::Status::SetupError ? ": " + v.setupError : "") + (tail.empty() ? "" : ": " + tail);
  }
  std::sort(result.testFiles.begin(), result.testFiles.end());
  if (result.error.empty() && answered) {
    if (!cacheFile.empty()) {
      std::error_code ec;
      fs::create_directories(cacheDir, ec);
      nlohmann::json j;
      j["root"] = project.root;
      j["runner"] = project.runner;
      j["files"] = result.testFiles;
      const std::string tmp = cacheFile + ".tmp" + std::to_string(::getpid());
      if (std::ofstream out(tmp, std::ios::binary | std::ios::trunc); out) {
        out << j.dump();
        out.close();
        fs::rename(tmp, cacheFile, ec);
      }
    }
    std::lock_guard<std::mutex> lock(gProbeMutex);
    gProbeCache.emplace(key, result);
  } else {
    support::logLine(support::LogLevel::Info, project.runner + " probe in " + project.root + ": " + result.error);
  }
  return result;
}

}  // namespace greenlight::core::testing

// ---- the adapter ----

namespace greenlight::core::testing {

namespace {

// "hasCloseElements" / "has_close_elements" -> "hascloseelements".
std::string normalizedName(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '_' && c != ' ' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The test files by the runners' default patterns (*.test.*, *.spec.*, __tests__/, and for
// mocha ./test/*): what stands in when the runner could not be asked.
std::vector<std::string> defaultTestFiles(const std::string& root, const std::string& runner) {
  std::vector<std::string> out;
  forEachJsFile(root, [&](const fs::path& path, const std::string& rel, const std::string& name) {
    const bool named = name.find(".test.") != std::string::npos || name.find(".spec.") != std::string::npos;
    const bool inTests = rel.find("__tests__/") != std::string::npos;
    const bool mochaDir = runner == "mocha" && rel.rfind("test/", 0) == 0 && rel.find('/', 5) == std::string::npos;
    if (named || inTests || mochaDir) out.push_back(path.string());
  });
  std::sort(out.begin(), out.end());
  return out;
}

// The local modules a file imports, cached by the file's stamp (unsaved text: never cached).
std::vector<std::string> importsOf(const std::string& file, const std::string& root, const OverlayProvider& overlay) {
  static std::mutex mutex;
  static std::map<std::string, ImportsCacheEntry> cache;
  if (overlay) {
    if (auto text = overlay(file)) return jsLocalImports(file, *text, root);
  }
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0) return {};
  const std::string stamp = std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                            std::to_string(st.st_mtim.tv_nsec) + ":" + root;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(file); it != cache.end() && it->second.stamp == stamp) return it->second.imports;
  }
  auto text = readFile(file);
  std::vector<std::string> imports = text ? jsLocalImports(file, *text, root) : std::vector<std::string>{};
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() > 20000) cache.clear();
  cache[file] = {stamp, imports};
  return imports;
}

// The local files `test` reaches through its imports (breadth first, a few levels deep), and
// whether `target` is among them.
bool reaches(const std::string& test, const std::string& target, const std::string& root, const OverlayProvider& overlay,
             std::set<std::string>* visited, int maxDepth = 6, std::size_t cap = 400) {
  std::vector<std::string> frontier = {test};
  visited->insert(test);
  bool found = false;
  for (int depth = 0; depth < maxDepth && !frontier.empty() && visited->size() < cap; ++depth) {
    std::vector<std::string> next;
    for (const auto& f : frontier) {
      for (const auto& imp : importsOf(f, root, overlay)) {
        if (imp == target) found = true;
        if (visited->size() < cap && visited->insert(imp).second) next.push_back(imp);
      }
    }
    frontier = std::move(next);
  }
  return found;
}

}  // namespace

std::vector<std::string> jsImportClosure(const std::vector<std::string>& files, const std::string& root,
                                         const OverlayProvider& overlay, std::size_t cap) {
  std::set<std::string> visited;
  for (const auto& f : files) reaches(f, "", root, overlay, &visited, 6, cap);
  return {visited.begin(), visited.end()};
}

std::optional<TestPlan> JsRunnerAdapter::discover(const DiscoveryContext& ctx, std::string* error) const {
  // Tests written from a comment's examples exist only in the editor: the built-in harness.
  if (!ctx.request.extraTestFiles.empty()) return std::nullopt;
  const std::string runner(name());
  auto project = jsProject(ctx.source, ctx.workspaceRoot, ctx.request.overlay);
  if (!project || project->runner != runner) return std::nullopt;
  auto install = findJsRunner(runner, project->root);
  if (!install) {
    *error = ctx.source + ": the project tests with " + runner + " (" + project->why + " of " + project->packageJson +
             ") but node finds no " + runner + " from " + project->root + ": run `npm install` there";
    return std::nullopt;
  }
  ToolRequest tr;
  tr.name = ctx.request.config ? ctx.request.config->nodePath : "node";
  tr.workspaceRoot = ctx.workspaceRoot;
  tr.environment = ctx.request.toolEnvironment;
  std::string toolError;
  auto node = resolveTool(tr, &toolError);
  if (!node) {
    *error = "node: " + toolError;
    return std::nullopt;
  }
  const Config defaults;
  const Config& config = ctx.request.config ? *ctx.request.config : defaults;
  JsProbeResult probe = probeJsProject(*project, *node, ctx.workspaceRoot, config);
  std::vector<std::string> testFiles = probe.testFiles;
  if (!probe.error.empty()) testFiles = defaultTestFiles(project->root, runner);
  const OverlayProvider& overlay = ctx.request.overlay;

  TestPlan plan;
  plan.language = Language::JavaScript;
  plan.framework = runner;
  plan.rootDir = project->root;
  plan.sourceFile = ctx.source;
  plan.workspaceRoot = ctx.workspaceRoot;
  plan.sourceIsTestFile = std::binary_search(testFiles.begin(), testFiles.end(), ctx.source);
  std::set<std::string> closure;
  if (!plan.sourceIsTestFile) {
    for (const auto& t : testFiles) {
      std::set<std::string> visited;
      if (reaches(t, ctx.source, project->root, overlay, &visited)) {
        plan.testFiles.push_back(t);
        closure.insert(visited.begin(), visited.end());
      }
    }
  } else {
    std::set<std::string> visited;
    reaches(ctx.source, "", project->root, overlay, &visited);
    closure = std::move(visited);
  }
  // What the runner reads beyond the source and the tests: its config, and the modules the
  // tests import (their unsaved texts are what the run sees; they are part of the fingerprint).
  plan.supportFiles.push_back(project->packageJson);
  plan.supportFiles.insert(plan.supportFiles.end(), project->configFiles.begin(), project->configFiles.end());
  for (const char* extra : {"tsconfig.json", ".babelrc", "babel.config.js"}) {
    if (isFile(project->root + "/" + extra)) plan.supportFiles.push_back(project->root + "/" + extra);
  }
  for (const auto& f : closure) {
    if (plan.supportFiles.size() > 300) break;
    if (f != ctx.source && std::find(plan.testFiles.begin(), plan.testFiles.end(), f) == plan.testFiles.end())
      plan.supportFiles.push_back(f);
  }

  // The tests written in the test files: names (title paths) and ranges.
  std::vector<std::string> files = plan.sourceIsTestFile ? std::vector<std::string>{ctx.source} : plan.testFiles;
  std::map<std::string, std::vector<JsTestBlock>> blocks;
  std::map<std::string, std::vector<std::string>> lines;
  for (const auto& f : files) {
    auto text = f == ctx.source ? std::optional<std::string>(ctx.text) : readSource(f, overlay);
    if (!text) continue;
    blocks[f] = scanJsTests(*text);
    lines[f] = splitLines(*text);
    for (const auto& b : blocks[f]) {
      if (!b.group) plan.staticTests.push_back({jsTestName(b), f, b.line, b.endLine});
    }
  }
  auto rel = [&](const std::string& f) {
    std::string r = fs::path(f).lexically_relative(project->root).string();
    return r.empty() || r.rfind("..", 0) == 0 ? f : r;
  };
  std::vector<const JsTestBlock*> chosen;
  std::set<std::string> chosenFiles;
  if (plan.sourceIsTestFile && ctx.request.line) {
    // A line of a test file: the innermost test or group around it.
    const JsTestBlock* best = nullptr;
    for (const auto& b : blocks[ctx.source]) {
      if (*ctx.request.line < b.line || *ctx.request.line > b.endLine) continue;
      if (!best || b.endLine - b.line < best->endLine - best->line) best = &b;
    }
    if (best) {
      chosen.push_back(best);
      chosenFiles.insert(ctx.source);
      plan.selectionNote = best->group ? "the tests under '" + jsTestName(*best) + "'" : "the test '" + jsTestName(*best) + "'";
      for (const auto& b : blocks[ctx.source]) {
        if (b.group || b.titles.size() < best->titles.size()) continue;
        if (std::equal(best->titles.begin(), best->titles.end(), b.titles.begin())) plan.selected.push_back(jsTestName(b));
      }
    }
  } else if (!plan.sourceIsTestFile && (ctx.request.line || !ctx.request.functionName.empty())) {
    if (ctx.request.line) plan.function = functionAtLine(ctx.text, *ctx.request.line, Language::JavaScript);
    else {
      plan.function = findFunction(ctx.text, ctx.request.functionName, Language::JavaScript);
      if (!plan.function) plan.function = FunctionAt{ctx.request.functionName, 0};
    }
    if (plan.function) {
      const std::string fn = plan.function->name;
      const std::string key = normalizedName(fn);
      const std::regex call = support::regex("(^|[^\\w$])" + escapeRegex(fn) + "\\s*(<[^>]*>)?\\s*\\(");
      for (const auto& [f, bs] : blocks) {
        const auto& ls = lines[f];
        for (const auto& b : bs) {
          if (b.group) continue;
          bool byName = false;
          for (const auto& t : b.titles) byName = byName || normalizedName(t).find(key) != std::string::npos;
          bool byCall = false;
          for (int l = b.line; l <= b.endLine && l <= static_cast<int>(ls.size()) && !byCall; ++l)
            byCall = std::regex_search(ls[static_cast<std::size_t>(l - 1)], call);
          if (byName || byCall) {
            chosen.push_back(&b);
            chosenFiles.insert(f);
            plan.selected.push_back(jsTestName(b));
          }
        }
      }
      if (!chosen.empty()) plan.selectionNote = "the tests that name or call " + fn;
      else plan.selectionNote = "no test names or calls " + fn + ": ran the module's tests";
    }
  }
  if (!chosen.empty()) {
    plan.namePattern = jsTitlePattern(runner, chosen);
    for (const auto& f : files)
      if (chosenFiles.count(f)) plan.runnerArgs.push_back(rel(f));
  } else {
    plan.selected.clear();
    for (const auto& f : files) plan.runnerArgs.push_back(rel(f));
  }
  return plan;
}

RunResult JsRunnerAdapter::run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const {
  const std::string runner(name());
  std::string error = sandboxUserCannotRead(plan.rootDir);
  if (!error.empty() || !staging.prepareInPlace(plan, options.overlay, &error)) {
    result.error = error;
    return result;
  }
  auto node = resolveFor(options.config.nodePath, plan, options, &error);
  if (!node) {
    result.error = "node: " + error;
    return result;
  }
  auto install = findJsRunner(runner, plan.rootDir);
  if (!install) {
    result.error = runner + " is not installed for " + plan.rootDir + " (node finds no node_modules/" + runner + ")";
    return result;
  }
  staging.addHarnessFile("js_events.js", harness::jsEvents());
  const Command cmd = command(plan, *install, staging);
  sandbox::Policy p = basePolicy(plan, options, staging, &*node);
  p.workdir = plan.rootDir;
  // The runner starts (a second or more, transforms, a type check) before the first test.
  p.timeLimitSec += 20;
  p.cpuLimitSec = p.timeLimitSec;
  auto bind = [&](const std::string& path) {
    if (sandbox::bindsReach(p.binds, path)) return;  // (as root: not behind a private directory)
    std::error_code ec;
    if (!path.empty() && path != "/" && fs::exists(path, ec)) p.binds.push_back({path, "", false});
  };
  bind(plan.rootDir);
  for (const auto& d : nodeModulesBinds(plan.rootDir)) bind(d);
  bind(install->dir);
  for (const auto& [copy, path] : staging.overlayBinds()) p.binds.push_back({copy, path, false});
  p.binds.insert(p.binds.end(), cmd.binds.begin(), cmd.binds.end());
  const std::string nodeBin = node->invokedAs.empty() ? node->path : node->invokedAs;
  p.argv = {nodeBin};
  p.argv.insert(p.argv.end(), cmd.nodeFlags.begin(), cmd.nodeFlags.end());
  p.argv.push_back(install->bin);
  p.argv.insert(p.argv.end(), cmd.argv.begin(), cmd.argv.end());
  p.profile = sandbox::Profile::Node;
  p.env.insert(p.env.end(), {"NO_COLOR=1", "FORCE_COLOR=0", "CI=1", "NODE_OPTIONS=", "GL_ROOT=" + plan.rootDir,
                             "GL_WARM_RUNNER=" + runner, "GL_WARM_ROOT=" + plan.rootDir});
  p.env.insert(p.env.end(), cmd.env.begin(), cmd.env.end());
  if (options.warm && !options.executor) {
    std::vector<std::string> warmArgv = {nodeBin};
    warmArgv.insert(warmArgv.end(), cmd.nodeFlags.begin(), cmd.nodeFlags.end());
    warmArgv.push_back(std::string(kSandboxGl) + "/js_warm.js");
    warmArgv.push_back(runner);
    if (!cmd.warmHints.empty()) warmArgv.push_back(cmd.warmHints);
    const std::string_view reporter = runner == "jest" ? harness::jestReporter()
                                      : runner == "vitest" ? harness::vitestReporter()
                                                           : harness::mochaReporter();
    const char* reporterPath = runner == "jest" ? ".gl/jest_reporter.js"
                               : runner == "vitest" ? ".gl/vitest_reporter.mjs"
                                                    : ".gl/mocha_reporter.js";
    p.warm = warmStart(warmArgv, {{".gl/js_warm.js", harness::jsWarm()},
                                  {".gl/js_events.js", harness::jsEvents()},
                                  {reporterPath, reporter},
                                  {".gl/vite_sandbox.mjs", harness::viteSandbox()}});
  }
  PathMap identity;
  auto [step, outcome] = runHarness(p, options, identity, result);
  if (options.prepareOnly) return result;
  finishResult(result, outcome, step, identity);
  if (result.tests.empty() && result.error.empty() && !result.cancelled &&
      (step.verdict.status == sandbox::Status::ExitNonzero || step.verdict.status == sandbox::Status::Signaled)) {
    // The runner could not start the run (its config failed to load, no test file matched):
    // what it said.
    std::string tail = step.stderrRest.empty() ? step.stdoutRest : step.stderrRest;
    tail = noTestsMessage(tail);
    while (!tail.empty() && std::isspace(static_cast<unsigned char>(tail.back()))) tail.pop_back();
    if (tail.size() > 1200) tail = "..." + tail.substr(tail.size() - 1200);
    result.error = runner + " exited with code " + std::to_string(step.verdict.exitCode) + (tail.empty() ? "" : ": " + tail);
  }
  return result;
}

}  // namespace greenlight::core::testing
