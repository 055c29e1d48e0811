#include "core/testing/native/CompileDb.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "core/testing/ContentHash.h"
#include "core/testing/Discovery.h"
#include "core/testing/native/Gcov.h"
#include "support/Log.h"

namespace greenlight::core::testing::native {
namespace fs = std::filesystem;
using cmake::Framework;

namespace {

// Bazel output bases hold every external repository and generated file; a project's builds read
// few other directories outside it. Past this many, the rest are not bound (and logged).
constexpr std::size_t kMaxOutsideDirs = 64;
// What the sandbox shows of the host itself (sandbox/PlanBuilder.cpp kSystemDirs).
constexpr const char* kSandboxSystemDirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

bool inside(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

bool isStop(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / ".git", ec) || fs::exists(dir / ".greenlight.json", ec)) return true;
  const char* home = std::getenv("HOME");
  return home && dir == fs::path(home).lexically_normal();
}

// A build system with its own adapter wrote this database (CMake, Meson).
bool ownedByAnotherBuild(const fs::path& dbDir, const fs::path& root) {
  std::error_code ec;
  return fs::exists(dbDir / "CMakeCache.txt", ec) || fs::exists(dbDir / "meson-info", ec) ||
         fs::exists(root / "CMakeLists.txt", ec) || fs::exists(root / "meson.build", ec);
}

std::string ninjaPath(const std::string& p) {
  std::string out;
  for (char c : p) {
    if (c == '$' || c == ' ' || c == ':') out += '$';
    out += c;
  }
  return out;
}

std::string ninjaValue(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

std::string shellQuote(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=/.,:@%") == std::string::npos)
    return a;
  std::string out = "'";
  for (char c : a) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string absoluteIn(const std::string& dir, const std::string& p) {
  if (!p.empty() && p[0] == '/') return fs::path(p).lexically_normal().string();
  return (fs::path(dir) / p).lexically_normal().string();
}

// The links the entries name files through (CompileDb::links): the symlinked children of each
// entry directory outside the project that lead into it, and of the project that lead out of it.
std::vector<PathLink> linksOf(const std::string& root, const std::vector<cmake::CompileCommand>& entries) {
  std::set<std::string> outside;
  for (const auto& e : entries)
    if (!e.directory.empty() && !inside(e.directory, root)) outside.insert(e.directory);
  std::vector<PathLink> out;
  const auto scan = [&](const std::string& dir, bool intoProject) {
    std::error_code ec;
    for (const auto& child : fs::directory_iterator(dir, ec)) {
      std::error_code cec;
      if (!child.is_symlink(cec)) continue;
      const fs::path to = fs::canonical(child.path(), cec);
      if (!cec && inside(to.string(), root) == intoProject) out.push_back({child.path().string(), to.string()});
    }
  };
  scan(root, false);
  // Bazel's entries share one execroot; a few directories bound the listing of other databases.
  std::size_t listed = 0;
  for (const auto& d : outside)
    if (listed++ < 8) scan(d, true);
  return out;
}

// The include directories an entry names (-I, -isystem, -iquote, -idirafter; joined or not),
// absolute against its directory.
std::vector<std::string> includeDirsNamed(const cmake::CompileCommand& e) {
  std::vector<std::string> out;
  const auto& a = e.arguments;
  for (std::size_t i = 1; i < a.size(); ++i)
    for (const std::string flag : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      if (a[i] == flag && i + 1 < a.size()) {
        out.push_back(absoluteIn(e.directory, a[++i]));
        break;
      }
      if (a[i].size() > flag.size() && a[i].compare(0, flag.size(), flag) == 0 && a[i] != "-I-") {
        out.push_back(absoluteIn(e.directory, a[i].substr(flag.size())));
        break;
      }
    }
  return out;
}

// Resolves `path` a component at a time as the kernel does, calling `visit` with the real
// directory holding each symlink it follows (the sandbox must show that link too). Returns the
// real path; its tail need not exist.
fs::path resolveVisiting(const fs::path& path, const std::function<void(const fs::path&)>& visit) {
  std::vector<fs::path> rest;  // the components left, the next one last
  const auto push = [&](const fs::path& p) {
    const fs::path relative = p.relative_path();
    const std::vector<fs::path> parts(relative.begin(), relative.end());
    rest.insert(rest.end(), parts.rbegin(), parts.rend());
  };
  push(path);
  fs::path at = "/";
  for (int links = 0; !rest.empty();) {
    const fs::path part = rest.back();
    rest.pop_back();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      at = at.parent_path();
      continue;
    }
    std::error_code ec;
    const fs::path next = at / part;
    if (!fs::is_symlink(next, ec)) {
      at = next;
      continue;
    }
    const fs::path target = fs::read_symlink(next, ec);
    if (ec || ++links > 40) return next;  // unreadable, or a loop (ELOOP)
    visit(at);
    if (target.is_absolute()) at = "/";
    push(target);
  }
  return at;
}

// The directory to bind for `dir`: the Bazel output base it lies in (the nearest ancestor holding
// execroot/, below $HOME and the directories holding the project), else `dir`.
std::string bindFor(const fs::path& dir, const std::string& projectDir, const std::string& home) {
  std::error_code ec;
  for (fs::path a = dir; a != a.parent_path(); a = a.parent_path()) {
    if (a == home || inside(projectDir, a.string())) break;
    if (fs::is_directory(a / "execroot", ec)) return a.string();
  }
  return dir.string();
}

bool definesMain(const std::string& text) {
  return cmake::mainLine(text) > 0 || text.find("CATCH_CONFIG_MAIN") != std::string::npos ||
         text.find("DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN") != std::string::npos ||
         text.find("BOOST_TEST_MODULE") != std::string::npos || text.find("BOOST_TEST_MAIN") != std::string::npos;
}

// The #include line of `text` naming the framework's header, as written ("<doctest/doctest.h>").
std::string frameworkInclude(const std::string& text, Framework fw) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    const auto at = l.find("#include");
    if (at == std::string::npos) continue;
    const std::string inc = l.substr(at + 8);
    const auto open = inc.find_first_of("<\""), close = inc.find_last_of(">\"");
    if (open == std::string::npos || close == std::string::npos || close <= open) continue;
    const std::string spelled = inc.substr(open, close - open + 1);
    const bool hit = (fw == Framework::Catch2 && spelled.find("catch") != std::string::npos) ||
                     (fw == Framework::Doctest && spelled.find("doctest") != std::string::npos) ||
                     (fw == Framework::BoostTest && spelled.find("boost/test/") != std::string::npos);
    if (hit) return spelled;
  }
  return "";
}

// The compiler an entry runs (behind a ccache launcher).
std::string compilerOf(const cmake::CompileCommand& e) {
  std::string compiler = e.arguments.empty() ? "c++" : e.arguments.front();
  if (fs::path(compiler).filename() == "ccache" && e.arguments.size() > 1) compiler = e.arguments[1];
  return compiler;
}

}  // namespace

LinkDriver linkDriverFor(const cmake::CompileCommand& e) {
  std::string compiler = compilerOf(e);
  // Relative to the entry's directory (Bazel's external/local_config_cc/...): the link runs in
  // greenlight's build directory.
  if (compiler.find('/') != std::string::npos && compiler.front() != '/') compiler = absoluteIn(e.directory, compiler);
  const fs::path path(compiler);
  const std::string name = path.filename().string();
  // [target-]gcc[-N], cc, clang[-N]: the C drivers, which link no C++ runtime.
  const std::size_t dash = name.rfind('-');
  const bool versioned = dash != std::string::npos && dash + 1 < name.size() &&
                         std::all_of(name.begin() + static_cast<long>(dash) + 1, name.end(),
                                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
  const std::string stem = versioned ? name.substr(0, dash) : name, version = versioned ? name.substr(dash) : "";
  std::string cxx;
  for (const auto& [c, plus] : {std::pair<const char*, const char*>{"gcc", "g++"}, {"clang", "clang++"}, {"cc", "c++"}}) {
    const std::string drv(c);
    if (stem == drv || (stem.size() > drv.size() + 1 && stem.compare(stem.size() - drv.size() - 1, std::string::npos, "-" + drv) == 0)) {
      cxx = stem.substr(0, stem.size() - drv.size()) + plus + version;
      break;
    }
  }
  if (cxx.empty()) return {compiler, ""};
  std::error_code ec;
  if (path.has_parent_path() && fs::exists(path.parent_path() / cxx, ec)) return {(path.parent_path() / cxx).string(), ""};
  // No C++ sibling beside it: the C driver, told to link the C++ runtime.
  return {compiler, "-lstdc++"};
}

namespace {

// The entry's command compiling `file` into `object` with a depfile.
std::vector<std::string> compileCommand(const cmake::CompileCommand& e, const std::vector<PathLink>& links, const std::string& file,
                                        const std::string& object) {
  std::vector<std::string> out;
  const auto& a = e.arguments;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string& x = a[i];
    if (x == "-o" || x == "-MF" || x == "-MT" || x == "-MQ") {
      ++i;
      continue;
    }
    if ((x.rfind("-o", 0) == 0 && x.size() > 2) || x == "-MD" || x == "-MMD" || x == "-MP" ||
        (x.rfind("-MF", 0) == 0 && x.size() > 3) || (x.rfind("-MT", 0) == 0 && x.size() > 3))
      continue;
    if (i > 0 && followLinks(links, absoluteIn(e.directory, x)) == e.file) {
      out.push_back(file);
      continue;
    }
    // Include directories made absolute: ninja records the headers a TU read as the compiler
    // names them, and relative names would be read against greenlight's build directory.
    bool done = false;
    for (const char* flag : {"-I", "-isystem", "-iquote", "-idirafter", "-include"}) {
      const std::string f(flag);
      if (x == f && i + 1 < a.size()) {
        out.push_back(x);
        out.push_back(absoluteIn(e.directory, a[++i]));
        done = true;
        break;
      }
      if (f == "-I" && x.size() > 2 && x.compare(0, 2, "-I") == 0) {
        out.push_back("-I" + absoluteIn(e.directory, x.substr(2)));
        done = true;
        break;
      }
    }
    if (!done) out.push_back(x);
  }
  out.insert(out.end(), {"-MD", "-MF", object + ".d", "-o", object});
  return out;
}

}  // namespace

std::optional<CompileDb> findCompileDb(const std::string& file) {
  std::error_code ec;
  fs::path dir = fs::absolute(file, ec).lexically_normal().parent_path();
  for (;; dir = dir.parent_path()) {
    // Fixed names only: this walk runs for every C++ file up to the repository root (or "/"),
    // and listing a crowded /tmp on each would cost more than the rest of discovery.
    const std::vector<fs::path> candidates = {dir, dir / "build", dir / "out", dir / "_build"};
    for (const auto& c : candidates) {
      if (!fs::is_regular_file(c / "compile_commands.json", ec)) continue;
      if (ownedByAnotherBuild(c, dir)) return std::nullopt;
      CompileDb db;
      db.root = dir.string();
      db.path = (c / "compile_commands.json").string();
      db.entries = cmake::readCompileCommands(c.string());
      if (db.entries.empty()) continue;
      db.links = linksOf(db.root, db.entries);
      for (auto& e : db.entries) e.file = followLinks(db.links, e.file);
      return db;
    }
    if (isStop(dir) || dir == dir.parent_path()) return std::nullopt;
  }
}

std::vector<std::string> outsideDirs(const CompileDb& db, const std::string& projectDir) {
  std::set<std::string> named;  // as the entries name them
  for (const auto& e : db.entries) {
    named.insert(e.directory);
    named.insert(fs::path(e.file).parent_path().string());
    for (auto& d : includeDirsNamed(e)) named.insert(std::move(d));
  }
  std::set<std::string> reached;  // real directories
  for (const auto& n : named) {
    if (n.empty() || n[0] != '/') continue;
    reached.insert(resolveVisiting(n, [&](const fs::path& d) { reached.insert(d.string()); }).string());
  }
  const char* homeVar = std::getenv("HOME");
  const std::string home = homeVar && *homeVar ? fs::path(homeVar).lexically_normal().string() : "";
  std::set<std::string> binds;
  for (const auto& d : reached) {
    std::error_code ec;
    const bool system = std::any_of(std::begin(kSandboxSystemDirs), std::end(kSandboxSystemDirs),
                                    [&](const char* s) { return inside(d, s); });
    if (d == "/" || system || inside(d, projectDir) || inside(projectDir, d) || (!home.empty() && inside(home, d)) ||
        !fs::is_directory(d, ec))
      continue;
    binds.insert(bindFor(d, projectDir, home));
  }
  std::vector<std::string> out;
  for (const auto& b : binds)
    if (std::none_of(out.begin(), out.end(), [&](const std::string& o) { return inside(b, o); })) out.push_back(b);
  if (out.size() > kMaxOutsideDirs) {
    GL_LOG(Info, db.path << " reads " << out.size() << " directories outside the project; the sandbox shows the first "
                         << kMaxOutsideDirs);
    out.resize(kMaxOutsideDirs);
  }
  return out;
}

std::vector<std::string> testSources(const CompileDb& db) {
  std::vector<std::string> out;
  for (const auto& e : db.entries) {
    auto text = readFile(e.file);
    if (text && !cmake::scanTestDeclarations(*text).empty() && std::find(out.begin(), out.end(), e.file) == out.end())
      out.push_back(e.file);
  }
  return out;
}

std::vector<Program> compileDbPrograms(const CompileDb& db, const std::string& buildDir, std::string* ninja, std::string* error) {
  struct Unit {
    const cmake::CompileCommand* entry = nullptr;
    Framework framework = Framework::Plain;
    bool tests = false, main = false;
    std::string text;
  };
  std::vector<Unit> units;
  std::set<std::string> seen;
  for (const auto& e : db.entries) {
    if (!seen.insert(e.file).second) continue;
    const std::string ext = fs::path(e.file).extension().string();
    if (ext == ".c") continue;  // C sources: their own programs (a C++ test links C++ objects)
    Unit u;
    u.entry = &e;
    u.text = readFile(e.file).value_or("");
    const auto decls = cmake::scanTestDeclarations(u.text);
    u.tests = !decls.empty();
    u.main = definesMain(u.text);
    u.framework = u.tests ? decls.front().framework : u.main ? frameworkOfSources({e.file}) : Framework::Plain;
    units.push_back(std::move(u));
  }
  const bool ccache = cmake::sandboxHasProgram("ccache");
  const bool coverage = coverageEnabled();
  std::string n = "# written by greenlight from " + db.path + "\n"
                  "rule cc\n  command = cd $dir && $cmd\n  depfile = $out.d\n  deps = gcc\n  description = CC $in\n"
                  "rule link\n  command = $cxx $in -o $out $libs\n  description = LINK $out\n";
  std::map<std::string, std::string> objectOf;  // source -> object
  const auto objectFor = [&](const cmake::CompileCommand& e, const std::string& file) {
    auto it = objectOf.find(file);
    if (it != objectOf.end()) return it->second;
    const std::string obj = buildDir + "/obj/" + fs::path(file).stem().string() + "-" + hex64(fnv1a(file)).substr(0, 10) + ".o";
    auto cmd = compileCommand(e, db.links, file, obj);
    // Coverage (issue 35): part of the written build, so toggling it rebuilds once, not per run.
    if (coverage && !gcovForCommand(compilerOf(e)).empty()) cmd.insert(cmd.end(), {"--coverage", kCoverageExclude});
    if (ccache && fs::path(cmd.front()).filename() != "ccache") cmd.insert(cmd.begin(), "ccache");
    std::string line;
    for (const auto& a : cmd) line += (line.empty() ? "" : " ") + shellQuote(a);
    n += "build " + ninjaPath(obj) + ": cc " + ninjaPath(file) + "\n  dir = " + ninjaValue(shellQuote(e.directory)) + "\n  cmd = " +
         ninjaValue(line) + "\n";
    objectOf[file] = obj;
    return obj;
  };
  std::vector<std::string> libraryObjects, librarySources;
  for (const auto& u : units)
    if (!u.tests && !u.main) {
      libraryObjects.push_back(objectFor(*u.entry, u.entry->file));
      librarySources.push_back(u.entry->file);
    }
  std::vector<Program> out;
  std::error_code ec;
  fs::create_directories(buildDir + "/obj", ec);
  for (Framework fw : {Framework::GoogleTest, Framework::Catch2, Framework::Doctest, Framework::BoostTest}) {
    std::vector<const Unit*> tests;
    const Unit* mainUnit = nullptr;
    for (const auto& u : units) {
      if (u.framework != fw) continue;
      if (u.tests) tests.push_back(&u);
      if (u.main && !mainUnit) mainUnit = &u;
    }
    if (tests.empty()) continue;
    Program p;
    p.framework = fw;
    p.linked = librarySources;
    p.perFile = true;
    p.links = db.links;
    p.target = std::string(cmake::frameworkName(fw));
    p.binary = buildDir + "/bin/" + p.target + "-tests";
    p.buildTarget = p.binary;
    std::vector<std::string> objects;
    std::string libs;
    bool dynBoost = false, catch3 = false, gmock = false;
    for (const auto* u : tests) {
      objects.push_back(objectFor(*u->entry, u->entry->file));
      p.sources.push_back(u->entry->file);
      for (const auto& d : cmake::includeDirsOf(*u->entry))
        if (std::find(p.includeDirs.begin(), p.includeDirs.end(), d) == p.includeDirs.end()) p.includeDirs.push_back(d);
      for (const auto& a : u->entry->arguments) dynBoost = dynBoost || a == "-DBOOST_TEST_DYN_LINK";
      catch3 = catch3 || u->text.find("catch2/catch_test_macros.hpp") != std::string::npos || u->text.find("catch2/catch_all.hpp") != std::string::npos;
      gmock = gmock || u->text.find("gmock/gmock.h") != std::string::npos;
    }
    if (mainUnit && std::find(p.sources.begin(), p.sources.end(), mainUnit->entry->file) == p.sources.end()) {
      objects.push_back(objectFor(*mainUnit->entry, mainUnit->entry->file));
      p.sources.push_back(mainUnit->entry->file);
    }
    // The framework's main when the project has none, compiled with a test file's own flags.
    std::string generated;
    const Unit& first = *tests.front();
    switch (fw) {
      case Framework::GoogleTest:
        libs = gmock ? "-lgmock -lgtest" : "-lgtest";
        if (!mainUnit) libs = (gmock ? "-lgmock_main " : "-lgtest_main ") + libs;
        break;
      case Framework::Catch2:
        if (catch3) libs = mainUnit ? "-lCatch2" : "-lCatch2Main -lCatch2";
        else if (!mainUnit) generated = "#define CATCH_CONFIG_MAIN\n#include " + frameworkInclude(first.text, fw) + "\n";
        break;
      case Framework::Doctest:
        if (!mainUnit) generated = "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include " + frameworkInclude(first.text, fw) + "\n";
        break;
      case Framework::BoostTest:
        libs = dynBoost ? "-lboost_unit_test_framework"
               : fs::exists("/usr/lib/x86_64-linux-gnu/libboost_unit_test_framework.a", ec) || fs::exists("/usr/lib/libboost_unit_test_framework.a", ec)
                   ? "-l:libboost_unit_test_framework.a"
                   : "-lboost_unit_test_framework";
        if (!mainUnit) generated = "#define BOOST_TEST_MODULE greenlight\n#include <boost/test/unit_test.hpp>\n";
        break;
      case Framework::Plain: break;
    }
    if (!generated.empty()) {
      const std::string mainFile = buildDir + "/gl_main_" + p.target + ".cpp";
      if (readFile(mainFile).value_or("") != generated) {
        std::ofstream f(mainFile, std::ios::trunc);
        f << generated;
        if (!f) {
          *error = "cannot write " + mainFile;
          return {};
        }
      }
      objects.push_back(objectFor(*first.entry, mainFile));
    }
    objects.insert(objects.end(), libraryObjects.begin(), libraryObjects.end());
    const std::string compiler = compilerOf(*first.entry);
    if (coverage) p.gcov = gcovForCommand(compiler);
    const LinkDriver driver = linkDriverFor(*first.entry);
    n += "build " + ninjaPath(p.binary) + ": link";
    for (const auto& o : objects) n += " " + ninjaPath(o);
    n += "\n  cxx = " + ninjaValue(shellQuote(driver.command)) + "\n  libs = " +
         ninjaValue(libs + " -pthread -lm" + (driver.extraLibs.empty() ? "" : " " + driver.extraLibs) +
                    (p.gcov.empty() ? "" : " --coverage")) + "\n";
    for (const auto& s : p.sources)
      if (auto text = readFile(s))
        if (int l = cmake::mainLine(*text)) {
          p.file = s;
          p.line = l;
        }
    if (p.file.empty()) p.file = p.sources.front();
    out.push_back(std::move(p));
  }
  fs::create_directories(buildDir + "/bin", ec);
  *ninja = n;
  return out;
}

}  // namespace greenlight::core::testing::native
