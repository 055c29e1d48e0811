#include "core/testing/native/Meson.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/testing/Discovery.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/native/Gcov.h"
#include "support/Log.h"
#include "support/Regex.h"

namespace greenlight::core::testing::native {
namespace fs = std::filesystem;

namespace {

bool isStop(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / ".git", ec) || fs::exists(dir / ".greenlight.json", ec)) return true;
  const char* home = std::getenv("HOME");
  return home && dir == fs::path(home).lexically_normal();
}

bool declaresProject(const std::string& text) {
  static const std::regex r = support::regex(R"((^|\n)\s*project\s*\()");
  return std::regex_search(text, r);
}

std::string optionValue(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : ",") + optionValue(x);
    return out;
  }
  return "";
}

// The -D options of the user's own build directory of the project (the newest with meson-info/).
std::vector<std::string> userOptions(const MesonProject& project, std::string* from) {
  std::error_code ec;
  fs::path best;
  fs::file_time_type bestTime{};
  for (const auto& e : fs::directory_iterator(project.sourceDir, ec)) {
    const fs::path info = e.path() / "meson-info" / "intro-buildoptions.json";
    if (!e.is_directory(ec) || !fs::is_regular_file(info, ec)) continue;
    auto t = fs::last_write_time(info, ec);
    if (best.empty() || t > bestTime) {
      best = info;
      bestTime = t;
    }
  }
  std::vector<std::string> out;
  if (best.empty()) return out;
  auto j = nlohmann::json::parse(readFile(best.string()).value_or(""), nullptr, false);
  if (!j.is_array()) return out;
  *from = best.parent_path().parent_path().filename().string();
  static const std::set<std::string> carried = {"buildtype", "debug", "optimization", "cpp_std", "c_std", "b_sanitize", "b_ndebug", "cpp_args", "c_args", "cpp_link_args"};
  for (const auto& o : j) {
    if (!o.is_object()) continue;
    const std::string name = o.value("name", ""), section = o.value("section", "");
    if (name.empty() || name.find(':') != std::string::npos) continue;  // subproject options
    if (section == "user" || carried.count(name)) out.push_back("-D" + name + "=" + optionValue(o.value("value", nlohmann::json())));
  }
  return out;
}

std::string tail(const std::string& s, std::size_t n) { return s.size() <= n ? s : "…" + s.substr(s.size() - n); }

}  // namespace

std::optional<MesonProject> findMesonProject(const std::string& file) {
  std::error_code ec;
  fs::path dir = fs::absolute(file, ec).lexically_normal().parent_path();
  std::optional<fs::path> top;
  for (;; dir = dir.parent_path()) {
    if (auto text = readFile((dir / "meson.build").string()); text && declaresProject(*text)) top = dir;
    if (isStop(dir) || dir == dir.parent_path()) break;
  }
  if (!top) return std::nullopt;
  MesonProject p;
  p.sourceDir = top->string();
  fs::recursive_directory_iterator it(*top, fs::directory_options::skip_permission_denied, ec), end;
  for (std::size_t visited = 0; !ec && it != end && ++visited < 20000; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (name.empty() || name[0] == '.' || name == "subprojects" || fs::exists(it->path() / "meson-info", ec) || it.depth() > 8)
        it.disable_recursion_pending();
      continue;
    }
    if (name == "meson.build" || name == "meson_options.txt" || name == "meson.options") p.buildFiles.push_back(it->path().string());
  }
  std::sort(p.buildFiles.begin(), p.buildFiles.end());
  return p;
}

bool mesonConfigure(cmake::PrivateBuild& build, const MesonProject& project, const RunOptions& options, std::string* error) {
  std::string from;
  std::vector<std::string> argv = {"meson", "setup", "--wrap-mode=nodownload"};
  auto user = userOptions(project, &from);
  bool buildtype = false;
  for (const auto& o : user) buildtype = buildtype || o.rfind("-Dbuildtype=", 0) == 0;
  if (!buildtype) argv.push_back("-Dbuildtype=debug");
  // Coverage (issue 35) is part of the configuration (toggling it is a new setup); a user's own
  // b_coverage comes after and wins.
  if (coverageEnabled()) argv.push_back("-Db_coverage=true");
  argv.insert(argv.end(), user.begin(), user.end());
  argv.push_back(build.buildDir());
  argv.push_back(project.sourceDir);
  std::string signature;
  for (const auto& a : argv) signature += a + "\n";
  const std::string signaturePath = build.root() + "/configured-with";
  std::error_code ec;
  const bool configured = fs::is_regular_file(build.buildDir() + "/meson-info/intro-tests.json", ec) &&
                          fs::is_regular_file(build.buildDir() + "/build.ninja", ec);
  if (configured && readFile(signaturePath).value_or("") == signature) return true;
  fs::remove_all(build.buildDir(), ec);
  for (const char* sub : {"/build", "/ccache", "/overlay"}) fs::create_directories(build.root() + sub, ec);
  if (::geteuid() == 0) {
    for (const char* sub : {"/build", "/ccache"})
      if (::chown((build.root() + sub).c_str(), 65534, 65534) != 0) {
        // Left as is: meson says what it could not write.
      }
  }
  sandbox::Policy p = build.stepPolicy(options, 600, {});
  p.argv = argv;
  p.env.push_back("HOME=" + build.buildDir());
  StepOutput out = executeStep(p, options, nullptr);
  if (out.verdict.cancelled) {
    *error = "cancelled while configuring";
    return false;
  }
  if (out.verdict.status != sandbox::Status::Ok) {
    const std::string said = out.stdoutText + "\n" + out.stderrText;
    std::string why = out.verdict.status == sandbox::Status::ExitNonzero ? "exit code " + std::to_string(out.verdict.exitCode)
                                                                          : std::string(sandbox::statusName(out.verdict.status));
    if (!out.verdict.syscall.empty()) why += " (" + out.verdict.syscall + ")";
    *error = "meson could not set up " + project.sourceDir + (from.empty() ? "" : " with the options of " + from + "/") + " (" + why + ")";
    // A wrap whose sources are not in subprojects/ yet needs a download (Meson then fails on
    // the read-only subprojects/packagecache, or says downloading is disabled): name it.
    std::string missing;
    for (const auto& e : fs::directory_iterator(project.sourceDir + "/subprojects", ec)) {
      if (e.path().extension() != ".wrap") continue;
      std::string directory = e.path().stem().string(), url;
      std::istringstream in(readFile(e.path().string()).value_or(""));
      for (std::string l; std::getline(in, l);) {
        const auto eq = l.find('=');
        if (eq == std::string::npos) continue;
        std::string key = l.substr(0, eq), value = l.substr(eq + 1);
        key.erase(key.find_last_not_of(" \t") + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        if (key == "directory") directory = value;
        if ((key == "source_url" || key == "url") && url.empty()) url = value;
      }
      if (fs::is_directory(project.sourceDir + "/subprojects/" + directory, ec)) continue;
      missing += (missing.empty() ? "" : ", ") + e.path().stem().string() + " (subprojects/" + e.path().filename().string() +
                 (url.empty() ? "" : ", " + url) + ")";
    }
    if (!missing.empty() && (said.find("packagecache") != std::string::npos || said.find("wrap") != std::string::npos ||
                             said.find("ubproject") != std::string::npos))
      *error += ": the subprojects " + missing + " are not downloaded, and greenlight sets up offline with the project "
                "read-only. Run `meson subprojects download` in the project (or `meson setup build` once yourself): "
                "greenlight then uses them";
    *error += ". Meson said: " + tail(said, missing.empty() ? 1500 : 600);
    return false;
  }
  std::ofstream(signaturePath, std::ios::trunc) << signature;
  return true;
}

std::vector<std::string> mesonShouldFail(const std::vector<std::string>& buildFiles) {
  std::vector<std::string> out;
  static const std::regex call = support::regex(R"(\btest\s*\(\s*'([^']*)')");
  for (const auto& f : buildFiles) {
    auto text = readFile(f);
    if (!text) continue;
    for (std::sregex_iterator it(text->begin(), text->end(), call), end; it != end; ++it) {
      // The call's arguments: up to its closing parenthesis.
      std::size_t i = static_cast<std::size_t>(it->position(0)) + static_cast<std::size_t>(it->length(0));
      int depth = 1;
      const std::size_t start = i;
      for (; i < text->size() && depth > 0; ++i) {
        if ((*text)[i] == '(') ++depth;
        else if ((*text)[i] == ')') --depth;
        else if ((*text)[i] == '\'') i = text->find('\'', i + 1) == std::string::npos ? text->size() : text->find('\'', i + 1);
      }
      const std::string args = text->substr(start, i - start);
      static const std::regex sf = support::regex(R"(\bshould_fail\s*:\s*true\b)");
      if (std::regex_search(args, sf)) out.push_back((*it)[1].str());
    }
  }
  return out;
}

std::vector<Program> mesonPrograms(const MesonProject& project, const std::string& buildDir, std::string* error) {
  std::vector<Program> out;
  auto tests = nlohmann::json::parse(readFile(buildDir + "/meson-info/intro-tests.json").value_or(""), nullptr, false);
  auto targets = nlohmann::json::parse(readFile(buildDir + "/meson-info/intro-targets.json").value_or(""), nullptr, false);
  if (!tests.is_array() || !targets.is_array()) {
    *error = "meson introspection missing or unreadable in " + buildDir + "/meson-info";
    return out;
  }
  const auto shouldFail = mesonShouldFail(project.buildFiles);
  // The C++ compiler, as the targets compile (intro-targets.json: target_sources[].compiler).
  std::string gcov;
  for (const auto& g : targets)
    for (const auto& ts : g.value("target_sources", nlohmann::json::array()))
      if (gcov.empty() && ts.is_object() && ts.value("language", "") == "cpp") {
        const auto compiler = ts.value("compiler", nlohmann::json::array());
        std::size_t i = compiler.is_array() && compiler.size() > 1 && compiler[0] == "ccache" ? 1 : 0;
        if (compiler.is_array() && i < compiler.size() && compiler[i].is_string()) gcov = gcovForCommand(compiler[i].get<std::string>());
      }
  if (!coverageEnabled()) gcov.clear();
  const std::string ninja = readFile(buildDir + "/build.ninja").value_or("");
  for (const auto& t : tests) {
    if (!t.is_object()) continue;
    const auto cmd = t.value("cmd", nlohmann::json::array());
    if (!cmd.is_array() || cmd.empty() || !cmd[0].is_string()) continue;
    Program p;
    p.binary = cmd[0].get<std::string>();
    for (std::size_t i = 1; i < cmd.size(); ++i)
      if (cmd[i].is_string()) p.args.push_back(cmd[i].get<std::string>());
    p.testName = t.value("name", "");
    p.target = p.testName;
    p.gcov = gcov;
    if (t.contains("workdir") && t["workdir"].is_string()) p.workdir = t["workdir"].get<std::string>();
    if (auto env = t.find("env"); env != t.end() && env->is_object())
      for (auto e = env->begin(); e != env->end(); ++e)
        if (e->is_string()) p.env.push_back(e.key() + "=" + e->get<std::string>());
    p.shouldFail = t.value("should_fail", false) || std::find(shouldFail.begin(), shouldFail.end(), p.testName) != shouldFail.end();
    for (const auto& g : targets) {
      const auto files = g.value("filename", nlohmann::json::array());
      if (!files.is_array() || files.empty() || files[0] != p.binary) continue;
      p.buildTarget = fs::path(p.binary).lexically_relative(buildDir).string();
      for (const auto& ts : g.value("target_sources", nlohmann::json::array())) {
        if (!ts.is_object()) continue;
        for (const auto& s : ts.value("sources", nlohmann::json::array()))
          if (s.is_string()) p.sources.push_back(s.get<std::string>());
        for (const auto& a : ts.value("parameters", nlohmann::json::array())) {
          if (!a.is_string()) continue;
          const std::string x = a.get<std::string>();
          if (x.rfind("-I", 0) == 0 && x.size() > 2) p.includeDirs.push_back(x.substr(2));
        }
      }
      p.file = g.value("defined_in", "");
    }
    if (p.buildTarget.empty()) continue;  // a script or an external program: not built here
    // The project's libraries it links (their sources decide its outcome too): from its link
    // edge in build.ninja ("build wrap_test: cpp_LINKER ... libtextwrap.a"), which the
    // introspection does not give.
    const std::string edge = "\nbuild " + p.buildTarget + ": ";
    const auto at = ninja.find(edge);
    if (at != std::string::npos) {
      const auto end = ninja.find('\n', at + edge.size());
      const std::string line = " " + ninja.substr(at + edge.size(), end == std::string::npos ? std::string::npos : end - at - edge.size()) + " ";
      for (const auto& g : targets) {
        const std::string type = g.value("type", "");
        if (type != "static library" && type != "shared library") continue;
        const auto files = g.value("filename", nlohmann::json::array());
        if (!files.is_array() || files.empty() || !files[0].is_string()) continue;
        const std::string lib = fs::path(files[0].get<std::string>()).lexically_relative(buildDir).string();
        if (line.find(" " + lib + " ") == std::string::npos) continue;
        for (const auto& ts : g.value("target_sources", nlohmann::json::array()))
          for (const auto& src : ts.value("sources", nlohmann::json::array()))
            if (src.is_string()) p.linked.push_back(src.get<std::string>());
      }
    }
    p.framework = frameworkOfSources(p.sources);
    for (const auto& s : p.sources)
      if (auto text = readFile(s))
        if (int l = cmake::mainLine(*text)) {
          p.file = s;
          p.line = l;
          break;
        }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace greenlight::core::testing::native
