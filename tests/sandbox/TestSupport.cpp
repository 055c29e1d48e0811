#include "TestSupport.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <chrono>

#include "ProcFile.h"
#include "TestTime.h"

namespace gltest {

// GREENLIGHT_TEST_SPARES=1 runs the whole suite with spares on (CMakeLists registers it
// twice): every case then also proves that a run handed to a pre-built sandbox is as
// isolated, and reported the same, as a cold one.
// GREENLIGHT_TEST_SPARES=warm: spares on, and every Python and node probe also offers a warm
// start (Policy::WarmStart with the real boot scripts, python_warm.py and node_warm.js): the
// probes then run inside an interpreter started before the run came, which must hold nothing
// a cold run would not (descriptors, environment, writable mappings, privileges).
const bool kWarmOn = [] {
  const char* v = std::getenv("GREENLIGHT_TEST_SPARES");
  return v != nullptr && std::string(v) == "warm";
}();
const bool kSparesOn = [] {
  const char* v = std::getenv("GREENLIGHT_TEST_SPARES");
  bool on = v != nullptr && (std::string(v) == "1" || std::string(v) == "warm");
  if (on) greenlight::sandbox::keepSpares(true);
  return on;
}();
bool sparesOn() { return kSparesOn; }
bool warmOn() { return kWarmOn; }

SparesScope::SparesScope(bool on) { greenlight::sandbox::keepSpares(on); }
SparesScope::~SparesScope() { greenlight::sandbox::keepSpares(sparesOn()); }

greenlight::sandbox::Verdict runOnSpare(const greenlight::sandbox::Policy& p, bool warm,
                                        greenlight::sandbox::SpareStats* before) {
  using greenlight::sandbox::spareStats;
  greenlight::sandbox::Verdict v;
  for (int attempt = 0; attempt < 20; ++attempt) {
    greenlight::sandbox::SpareStats stats = spareStats();
    v = greenlight::sandbox::run(p);
    const greenlight::sandbox::SpareStats now = spareStats();
    const bool got = warm ? now.warmUsed == stats.warmUsed + 1 && now.warmFellBack == stats.warmFellBack
                          : now.used == stats.used + 1;
    if (got) {
      if (before) *before = stats;
      return v;
    }
    waitBuilderProgress(stats);
  }
  FAIL("no run of this shape got a " << (warm ? "warm " : "") << "spare in 20 attempts");
  return v;
}

std::vector<std::string> ownChildren() {
  std::vector<std::string> kids;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "children");
    for (std::string pid; in >> pid;) kids.push_back(pid);
  }
  return kids;
}

bool waitDead(const std::string& pid) {
  auto until = std::chrono::steady_clock::now() + gltest::scaled(std::chrono::seconds(30));
  for (;;) {
    std::string stat = gltest::readProcFile("/proc/" + pid + "/stat");
    auto close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] == 'Z' || stat[close + 2] == 'X')
      return true;
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

namespace {

// A harness script from the source tree, as it is: its raw-string wrapper lines are valid
// Python and JavaScript (comments or plain string statements).
std::string harnessText(const std::string& name) {
  std::ifstream in(builtPath("GL_TEST_HARNESS_DIR", GL_HARNESS_DIR) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::shared_ptr<const greenlight::sandbox::Policy::WarmStart> warmStart(const std::string& interpreter) {
  auto warm = std::make_shared<greenlight::sandbox::Policy::WarmStart>();
  if (interpreter.find("python") != std::string::npos) {
    warm->argv = {interpreter, "-B", "/work/.gl/python_warm.py"};
    warm->files = {{".gl/python_harness.py", harnessText("python_harness.py")},
                   {".gl/python_warm.py", harnessText("python_warm.py")}};
  } else {
    warm->argv = {interpreter, "/work/.gl/node_warm.js"};
    warm->files = {{".gl/node_warm.js", harnessText("node_warm.js")}};
  }
  return warm;
}

using greenlight::sandbox::Bind;
using greenlight::sandbox::Policy;
using greenlight::sandbox::Verdict;

std::string builtPath(const char* envName, const char* compiledIn) {
  const char* value = std::getenv(envName);
  std::string staged = value != nullptr ? value : "";
  // A staged run must take every path from its stage: a path it missed would silently come
  // from the build tree, which is exactly what the unprivileged user may not reach.
  if (const char* stage = std::getenv("GL_TEST_STAGE"); stage != nullptr && *stage != '\0') {
    if (staged.rfind(std::string(stage) + "/", 0) != 0) {
      std::fprintf(stderr, "run from the stage %s, but %s=%s is not inside it (tests/sandbox/CMakeLists.txt stages it?)\n",
                   stage, envName, staged.c_str());
      std::abort();
    }
    return staged;
  }
  return staged.empty() ? compiledIn : staged;
}

std::string programsDir() { return builtPath("GL_TEST_PROGRAMS_DIR", GL_PROGRAMS_DIR); }
std::string probeBin() { return builtPath("GL_TEST_PROBE_BIN", GL_PROBE_BIN); }
std::string probeDir() { return builtPath("GL_TEST_PROBE_DIR", GL_PROBE_DIR); }
bool isRoot() { return ::geteuid() == 0; }

Policy policyFor(std::vector<std::string> argv) {
  Policy p;
  p.argv = std::move(argv);
  p.timeLimitSec = 20;
  p.cpuLimitSec = 20;
  p.binds.push_back(Bind{programsDir(), "", false});
  p.binds.push_back(Bind{probeDir(), "", false});
  return p;
}

Policy pyPolicy(std::vector<std::string> args) {
  args.insert(args.begin(), {"/usr/bin/python3", programsDir() + "/probe.py"});
  Policy p = policyFor(std::move(args));
  if (warmOn()) p.warm = warmStart("/usr/bin/python3");
  return p;
}

Policy nodePolicy(std::vector<std::string> args) {
  args.insert(args.begin(), {"/usr/bin/node", programsDir() + "/probe.js"});
  Policy p = policyFor(std::move(args));
  if (warmOn()) p.warm = warmStart("/usr/bin/node");
  return p;
}

Policy cPolicy(std::vector<std::string> args) {
  args.insert(args.begin(), probeBin());
  return policyFor(std::move(args));
}

std::string describe(const Verdict& v) {
  std::ostringstream s;
  s << "status=" << greenlight::sandbox::statusName(v.status) << " exit=" << v.exitCode << " signal=" << v.signal
    << " syscall=" << v.syscall << " setup_error=" << v.setupError << " wall_ms=" << v.wallMs
    << " degraded=" << v.isolation.degraded << "\n--- stdout:\n"
    << v.stdoutData.substr(0, 2000) << "\n--- stderr:\n"
    << v.stderrData.substr(0, 2000);
  return s.str();
}

TempDir::TempDir() {
  char tmpl[] = "/tmp/gl-sandbox-test-XXXXXX";
  if (::mkdtemp(tmpl) != nullptr) path_ = tmpl;
  ::chmod(path_.c_str(), 0755);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::file(const std::string& name, const std::string& contents) const {
  std::string p = path_ + "/" + name;
  std::filesystem::create_directories(std::filesystem::path(p).parent_path());
  std::ofstream(p) << contents;
  return p;
}

TcpListener::TcpListener(bool ipv6) {
  fd_ = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;
  int one = 1;
  ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (ipv6) {
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    socklen_t len = sizeof a;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    port_ = ntohs(a.sin6_port);
  } else {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    port_ = ntohs(a.sin_port);
  }
}

TcpListener::~TcpListener() {
  if (fd_ >= 0) ::close(fd_);
}

bool TcpListener::gotConnection() const {
  pollfd p{fd_, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0;
}

bool processWithTokenAlive(const std::string& token) {
  DIR* d = ::opendir("/proc");
  if (d == nullptr) return false;
  bool found = false;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::string cmd = readProcFile(std::string("/proc/") + e->d_name + "/cmdline");
    if (cmd.find(token) != std::string::npos) {
      found = true;
      break;
    }
  }
  ::closedir(d);
  return found;
}

std::string uniqueToken(const char* prefix) {
  static std::atomic<int> counter{0};
  return std::string(prefix) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdinData) {
  ProcessResult r;
  int out[2], err[2], in[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0 || ::pipe2(in, O_CLOEXEC) != 0) return r;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  ::close(in[0]);
  if (!stdinData.empty()) {
    ssize_t ignored = ::write(in[1], stdinData.data(), stdinData.size());
    (void)ignored;
  }
  ::close(in[1]);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  int open = 2;
  char buf[65536];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      } else {
        (i == 0 ? r.out : r.err).append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

bool fileExists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace gltest
