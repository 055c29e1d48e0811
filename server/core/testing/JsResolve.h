// Which local file a JavaScript / TypeScript module specifier loads, as node and the runners
// resolve it: what makes "the tests of a file" the test files that load it (issue 33).
//
//   relative and absolute paths   './m', '../m.js', '.', '..', '../' (a directory: its
//                                 package.json main/module/source, else index.*)
//   extensions                    the path itself, TypeScript's './m.js' meaning m.ts (.mjs:
//                                 .mts, .cjs: .cts), then .ts .tsx .mts .cts .js .jsx .mjs .cjs .json
//   the package's own name        'pkg', 'pkg/sub' through package.json `exports` (subpaths,
//                                 patterns, conditions), else its main / the path under it
//   `imports`                     '#x', '#internal/*' of the nearest package.json
//   workspace packages            a package linked into node_modules from inside the project
//   tsconfig / jsconfig           `paths` (patterns, several targets) and `baseUrl`, `extends`
//                                 followed (nearest config from the importing file)
//   the runner's aliases          jest `moduleNameMapper`, vite/vitest `resolve.alias`: given by
//                                 the runner itself (js_probe.js) or read from the config's
//                                 literal text (package.json "jest", jest.config.*, vite.config.*,
//                                 vitest.config.*)
//
// Conditions: every target an `exports`/`imports` entry gives under import, require, node,
// module, development or default counts (a test may load either; the union never misses the
// file a run loads). A specifier that names no file and no installed package, and a
// require()/import() of a computed name, are *unsure*: the static map cannot tell what they
// load, and discovery asks the runner (JsProject.cpp) rather than guess.
//
// Thread-safety: a JsResolver is immutable after construction except its caches, which are
// locked; forRoot() is safe from any thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace greenlight::core::testing {

// An alias of the runner's configuration. vite's resolve.alias: `find` a string (the specifier
// itself or its prefix before a '/') or a regular expression; jest's moduleNameMapper: a regular
// expression whose replacements use $1.. .
struct JsAlias {
  std::string find;
  bool regex = false;
  std::vector<std::string> replacements;  // absolute, or relative to the package root
  bool whole = false;  // jest: a replacement is the whole module path (vite: it replaces the match)
  bool operator==(const JsAlias& o) const {
    return find == o.find && regex == o.regex && replacements == o.replacements && whole == o.whole;
  }
};

// The aliases `root`'s runner configuration writes as literals: package.json "jest".moduleNameMapper,
// jest.config.{json,js,cjs,mjs,ts} moduleNameMapper, {vite,vitest}.config.* resolve.alias (an
// object or a {find, replacement} array; values as strings, path.resolve(__dirname, ...),
// fileURLToPath(new URL(..., import.meta.url))). `<rootDir>` is the config's rootDir.
std::vector<JsAlias> jsConfigAliases(const std::string& root);

// What a file imports, resolved.
struct JsImports {
  std::vector<std::string> files;   // local files it may load (absolute, sorted, unique; node_modules excluded)
  std::vector<std::string> unsure;  // specifiers the static map cannot follow ("require(<computed>)" for a dynamic one)
};

// The module specifiers a file writes: import/export ... from 'x', import 'x', import('x'),
// require('x'), TypeScript's import x = require('x'), and the mock helpers' first arguments
// (jest.mock, vi.mock, requireActual...). `dynamic` set when a require()/import() takes a
// computed name.
std::vector<std::string> jsSpecifiers(const std::string& text, bool* dynamic = nullptr);

class JsResolver {
 public:
  // `root`: the package root (the directory of the package.json that decides, else the
  // workspace root). `aliases`: the runner's, when it could be asked; otherwise those
  // jsConfigAliases(root) reads.
  explicit JsResolver(std::string root, std::optional<std::vector<JsAlias>> aliases = std::nullopt);
  ~JsResolver();
  JsResolver(const JsResolver&) = delete;
  JsResolver& operator=(const JsResolver&) = delete;

  // Shared per (root, aliases); built again when a config file it read changed.
  static std::shared_ptr<const JsResolver> forRoot(const std::string& root,
                                                   const std::optional<std::vector<JsAlias>>& aliases = std::nullopt);

  // The local files `spec`, written in `from`, may load (more than one when conditions
  // differ). Empty for a builtin, an installed package, or nothing; `known` then tells the
  // first two (true) from nothing (false).
  std::vector<std::string> resolve(const std::string& from, const std::string& spec, bool* known = nullptr) const;
  // Every specifier of `text` (the contents of `file`) resolved.
  JsImports imports(const std::string& file, const std::string& text) const;

  const std::string& root() const;
  const std::vector<JsAlias>& aliases() const;
  // What the answers depend on beyond the files' own texts (root, aliases): for callers' caches.
  const std::string& key() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace greenlight::core::testing
