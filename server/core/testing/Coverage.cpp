#include "core/testing/Coverage.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "support/TextLines.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

int TargetCoverage::percent() const {
  if (lines.empty()) return 100;
  return static_cast<int>(run.size() * 100 / lines.size());
}

namespace {
thread_local bool coverageOff = false;
}  // namespace

CoverageOff::CoverageOff() : was_(coverageOff) { coverageOff = true; }
CoverageOff::~CoverageOff() { coverageOff = was_; }

bool coverageEnabled() {
  if (coverageOff) return false;
  const char* v = std::getenv("GREENLIGHT_COVERAGE");
  if (v == nullptr) return true;
  const std::string_view s = v;
  return !(s == "0" || s == "off" || s == "false" || s == "no");
}

const FileCoverage* findCoverage(const std::vector<FileCoverage>& coverage, const std::string& file) {
  const std::string want = fs::path(file).lexically_normal().string();
  for (const auto& c : coverage) {
    if (c.file == file || fs::path(c.file).lexically_normal().string() == want) return &c;
  }
  return nullptr;
}

std::optional<TargetCoverage> targetCoverage(const std::vector<FileCoverage>& coverage, const std::string& file, int first,
                                             int last) {
  const FileCoverage* fc = findCoverage(coverage, file);
  if (fc == nullptr) return std::nullopt;
  TargetCoverage t;
  t.file = file;
  for (auto it = fc->hits.lower_bound(std::max(first, 1)); it != fc->hits.end(); ++it) {
    if (last > 0 && it->first > last) break;
    t.lines.push_back(it->first);
    t.hits.emplace_back(it->first, it->second);
    (it->second > 0 ? t.run : t.notRun).push_back(it->first);
  }
  return t;
}

void mergeCoverage(std::vector<FileCoverage>& into, const std::vector<FileCoverage>& from) {
  for (const auto& c : from) {
    auto it = std::find_if(into.begin(), into.end(), [&](const FileCoverage& x) { return x.file == c.file; });
    if (it == into.end()) {
      into.push_back(c);
      continue;
    }
    for (const auto& [line, n] : c.hits) it->hits[line] += n;
  }
}

nlohmann::ordered_json targetCoverageToJson(const TargetCoverage& c) {
  nlohmann::ordered_json j;
  j["lines"] = c.lines;
  j["run"] = c.run;
  j["not_run"] = c.notRun;
  return j;
}

namespace {

std::size_t indentOf(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

}  // namespace

std::pair<int, int> functionLines(const std::string& text, int defLine, Language language) {
  const auto lines = support::lineViews(text, false);
  if (defLine < 1 || defLine > static_cast<int>(lines.size())) return {std::max(defLine, 1), 0};
  if (language == Language::Python) {
    // Decorators above belong to it; the body is every later line indented deeper, blank lines
    // and comments inside it included, up to the last code line.
    const std::size_t indent = indentOf(lines[defLine - 1]);
    int last = defLine;
    bool header = true;  // the signature may span lines until its ':' line
    int depth = 0;
    for (int i = defLine; i <= static_cast<int>(lines.size()); ++i) {
      std::string_view l = lines[i - 1];
      const std::size_t ind = indentOf(l);
      const bool blank = ind == l.size() || l[ind] == '#';
      if (header) {
        for (char c : l) {
          if (c == '(' || c == '[' || c == '{') ++depth;
          else if (c == ')' || c == ']' || c == '}') --depth;
        }
        last = i;
        if (depth <= 0 && l.find(':') != std::string_view::npos) header = false;
        continue;
      }
      if (blank) continue;
      if (ind <= indent) break;
      last = i;
    }
    return {defLine, last};
  }
  // C-like: from the first '{' at or after the definition line to the brace that closes it
  // (strings and comments are not told apart: best effort).
  int depth = 0;
  bool opened = false;
  for (int i = defLine; i <= static_cast<int>(lines.size()); ++i) {
    for (char c : lines[i - 1]) {
      if (c == '{') {
        ++depth;
        opened = true;
      } else if (c == '}') {
        --depth;
        if (opened && depth == 0) return {defLine, i};
      }
    }
  }
  return {defLine, 0};
}

std::string linesRunText(const TargetCoverage& c, const std::string& what) {
  return std::to_string(c.run.size()) + "/" + std::to_string(c.lines.size()) + " " + what + " run";
}

}  // namespace greenlight::core::testing
