#pragma once
// What every runner benchmark needs: the median of its samples, a file read and rewritten between
// runs (an edit as the user makes one), and the workspace's configuration as the server resolves it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/config/Config.h"

namespace benchsupport {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

inline std::string readFile(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void writeFile(const std::string& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// `original` with "(void)N;" after the first '{' of the line holding `anchor`: a C++ edit that
// changes the object code (a rebuild) and nothing the tests see. Exits when `anchor` is missing.
inline std::string editedCxx(const std::string& original, const char* anchor, const char* file, const char* tool, int n) {
  auto at = original.find(anchor);
  if (at == std::string::npos) {
    std::fprintf(stderr, "%s: '%s' not found in %s\n", tool, anchor, file);
    std::exit(2);
  }
  auto brace = original.find('{', at);
  return original.substr(0, brace + 1) + " (void)" + std::to_string(n) + ";" + original.substr(brace + 1);
}

// The configuration of the workspace at `root` (its greenlight.json over the environment), as
// the server resolves it; nothing, with the reason printed under `tool`'s name, when it is bad.
inline std::optional<greenlight::core::Config> workspaceConfig(const std::string& root, const char* tool) {
  greenlight::core::ConfigLayers layers;
  layers.setEnvironment(greenlight::core::relevantEnvironment());
  std::string error;
  if (!layers.loadWorkspaceFile(root, &error)) {
    std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
    return std::nullopt;
  }
  auto config = layers.resolve(&error);
  if (!config) std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
  return config;
}

}  // namespace benchsupport
