// A directory under /tmp for one test's files, removed with everything in it when the test ends.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace gltest {

class TempTree {
 public:
  explicit TempTree(const std::string& prefix = "gl-test") {
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp " + tmpl + " failed");
    root = tmpl;
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  // Writes `text` to root/rel (its directories made); the file's path.
  std::string write(const std::string& rel, const std::string& text) const {
    std::filesystem::create_directories((root / rel).parent_path());
    std::ofstream(root / rel, std::ios::binary) << text;
    return (root / rel).string();
  }

  std::filesystem::path root;
};

}  // namespace gltest
