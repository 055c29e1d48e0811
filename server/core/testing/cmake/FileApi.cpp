#include "core/testing/cmake/FileApi.h"
#include "core/testing/Discovery.h"
#include "support/Regex.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace greenlight::core::testing::cmake {
namespace fs = std::filesystem;

namespace {

std::string normal(const std::string& path) {
  if (path.empty()) return path;
  std::string s = fs::path(path).lexically_normal().string();
  if (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// `p` against `base` when relative; normalized.
std::string absolute(const std::string& base, const std::string& p) {
  if (p.empty()) return p;
  if (fs::path(p).is_absolute()) return normal(p);
  return normal((fs::path(base) / p).string());
}

bool hasPrefixDir(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

// A backtrace index -> (file, line) through a backtraceGraph.
void backtraceAt(const nlohmann::json& graph, const nlohmann::json& index, const std::string& sourceDir,
                 std::string& file, int& line) {
  if (!index.is_number_integer() || !graph.is_object()) return;
  const auto& nodes = graph.value("nodes", nlohmann::json::array());
  const auto& files = graph.value("files", nlohmann::json::array());
  auto i = index.get<std::size_t>();
  if (i >= nodes.size()) return;
  const auto& n = nodes[i];
  auto f = n.value("file", static_cast<std::size_t>(-1));
  if (f < files.size()) file = absolute(sourceDir, files[f].get<std::string>());
  line = n.value("line", 0);
}

Target parseTarget(const nlohmann::json& j, const CodeModel& model) {
  Target t;
  t.id = j.value("id", "");
  t.name = j.value("name", "");
  t.type = j.value("type", "");
  t.nameOnDisk = j.value("nameOnDisk", "");
  const auto paths = j.value("paths", nlohmann::json::object());
  t.sourceDir = absolute(model.sourceDir, paths.value("source", "."));
  t.buildDir = absolute(model.buildDir, paths.value("build", "."));
  for (const auto& a : j.value("artifacts", nlohmann::json::array())) t.artifacts.push_back(absolute(model.buildDir, a.value("path", "")));
  for (const auto& g : j.value("compileGroups", nlohmann::json::array())) {
    CompileGroup cg;
    cg.language = g.value("language", "");
    if (g.contains("languageStandard")) cg.languageStandard = g["languageStandard"].value("standard", "");
    for (const auto& f : g.value("compileCommandFragments", nlohmann::json::array())) {
      std::string frag = f.value("fragment", "");
      if (!frag.empty()) cg.fragments.push_back(frag);
    }
    for (const auto& inc : g.value("includes", nlohmann::json::array())) {
      std::string p = absolute(model.buildDir, inc.value("path", ""));
      (inc.value("isSystem", false) ? cg.systemIncludes : cg.includes).push_back(p);
    }
    for (const auto& d : g.value("defines", nlohmann::json::array())) cg.defines.push_back(d.value("define", ""));
    if (g.contains("sysroot")) cg.sysroot = g["sysroot"].value("path", "");
    if (const Toolchain* tc = model.toolchain(cg.language)) cg.compiler = tc->compilerPath;
    t.compileGroups.push_back(std::move(cg));
  }
  for (const auto& s : j.value("sources", nlohmann::json::array())) {
    Source src;
    src.path = absolute(model.sourceDir, s.value("path", ""));
    src.compileGroup = s.value("compileGroupIndex", -1);
    src.generated = s.value("isGenerated", false);
    t.sources.push_back(std::move(src));
  }
  if (j.contains("link")) {
    t.hasLink = true;
    t.linkLanguage = j["link"].value("language", "");
    for (const auto& f : j["link"].value("commandFragments", nlohmann::json::array())) {
      std::string frag = f.value("fragment", "");
      if (!frag.empty()) t.link.push_back({frag, f.value("role", "")});
    }
  }
  for (const auto& d : j.value("dependencies", nlohmann::json::array())) t.dependencies.push_back(d.value("id", ""));
  backtraceAt(j.value("backtraceGraph", nlohmann::json::object()), j.value("backtrace", nlohmann::json()), model.sourceDir,
              t.definedIn, t.definedLine);
  return t;
}

const std::regex& includeLine() {
  static const std::regex r = support::regex(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  return r;
}

struct IncludeName {
  std::string name;
  bool quoted = false;
};

std::vector<IncludeName> includesOf(const std::string& text) {
  std::vector<IncludeName> out;
  std::istringstream in(text);
  std::smatch m;
  for (std::string l; std::getline(in, l);) {
    auto hash = l.find('#');
    if (hash == std::string::npos || l.find("include", hash) == std::string::npos) continue;
    if (std::regex_search(l, m, includeLine())) out.push_back({m[2].str(), m[1].str() == "\""});
  }
  return out;
}

bool isLibrary(const std::string& type) {
  return type == "STATIC_LIBRARY" || type == "SHARED_LIBRARY" || type == "OBJECT_LIBRARY" || type == "MODULE_LIBRARY" ||
         type == "INTERFACE_LIBRARY";
}

Framework frameworkOfHeader(const std::string& path) {
  auto ends = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends("gtest/gtest.h") || ends("gmock/gmock.h")) return Framework::GoogleTest;
  if (ends("/catch.hpp") || ends("catch2/catch.hpp") || ends("catch2/catch_all.hpp") ||
      ends("catch2/catch_test_macros.hpp") || path == "catch.hpp")
    return Framework::Catch2;
  if (ends("/catch_amalgamated.hpp") || path == "catch_amalgamated.hpp") return Framework::Catch2;
  // doctest's single header, also as projects vendor it (test/doctest.hpp, doctest/doctest.hpp).
  if (ends("/doctest.h") || ends("/doctest.hpp") || path == "doctest.h" || path == "doctest.hpp") return Framework::Doctest;
  if (ends("boost/test/unit_test.hpp") || ends("boost/test/included/unit_test.hpp") || ends("boost/test/test_tools.hpp"))
    return Framework::BoostTest;
  return Framework::Plain;
}

// The framework whose main a source defines through its configuration macros (a test binary
// whose framework header has an unusual name still says so).
Framework frameworkOfMainMacro(const std::string& text) {
  if (text.find("DOCTEST_CONFIG_IMPLEMENT") != std::string::npos) return Framework::Doctest;
  if (text.find("CATCH_CONFIG_MAIN") != std::string::npos || text.find("CATCH_CONFIG_RUNNER") != std::string::npos)
    return Framework::Catch2;
  if (text.find("BOOST_TEST_MODULE") != std::string::npos || text.find("BOOST_TEST_MAIN") != std::string::npos)
    return Framework::BoostTest;
  return Framework::Plain;
}

Framework strongest(Framework a, Framework b) {
  auto rank = [](Framework f) {
    switch (f) {
      case Framework::GoogleTest: return 3;
      case Framework::Catch2: return 2;
      case Framework::Doctest: return 1;
      case Framework::BoostTest: return 1;
      case Framework::Plain: break;
    }
    return 0;
  };
  return rank(b) > rank(a) ? b : a;
}

std::vector<std::string> includeDirsOfGroup(const Target& t, int group) {
  std::vector<std::string> dirs;
  if (group < 0 || group >= static_cast<int>(t.compileGroups.size())) return dirs;
  const auto& g = t.compileGroups[static_cast<std::size_t>(group)];
  dirs = g.includes;
  dirs.insert(dirs.end(), g.systemIncludes.begin(), g.systemIncludes.end());
  return dirs;
}

// The object files of `t` that `deps` knows: object -> inputs.
std::vector<const std::pair<const std::string, std::vector<std::string>>*> objectsOf(const Target& t,
                                                                                      const DepsIndex& deps) {
  std::vector<const std::pair<const std::string, std::vector<std::string>>*> out;
  const std::string dir = t.objectDir();
  for (auto it = deps.objects.lower_bound(dir + "/"); it != deps.objects.end() && hasPrefixDir(it->first, dir); ++it)
    out.push_back(&*it);
  return out;
}

std::uint32_t u32(std::string_view b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

}  // namespace

// ---- query

std::string queryJson() {
  return R"({"requests":[{"kind":"codemodel","version":2},{"kind":"cache","version":2},{"kind":"toolchains","version":1}]})"
         "\n";
}

bool writeQuery(const std::string& buildDir, std::string* error) {
  std::error_code ec;
  const fs::path dir = fs::path(buildDir) / ".cmake/api/v1/query/client-greenlight";
  fs::create_directories(dir, ec);
  if (ec) {
    if (error) *error = "cannot create " + dir.string() + ": " + ec.message();
    return false;
  }
  std::ofstream out(dir / "query.json", std::ios::binary | std::ios::trunc);
  out << queryJson();
  if (!out) {
    if (error) *error = "cannot write " + (dir / "query.json").string();
    return false;
  }
  return true;
}

// ---- model

std::string Target::objectDir() const { return normal(buildDir + "/CMakeFiles/" + name + ".dir"); }

const Target* CodeModel::find(std::string_view name) const {
  for (const auto& t : targets)
    if (t.name == name) return &t;
  return nullptr;
}

const Target* CodeModel::findById(std::string_view id) const {
  for (const auto& t : targets)
    if (t.id == id) return &t;
  return nullptr;
}

const Target* CodeModel::byArtifact(std::string_view path) const {
  const std::string p = normal(std::string(path));
  for (const auto& t : targets)
    for (const auto& a : t.artifacts)
      if (a == p) return &t;
  return nullptr;
}

const Toolchain* CodeModel::toolchain(std::string_view language) const {
  for (const auto& t : toolchains)
    if (t.language == language) return &t;
  return nullptr;
}

std::optional<CodeModel> parseReply(const std::string& indexText,
                                    const std::function<std::optional<std::string>(const std::string&)>& read,
                                    std::string* error) {
  auto fail = [&](const std::string& m) -> std::optional<CodeModel> {
    if (error) *error = m;
    return std::nullopt;
  };
  auto index = nlohmann::json::parse(indexText, nullptr, false);
  if (index.is_discarded() || !index.is_object()) return fail("File API index: not JSON");
  CodeModel model;
  const auto cm = index.value("cmake", nlohmann::json::object());
  model.generator = cm.value("generator", nlohmann::json::object()).value("name", "");
  model.multiConfig = cm.value("generator", nlohmann::json::object()).value("multiConfig", false);
  model.cmakeVersion = cm.value("version", nlohmann::json::object()).value("string", "");
  // Our client's responses; else the shared objects list (a stateless query by someone else).
  nlohmann::json responses = nlohmann::json::array();
  const auto reply = index.value("reply", nlohmann::json::object());
  if (reply.contains("client-greenlight") && reply["client-greenlight"].contains("query.json"))
    responses = reply["client-greenlight"]["query.json"].value("responses", nlohmann::json::array());
  if (responses.empty()) responses = index.value("objects", nlohmann::json::array());
  auto load = [&](const std::string& kind) -> nlohmann::json {
    for (const auto& r : responses) {
      if (r.value("kind", "") != kind || !r.contains("jsonFile")) continue;
      auto text = read(r["jsonFile"].get<std::string>());
      if (!text) return nullptr;
      auto j = nlohmann::json::parse(*text, nullptr, false);
      return j.is_discarded() ? nlohmann::json() : j;
    }
    return nullptr;
  };
  const nlohmann::json toolchains = load("toolchains");
  if (toolchains.is_object()) {
    for (const auto& t : toolchains.value("toolchains", nlohmann::json::array())) {
      Toolchain tc;
      tc.language = t.value("language", "");
      const auto c = t.value("compiler", nlohmann::json::object());
      tc.compilerPath = c.value("path", "");
      tc.compilerId = c.value("id", "");
      tc.compilerVersion = c.value("version", "");
      for (const auto& d : c.value("implicit", nlohmann::json::object()).value("includeDirectories", nlohmann::json::array()))
        tc.implicitIncludes.push_back(d.get<std::string>());
      model.toolchains.push_back(std::move(tc));
    }
  }
  const nlohmann::json cache = load("cache");
  if (cache.is_object())
    for (const auto& e : cache.value("entries", nlohmann::json::array())) model.cache[e.value("name", "")] = e.value("value", "");
  const nlohmann::json codemodel = load("codemodel");
  if (!codemodel.is_object()) return fail("File API reply has no codemodel-v2 (configure with the query in place)");
  model.sourceDir = normal(codemodel.value("paths", nlohmann::json::object()).value("source", ""));
  model.buildDir = normal(codemodel.value("paths", nlohmann::json::object()).value("build", ""));
  const auto configs = codemodel.value("configurations", nlohmann::json::array());
  if (configs.empty()) return fail("File API codemodel has no configuration");
  // Single-config generators have one; for multi-config ones prefer Debug, else the first.
  nlohmann::json config = configs[0];
  for (const auto& c : configs)
    if (c.value("name", "") == "Debug") config = c;
  model.configuration = config.value("name", "");
  for (const auto& ref : config.value("targets", nlohmann::json::array())) {
    auto text = read(ref.value("jsonFile", ""));
    if (!text) return fail("File API reply: missing " + ref.value("jsonFile", ""));
    auto tj = nlohmann::json::parse(*text, nullptr, false);
    if (tj.is_discarded()) return fail("File API reply: bad JSON in " + ref.value("jsonFile", ""));
    model.targets.push_back(parseTarget(tj, model));
  }
  return model;
}

std::optional<CodeModel> readReplyDir(const std::string& replyDir, std::string* error) {
  std::error_code ec;
  std::string newest;
  for (const auto& e : fs::directory_iterator(replyDir, ec)) {
    std::string n = e.path().filename().string();
    if (n.rfind("index-", 0) == 0 && n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0 && n > newest) newest = n;
  }
  if (newest.empty()) {
    if (error) *error = "no File API reply in " + replyDir;
    return std::nullopt;
  }
  auto index = readFile(fs::path(replyDir) / newest);
  if (!index) {
    if (error) *error = "cannot read " + newest;
    return std::nullopt;
  }
  return parseReply(*index, [&](const std::string& name) { return readFile(fs::path(replyDir) / name); }, error);
}

std::optional<CodeModel> readReply(const std::string& buildDir, std::string* error) {
  return readReplyDir((fs::path(buildDir) / ".cmake/api/v1/reply").string(), error);
}

std::vector<std::string> splitCommandLine(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  bool inWord = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      cur += text[++i];
      inWord = true;
    } else if (c == '\'') {
      auto e = text.find('\'', i + 1);
      if (e == std::string_view::npos) e = text.size();
      cur += text.substr(i + 1, e - i - 1);
      i = e;
      inWord = true;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '\\' && j + 1 < text.size() && std::strchr("\"\\$`\n", text[j + 1])) ++j;
        cur += text[j];
      }
      i = j;
      inWord = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord) out.push_back(cur);
      cur.clear();
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push_back(cur);
  return out;
}

std::vector<std::string> compileArguments(const CodeModel& model, const Target& target, const Source& source,
                                          std::string object) {
  std::vector<std::string> argv;
  if (source.compileGroup < 0 || source.compileGroup >= static_cast<int>(target.compileGroups.size())) return argv;
  const auto& g = target.compileGroups[static_cast<std::size_t>(source.compileGroup)];
  argv.push_back(g.compiler.empty() ? "c++" : g.compiler);
  for (const auto& d : g.defines) argv.push_back("-D" + d);
  for (const auto& i : g.includes) argv.push_back("-I" + i);
  for (const auto& i : g.systemIncludes) {
    argv.push_back("-isystem");
    argv.push_back(i);
  }
  for (const auto& f : g.fragments)
    for (auto& a : splitCommandLine(f)) argv.push_back(std::move(a));
  if (!g.sysroot.empty()) argv.push_back("--sysroot=" + g.sysroot);
  if (object.empty()) {
    std::string rel = fs::path(source.path).lexically_relative(target.sourceDir).string();
    if (rel.empty() || rel.rfind("..", 0) == 0) rel = fs::path(source.path).lexically_relative(model.sourceDir).string();
    for (std::size_t p = 0; (p = rel.find("../", p)) != std::string::npos;) rel.replace(p, 3, "__/");
    object = target.objectDir() + "/" + rel + ".o";
  }
  argv.insert(argv.end(), {"-o", object, "-c", source.path});
  return argv;
}

// ---- compile_commands.json

std::vector<CompileCommand> parseCompileCommands(std::string_view text, std::string* error) {
  std::vector<CompileCommand> out;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array()) {
    if (error) *error = "compile_commands.json: not a JSON array";
    return out;
  }
  for (const auto& e : j) {
    CompileCommand c;
    c.directory = normal(e.value("directory", ""));
    c.file = absolute(c.directory, e.value("file", ""));
    c.output = e.value("output", "");
    if (e.contains("arguments") && e["arguments"].is_array()) {
      for (const auto& a : e["arguments"]) c.arguments.push_back(a.get<std::string>());
    } else {
      c.arguments = splitCommandLine(e.value("command", ""));
    }
    if (c.output.empty()) {
      for (std::size_t i = 0; i + 1 < c.arguments.size(); ++i)
        if (c.arguments[i] == "-o") c.output = c.arguments[i + 1];
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<CompileCommand> readCompileCommands(const std::string& buildDir, std::string* error) {
  auto text = readFile(fs::path(buildDir) / "compile_commands.json");
  if (!text) {
    if (error) *error = "no compile_commands.json in " + buildDir;
    return {};
  }
  return parseCompileCommands(*text, error);
}

std::vector<std::string> includeDirsOf(const CompileCommand& command) {
  std::vector<std::string> out;
  const auto& a = command.arguments;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (const char* flag : {"-I", "-isystem", "-iquote"}) {
      const std::size_t n = std::strlen(flag);
      if (a[i] == flag && i + 1 < a.size()) {
        out.push_back(absolute(command.directory, a[++i]));
        break;
      }
      if (a[i].size() > n && a[i].compare(0, n, flag) == 0 && (n == 2 || a[i][n] != '-')) {
        out.push_back(absolute(command.directory, a[i].substr(n)));
        break;
      }
    }
  }
  return out;
}

// ---- ctest

std::vector<CtestTest> parseCtestJson(std::string_view text, std::string* error) {
  std::vector<CtestTest> out;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("kind", "") != "ctestInfo") {
    if (error) *error = "ctest --show-only=json-v1: unexpected output";
    return out;
  }
  const auto graph = j.value("backtraceGraph", nlohmann::json::object());
  for (const auto& t : j.value("tests", nlohmann::json::array())) {
    CtestTest c;
    c.name = t.value("name", "");
    for (const auto& a : t.value("command", nlohmann::json::array())) c.command.push_back(a.get<std::string>());
    for (const auto& p : t.value("properties", nlohmann::json::array())) {
      const std::string name = p.value("name", "");
      const auto& v = p.contains("value") ? p["value"] : nlohmann::json();
      c.properties[name] = v;
      if (name == "WORKING_DIRECTORY" && v.is_string()) c.workingDirectory = v.get<std::string>();
      if (name == "LABELS" && v.is_array())
        for (const auto& l : v) c.labels.push_back(l.get<std::string>());
      if (name == "DISABLED" && v.is_boolean()) c.disabled = v.get<bool>();
      if (name == "WILL_FAIL" && v.is_boolean()) c.willFail = v.get<bool>();
      if (name == "SKIP_RETURN_CODE" && v.is_number()) c.skipReturnCode = v.get<int>();
      if (name == "TIMEOUT" && v.is_number()) c.timeoutSec = v.get<double>();
    }
    backtraceAt(graph, t.value("backtrace", nlohmann::json()), "/", c.definedIn, c.definedLine);
    c.frameworkName = c.name;
    out.push_back(std::move(c));
  }
  return out;
}

Framework targetFramework(const CodeModel& model, const Target& target, const DepsIndex* deps) {
  (void)model;
  std::string link;
  for (const auto& f : target.link) link += f.fragment + " ";
  std::transform(link.begin(), link.end(), link.begin(), [](unsigned char c) { return std::tolower(c); });
  if (link.find("gtest") != std::string::npos || link.find("gmock") != std::string::npos) return Framework::GoogleTest;
  if (link.find("catch2") != std::string::npos) return Framework::Catch2;
  if (link.find("unit_test_framework") != std::string::npos) return Framework::BoostTest;
  Framework found = Framework::Plain;
  for (const auto& g : target.compileGroups)
    for (const auto& d : g.defines) found = strongest(found, frameworkOfMainMacro(d));
  bool known = false;
  if (deps) {
    for (const auto* obj : objectsOf(target, *deps)) {
      known = true;
      for (const auto& in : obj->second) found = strongest(found, frameworkOfHeader(in));
    }
  }
  if (known) return found;
  // Not built yet: the #include lines of its sources and of the project headers they reach.
  for (const auto& s : target.sources) {
    if (s.compileGroup < 0) continue;
    std::vector<std::string> files{s.path};
    auto more = scanIncludes(s.path, includeDirsOfGroup(target, s.compileGroup), 200);
    files.insert(files.end(), more.begin(), more.end());
    for (const auto& f : files) {
      found = strongest(found, frameworkOfHeader(f));
      if (auto text = readFile(f)) {
        for (const auto& inc : includesOf(*text)) found = strongest(found, frameworkOfHeader(inc.name));
        if (f == s.path) found = strongest(found, frameworkOfMainMacro(*text));
      }
    }
  }
  return found;
}

void attachTargets(std::vector<CtestTest>& tests, const CodeModel& model, const DepsIndex* deps) {
  std::map<std::string, Framework> frameworks;
  for (auto& t : tests) {
    if (t.command.empty()) continue;
    const Target* target = model.byArtifact(absolute(t.workingDirectory.empty() ? model.buildDir : t.workingDirectory, t.command[0]));
    t.target = target ? target->name : "";
    for (std::size_t i = 1; i < t.command.size(); ++i) {
      const std::string& a = t.command[i];
      if (a.rfind("--gtest_filter=", 0) == 0) {
        t.framework = Framework::GoogleTest;
        t.frameworkName = a.substr(15);
      } else if (a.rfind("--test-case=", 0) == 0 || a.rfind("-tc=", 0) == 0) {
        t.framework = Framework::Doctest;
        std::string v = a.substr(a.find('=') + 1), u;
        for (std::size_t k = 0; k < v.size(); ++k) {
          if (v[k] == '\\' && k + 1 < v.size() && v[k + 1] == ',') ++k;
          u += v[k];
        }
        t.frameworkName = u;
      }
    }
    if (t.framework != Framework::Plain || !target) continue;
    auto it = frameworks.find(target->name);
    if (it == frameworks.end()) it = frameworks.emplace(target->name, targetFramework(model, *target, deps)).first;
    if (it->second == Framework::Catch2 && t.command.size() > 1 && !t.command[1].empty() && t.command[1][0] != '-') {
      t.framework = Framework::Catch2;
      t.frameworkName = catchSpecUnescape(t.command[1]);
    } else if (it->second != Framework::Plain) {
      // The whole framework binary as one CTest test (add_test(NAME x COMMAND tests)).
      t.framework = it->second;
      t.frameworkName.clear();
    }
  }
}

// ---- deps

std::optional<DepsIndex> parseNinjaDepsLog(std::string_view b, const std::string& buildDir, std::string* error) {
  auto fail = [&](const std::string& m) -> std::optional<DepsIndex> {
    if (error) *error = m;
    return std::nullopt;
  };
  static constexpr std::string_view kSig = "# ninjadeps\n";
  if (b.size() < kSig.size() + 4 || b.substr(0, kSig.size()) != kSig) return fail(".ninja_deps: bad signature");
  const std::uint32_t version = u32(b, kSig.size());
  if (version != 3 && version != 4) return fail(".ninja_deps: unsupported version " + std::to_string(version));
  std::vector<std::string> paths;
  std::map<std::uint32_t, std::vector<std::uint32_t>> deps;
  std::size_t at = kSig.size() + 4;
  while (at + 4 <= b.size()) {
    std::uint32_t header = u32(b, at);
    const bool isDeps = (header & 0x80000000u) != 0;
    const std::uint32_t size = header & 0x7FFFFFFFu;
    at += 4;
    if (at + size > b.size() || size % 4 != 0) break;  // a torn last record
    if (isDeps) {
      const std::size_t head = version == 4 ? 12 : 8;  // out id + mtime (64-bit in v4)
      if (size < head) break;
      const std::uint32_t out = u32(b, at);
      std::vector<std::uint32_t> ins;
      for (std::size_t k = at + head; k < at + size; k += 4) ins.push_back(u32(b, k));
      deps[out] = std::move(ins);
    } else {
      if (size < 4) break;
      std::string_view name = b.substr(at, size - 4);
      while (!name.empty() && name.back() == '\0') name.remove_suffix(1);
      const std::uint32_t checksum = u32(b, at + size - 4);
      if (checksum != ~static_cast<std::uint32_t>(paths.size())) break;
      paths.emplace_back(name);
    }
    at += size;
  }
  DepsIndex index;
  for (const auto& [out, ins] : deps) {
    if (out >= paths.size()) continue;
    std::vector<std::string> files;
    for (auto i : ins)
      if (i < paths.size()) files.push_back(absolute(buildDir, paths[i]));
    index.objects[absolute(buildDir, paths[out])] = std::move(files);
  }
  return index;
}

std::vector<std::pair<std::string, std::vector<std::string>>> parseDepfile(std::string_view text) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  std::string joined;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      joined += ' ';
      ++i;
    } else if (text[i] == '\\' && i + 2 < text.size() && text[i + 1] == '\r' && text[i + 2] == '\n') {
      joined += ' ';
      i += 2;
    } else {
      joined += text[i];
    }
  }
  std::istringstream in(joined);
  for (std::string line; std::getline(in, line);) {
    // The separating colon is ": " (paths may contain "C:" on Windows; not here).
    auto colon = line.find(": ");
    if (colon == std::string::npos && !line.empty() && line.back() == ':') colon = line.size() - 1;
    if (colon == std::string::npos) continue;
    std::vector<std::string> words;
    std::string cur;
    const std::string rhs = line.substr(colon + 1);
    for (std::size_t i = 0; i < rhs.size(); ++i) {
      if (rhs[i] == '\\' && i + 1 < rhs.size() && rhs[i + 1] == ' ') {
        cur += ' ';
        ++i;
      } else if (std::isspace(static_cast<unsigned char>(rhs[i]))) {
        if (!cur.empty()) words.push_back(cur);
        cur.clear();
      } else {
        cur += rhs[i];
      }
    }
    if (!cur.empty()) words.push_back(cur);
    std::string target = line.substr(0, colon);
    while (!target.empty() && std::isspace(static_cast<unsigned char>(target.back()))) target.pop_back();
    out.emplace_back(target, std::move(words));
  }
  return out;
}

DepsIndex readDeps(const std::string& buildDir) {
  DepsIndex index;
  if (auto bytes = readFile(fs::path(buildDir) / ".ninja_deps")) {
    if (auto parsed = parseNinjaDepsLog(*bytes, buildDir)) return *parsed;
  }
  std::error_code ec;
  for (fs::recursive_directory_iterator it(buildDir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string p = it->path().string();
    if (p.size() < 4 || p.compare(p.size() - 4, 4, ".o.d") != 0) continue;
    auto text = readFile(it->path());
    if (!text) continue;
    for (auto& [target, prereqs] : parseDepfile(*text)) {
      // Make's depfiles name files relative to the top build dir (where the compiler ran).
      std::vector<std::string> files;
      for (const auto& f : prereqs) files.push_back(absolute(buildDir, f));
      index.objects[absolute(buildDir, target)] = std::move(files);
    }
  }
  return index;
}

std::vector<std::string> scanIncludes(const std::string& source, const std::vector<std::string>& includeDirs,
                                      std::size_t maxFiles) {
  std::vector<std::string> out;
  std::set<std::string> seen{normal(source)};
  std::vector<std::string> queue{normal(source)};
  std::error_code ec;
  while (!queue.empty() && out.size() < maxFiles) {
    const std::string file = queue.back();
    queue.pop_back();
    auto text = readFile(file);
    if (!text) continue;
    for (const auto& inc : includesOf(*text)) {
      std::vector<std::string> candidates;
      if (inc.quoted) candidates.push_back((fs::path(file).parent_path() / inc.name).string());
      for (const auto& d : includeDirs) candidates.push_back((fs::path(d) / inc.name).string());
      for (const auto& c : candidates) {
        if (!fs::is_regular_file(c, ec)) continue;
        const std::string n = normal(c);
        if (seen.insert(n).second) {
          out.push_back(n);
          queue.push_back(n);
        }
        break;
      }
    }
  }
  return out;
}

// ---- near a file

std::vector<FileUse> targetsUsing(const CodeModel& model, const std::string& fileIn, const DepsIndex* deps) {
  const std::string file = normal(fileIn);
  std::vector<FileUse> direct;
  std::map<std::string, std::vector<std::string>> scanCache;
  for (const auto& t : model.targets) {
    std::set<std::string> via;
    for (const auto& s : t.sources)
      if (s.path == file) via.insert(s.path);
    bool knownByDeps = false;
    if (deps) {
      for (const auto* obj : objectsOf(t, *deps)) {
        knownByDeps = true;
        if (std::find(obj->second.begin(), obj->second.end(), file) != obj->second.end() && !obj->second.empty())
          via.insert(obj->second.front());
      }
    }
    if (!knownByDeps) {
      for (const auto& s : t.sources) {
        if (s.compileGroup < 0) continue;
        auto it = scanCache.find(s.path + "\n" + t.id);
        if (it == scanCache.end())
          it = scanCache.emplace(s.path + "\n" + t.id, scanIncludes(s.path, includeDirsOfGroup(t, s.compileGroup))).first;
        if (std::find(it->second.begin(), it->second.end(), file) != it->second.end()) via.insert(s.path);
      }
    }
    if (!via.empty()) direct.push_back({&t, std::vector<std::string>(via.begin(), via.end()), ""});
  }
  // Linking a library that uses the file is using it too (transitively).
  std::vector<FileUse> out = direct;
  std::set<std::string> have;
  for (const auto& u : out) have.insert(u.target->id);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Target* lib = out[i].target;
    if (!isLibrary(lib->type)) continue;
    const std::string libName = out[i].through.empty() ? lib->name : out[i].through;
    for (const auto& t : model.targets) {
      if (have.count(t.id)) continue;
      if (std::find(t.dependencies.begin(), t.dependencies.end(), lib->id) == t.dependencies.end()) continue;
      have.insert(t.id);
      out.push_back({&t, {}, libName});
    }
  }
  return out;
}

std::vector<const CtestTest*> testsUsing(const CodeModel& model, const std::vector<CtestTest>& tests,
                                         const std::string& fileIn, const DepsIndex* deps) {
  const std::string file = normal(fileIn);
  std::set<std::string> targets;
  for (const auto& u : targetsUsing(model, file, deps)) targets.insert(u.target->name);
  std::vector<const CtestTest*> out;
  for (const auto& t : tests) {
    bool use = !t.target.empty() && targets.count(t.target) > 0;
    for (std::size_t i = 0; !use && i < t.command.size(); ++i)
      use = absolute(t.workingDirectory.empty() ? model.buildDir : t.workingDirectory, t.command[i]) == file;
    if (use) out.push_back(&t);
  }
  return out;
}

}  // namespace greenlight::core::testing::cmake
