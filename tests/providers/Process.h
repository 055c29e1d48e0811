// Runs a child process for the tests with a given environment and working directory, capturing
// stdout and stderr; can signal it while it runs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace greenlight::test {

struct ProcessResult {
  int exitCode = -1;  // 128+signal when signaled
  std::string out, err;
  std::chrono::milliseconds afterTrigger{0};  // from onOutput returning true to the exit
};

// `onOutput(out, err)` is called whenever output arrives; when it returns true, `signal` is
// sent to the child (once). A child still running after `timeout` is killed (exit 137).
ProcessResult runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         const std::string& cwd, std::chrono::milliseconds timeout,
                         std::function<bool(const std::string&, const std::string&)> onOutput = {},
                         int signal = 0, const std::string& stdinData = "");

// A process running in the background until stop() (SIGTERM, then SIGKILL).
class BackgroundProcess {
 public:
  BackgroundProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                    const std::string& logFile);
  ~BackgroundProcess() { stop(); }
  void stop();
  bool running();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

// A free TCP port on 127.0.0.1 (bound, then released).
int freePort();
// True once 127.0.0.1:port accepts a connection (tries until `timeout`).
bool waitForPort(int port, std::chrono::milliseconds timeout);
std::string findOnPath(const std::string& name);

}  // namespace greenlight::test
