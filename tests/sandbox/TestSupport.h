// Helpers shared by the sandbox tests: policies for the probe programs, host-side sentinels
// (temp dirs, TCP listeners, process scans) and a plain subprocess runner.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "SpareWait.h"  // waitBuilderProgress
#include "sandbox/Sandbox.h"

namespace gltest {

// A path the build compiled in (GL_PROBE_BIN, ...), or where the environment variable
// `envName` says it is: the unprivileged lanes run from a private copy of what they need,
// which tests/sandbox/run-as-user.sh stages (the build tree may sit under a directory their
// user cannot enter) and names through GL_TEST_* variables.
std::string builtPath(const char* envName, const char* compiledIn);
std::string programsDir();  // GL_TEST_PROGRAMS_DIR or GL_PROGRAMS_DIR: probe.py, probe.js
std::string probeBin();     // GL_TEST_PROBE_BIN or GL_PROBE_BIN: the C probe
std::string probeDir();     // GL_TEST_PROBE_DIR or GL_PROBE_DIR: the directory holding it
bool isRoot();
bool sparesOn();  // GREENLIGHT_TEST_SPARES=1 or warm: the suite runs with sandbox::keepSpares(true)
bool warmOn();    // GREENLIGHT_TEST_SPARES=warm: Python and node probes offer a warm start too

// The warm start the runners offer for `interpreter` (python* or node), with the real boot
// scripts from the source tree: Python also gets `-B`, as the Python runner starts it.
std::shared_ptr<const greenlight::sandbox::Policy::WarmStart> warmStart(const std::string& interpreter);

// Turns spares on or off for one test case and restores the suite's setting afterwards.
struct SparesScope {
  explicit SparesScope(bool on);
  ~SparesScope();
};

// Runs `p` until one run went to a spare (`warm`: to a warm interpreter, with no fall-back to a
// cold start). The builder makes one spare at a time, in the order runs asked for them (a shape
// an earlier test case used may come first), so a run may find none of its shape ready: then it
// ran cold and asked for one, and the next attempt waits for the builder's next result.
// `before` gets the stats just before the attempt that got a spare. Fails the test case after
// 20 attempts.
greenlight::sandbox::Verdict runOnSpare(const greenlight::sandbox::Policy& p, bool warm = false,
                                        greenlight::sandbox::SpareStats* before = nullptr);

// Direct children of this process (all threads: a spare is a child of the builder thread), as
// the kernel lists them.
std::vector<std::string> ownChildren();

// Waits (bounded, scaled) until process `pid` has exited: a zombie, or already reaped.
bool waitDead(const std::string& pid);

// A policy with the probe programs bound read-only and short limits.
greenlight::sandbox::Policy policyFor(std::vector<std::string> argv);
greenlight::sandbox::Policy pyPolicy(std::vector<std::string> args);    // /usr/bin/python3 probe.py ...
greenlight::sandbox::Policy nodePolicy(std::vector<std::string> args);  // node probe.js ...
greenlight::sandbox::Policy cPolicy(std::vector<std::string> args);     // sandbox_probe ...

std::string describe(const greenlight::sandbox::Verdict& v);  // for failure messages

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name, const std::string& contents) const;

 private:
  std::string path_;
};

// Listens on 127.0.0.1 or ::1 (port chosen by the kernel).
class TcpListener {
 public:
  explicit TcpListener(bool ipv6);
  ~TcpListener();
  int port() const { return port_; }
  bool ok() const { return fd_ >= 0; }
  // True when somebody connected (non-blocking check).
  bool gotConnection() const;

 private:
  int fd_ = -1;
  int port_ = 0;
};

// True when a process whose command line contains `token` is alive on the host.
bool processWithTokenAlive(const std::string& token);
std::string uniqueToken(const char* prefix);

struct ProcessResult {
  int exitCode = -1;  // 128+sig when signaled
  std::string out, err;
};
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdinData = "");

bool fileExists(const std::string& path);
std::string readFile(const std::string& path);

}  // namespace gltest
