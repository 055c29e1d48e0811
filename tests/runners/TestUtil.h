// Helpers for the runner tests: a temporary workspace with files.
#pragma once

#include <string>

namespace greenlight::test {

class TempWorkspace {
 public:
  TempWorkspace();  // creates /tmp/gl-runners-XXXXXX with a .greenlight.json (the root)
  ~TempWorkspace();
  TempWorkspace(const TempWorkspace&) = delete;
  TempWorkspace& operator=(const TempWorkspace&) = delete;
  // Writes `text` to root/rel (creating directories); returns the absolute path.
  std::string write(const std::string& rel, const std::string& text) const;
  std::string path(const std::string& rel) const { return root_ + "/" + rel; }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

// Runs a command, returns its exit code and stdout.
struct CommandOutput {
  int exitCode = -1;
  std::string out, err;
};
CommandOutput runShell(const std::string& command);

}  // namespace greenlight::test
