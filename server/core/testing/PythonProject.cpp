#include "core/testing/PythonProject.h"
#include "core/testing/Discovery.h"

#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "sandbox/Sandbox.h"
#include "support/Regex.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  std::size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

// The lines of `section` in an INI (or TOML) text, "" when the section is absent (nullopt).
std::optional<std::vector<std::string>> sectionLines(const std::string& text, const std::string& section) {
  std::istringstream in(text);
  std::vector<std::string> out;
  bool inside = false, found = false;
  for (std::string line; std::getline(in, line);) {
    std::string t = trim(line);
    if (!t.empty() && t.front() == '[' && t.back() == ']' && t.find('=') == std::string::npos) {
      inside = t == "[" + section + "]";
      found = found || inside;
      continue;
    }
    if (inside) out.push_back(line);
  }
  if (!found) return std::nullopt;
  return out;
}

// The values of `key` in an INI/TOML section: a string split on whitespace (INI, with indented
// continuation lines) or a TOML string / array of strings.
std::vector<std::string> values(const std::vector<std::string>& lines, const std::string& key) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string t = trim(lines[i]);
    if (t.rfind(key, 0) != 0) continue;
    std::string rest = trim(t.substr(key.size()));
    if (rest.empty() || (rest[0] != '=' && rest[0] != ':')) continue;
    rest = trim(rest.substr(1));
    std::string raw = rest;
    if (!rest.empty() && rest[0] == '[') {
      // TOML array, maybe over several lines.
      while (raw.find(']') == std::string::npos && i + 1 < lines.size()) raw += " " + trim(lines[++i]);
      static const std::regex str = support::regex(R"re("([^"]*)"|'([^']*)')re");
      for (auto it = std::sregex_iterator(raw.begin(), raw.end(), str); it != std::sregex_iterator(); ++it) {
        std::string v = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
        std::istringstream words(v);
        for (std::string w; words >> w;) out.push_back(w);
      }
      return out;
    }
    if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
      char q = rest[0];
      raw = rest.substr(1, rest.find(q, 1) == std::string::npos ? std::string::npos : rest.find(q, 1) - 1);
    } else {
      // INI: continuation lines are indented.
      while (i + 1 < lines.size() && !lines[i + 1].empty() && std::isspace(static_cast<unsigned char>(lines[i + 1][0])) &&
             trim(lines[i + 1]).find('=') == std::string::npos)
        raw += " " + trim(lines[++i]);
    }
    std::istringstream words(raw);
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  }
  return out;
}

bool inside(const fs::path& p, const fs::path& root) {
  auto rel = p.lexically_relative(root);
  return !rel.empty() && rel.native().rfind("..", 0) != 0;
}

}  // namespace

bool matchesPythonFiles(const std::string& fileName, const std::vector<std::string>& globs) {
  for (const auto& g : globs) {
    if (::fnmatch(g.c_str(), fileName.c_str(), 0) == 0) return true;
  }
  return false;
}

PythonProject pythonProject(const std::string& file, const std::string& workspaceRoot) {
  PythonProject p;
  std::error_code ec;
  const fs::path root = fs::path(workspaceRoot).lexically_normal();
  const fs::path start = fs::path(file).parent_path();
  // The configuration: nearest first, up to the workspace root (and the root's own).
  for (fs::path dir = start;; dir = dir.parent_path()) {
    struct Candidate {
      const char* name;
      const char* section;
    };
    for (Candidate c : {Candidate{"pytest.ini", "pytest"}, Candidate{".pytest.ini", "pytest"},
                        Candidate{"pyproject.toml", "tool.pytest.ini_options"}, Candidate{"tox.ini", "pytest"},
                        Candidate{"setup.cfg", "tool:pytest"}}) {
      fs::path f = dir / c.name;
      if (!fs::is_regular_file(f, ec)) continue;
      auto text = readFile(f);
      if (!text) continue;
      auto lines = sectionLines(*text, c.section);
      // pytest.ini is pytest's even without the section.
      if (!lines && std::string(c.name).find("pytest.ini") == std::string::npos) continue;
      p.rootDir = dir.string();
      p.configFile = f.string();
      p.pytestConfigured = true;
      std::vector<std::string> empty;
      const auto& body = lines ? *lines : empty;
      for (const auto& t : values(body, "testpaths")) p.testPaths.push_back((dir / t).lexically_normal().string());
      for (const auto& t : values(body, "pythonpath")) p.pythonPath.push_back((dir / t).lexically_normal().string());
      auto pf = values(body, "python_files");
      if (!pf.empty()) p.pythonFiles = pf;
      auto addopts = values(body, "addopts");
      p.doctestModules = std::find(addopts.begin(), addopts.end(), "--doctest-modules") != addopts.end();
      break;
    }
    if (p.pytestConfigured) break;
    if (dir == root || !inside(dir, root) || dir == dir.parent_path()) break;
  }
  if (p.rootDir.empty()) p.rootDir = root.string();
  // conftest.py from the rootdir down to the file's directory.
  std::vector<std::string> chain;
  for (fs::path dir = start;; dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / "conftest.py", ec)) chain.push_back((dir / "conftest.py").string());
    if (dir == fs::path(p.rootDir) || !inside(dir, fs::path(p.rootDir)) || dir == dir.parent_path()) break;
  }
  std::reverse(chain.begin(), chain.end());
  p.conftests = chain;
  p.hasConftest = !chain.empty();
  if (!p.hasConftest) {
    // A conftest.py anywhere in the test directories counts too (tests/conftest.py for src/m.py).
    std::vector<std::string> dirs = p.testPaths.empty() ? std::vector<std::string>{p.rootDir + "/tests", p.rootDir + "/test"}
                                                        : p.testPaths;
    for (const auto& d : dirs) {
      if (fs::is_regular_file(fs::path(d) / "conftest.py", ec)) {
        p.hasConftest = true;
        p.conftests.push_back((fs::path(d) / "conftest.py").string());
      }
    }
    if (fs::is_regular_file(fs::path(p.rootDir) / "conftest.py", ec)) {
      p.hasConftest = true;
      p.conftests.insert(p.conftests.begin(), (fs::path(p.rootDir) / "conftest.py").string());
    }
  }
  return p;
}

std::string pythonModuleName(const std::string& path, const std::string& root) {
  std::error_code ec;
  fs::path p = fs::path(path).lexically_normal();
  std::vector<std::string> parts = {p.stem().string()};
  if (parts[0] == "__init__") parts.clear();
  for (fs::path dir = p.parent_path(); fs::is_regular_file(dir / "__init__.py", ec); dir = dir.parent_path()) {
    parts.push_back(dir.filename().string());
    if (dir == dir.parent_path()) break;
  }
  std::reverse(parts.begin(), parts.end());
  std::string out;
  for (const auto& s : parts) out += (out.empty() ? "" : ".") + s;
  (void)root;
  return out;
}

bool importsPytest(const std::string& text) {
  static const std::regex r = support::regex(R"(^\s*(import\s+pytest\b|from\s+pytest\b|from\s+_pytest\b))");
  return support::anyLineMatches(text, r, {"pytest"});
}

bool usesUnittest(const std::string& text) {
  static const std::regex r = support::regex(R"(^\s*(import\s+unittest\b|from\s+unittest\b)|\bdef\s+load_tests\s*\()");
  return support::anyLineMatches(text, r, {"unittest", "load_tests"});
}

bool definesTestFunctions(const std::string& text) {
  // (not `def test_suite():`, unittest's old way of returning the module's suite)
  static const std::regex r = support::regex(R"(^(async\s+)?def\s+test(?!_suite\s*\(\s*\))\w*\s*\()");
  return support::anyLineMatches(text, r, {"def"});
}

std::string sandboxUserCannotRead(const std::string& dir) {
  if (::geteuid() != 0) return "";
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) return "";  // the run names a missing directory in its own words
  const mode_t need = st.st_uid == 65534 ? (S_IRUSR | S_IXUSR) : st.st_gid == 65534 ? (S_IRGRP | S_IXGRP) : (S_IROTH | S_IXOTH);
  if ((st.st_mode & need) == need) return "";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return "greenlight runs as root, so the sandbox runs the project's tests as uid 65534, which cannot read the project "
         "directory " + dir + " (mode " + mode + "); make it readable by others (chmod o+rx, its parents may stay private) "
         "or run greenlight as your user";
}

}  // namespace greenlight::core::testing
