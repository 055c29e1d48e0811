#include "lsp/features/RunTestsSourceFor.h"

#include <filesystem>

namespace greenlight::lsp {
namespace {

namespace fs = std::filesystem;

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool startsWith(const std::string& s, const std::string& prefix) {
  return s.size() > prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::vector<std::string> sourceCandidatesFor(const std::string& testFile) {
  const fs::path path(testFile);
  const std::string name = path.filename().string();
  const std::string ext = path.extension().string();
  const std::string stem = path.stem().string();
  std::vector<std::string> names;  // candidate file names
  if (ext == ".py") {
    if (startsWith(stem, "test_")) names.push_back(stem.substr(5) + ".py");
    if (endsWith(stem, "_test")) names.push_back(stem.substr(0, stem.size() - 5) + ".py");
  } else if (ext == ".js" || ext == ".mjs" || ext == ".cjs" || ext == ".jsx" || ext == ".ts" || ext == ".mts" ||
             ext == ".cts" || ext == ".tsx") {
    for (const char* marker : {".test", ".spec"}) {
      if (!endsWith(stem, marker)) continue;
      std::string base = stem.substr(0, stem.size() - std::string(marker).size());
      names.push_back(base + ext);
      for (const char* other : {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}) {
        if (ext != other) names.push_back(base + other);
      }
    }
  } else if (ext == ".cpp" || ext == ".cc" || ext == ".cxx") {
    std::string base;
    if (endsWith(stem, "_test")) base = stem.substr(0, stem.size() - 5);
    else if (startsWith(stem, "test_")) base = stem.substr(5);
    if (!base.empty()) {
      for (const char* e : {".cpp", ".cc", ".cxx", ".hpp", ".h"}) names.push_back(base + e);
    }
  }
  std::vector<std::string> out;
  if (names.empty()) return out;
  const fs::path dir = path.parent_path();
  std::vector<fs::path> dirs{dir};
  const std::string dirName = dir.filename().string();
  if (dirName == "tests" || dirName == "test" || dirName == "__tests__") dirs.push_back(dir.parent_path());
  for (const auto& d : dirs) {
    for (const auto& n : names) {
      std::string candidate = (d / n).lexically_normal().string();
      if (candidate != path.lexically_normal().string()) out.push_back(candidate);
    }
  }
  return out;
}

std::optional<std::string> sourceFor(const std::string& testFile, const std::function<bool(const std::string&)>& exists) {
  for (const auto& c : sourceCandidatesFor(testFile)) {
    if (exists(c)) return c;
  }
  return std::nullopt;
}

}  // namespace greenlight::lsp
