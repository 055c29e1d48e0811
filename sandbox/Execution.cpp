// Spawning and supervising one sandbox.
//
// Threading model: an Execution is driven by one thread at a time (the caller's loop or
// run()). start() never blocks: it builds the plan, clones, and returns. Everything after is
// step(): non-blocking reads of the output pipes (per-stream caps; excess discarded and
// flagged, and the run is stopped with output_limit), of the status socket (child setup
// errors, the seccomp listener fd, the payload's exit report), of seccomp notifications (the
// refused call is named, then the tree is killed), the wall-clock deadline (the whole tree is
// killed through the pid namespace's init), and reaping through the pidfd (wait4-style rusage
// from waitid). The first cause recorded wins: one verdict per cause.
//
// A run normally ends on init's Exited report, sent once init has killed and reaped every
// other task of its pid namespace, with the pipes at EOF: the verdict does not wait for the
// kernel's teardown of the namespaces, and init's pidfd goes to Reaper.h. Only a tree we
// killed (deadline, cap, violation, cancellation) is reaped here, through the pidfd.
//
// Spares (Spares.h) are SandboxExecutions launched held by the builder thread; the thread that
// takes one calls go() and from then on drives it like any other.
//
// The clone() child runs Steps.h's steps only; see Plan.h for why it must not allocate.
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sandbox/NewFiles.h"
#include "sandbox/PlanBuilder.h"
#include "sandbox/Probe.h"
#include "sandbox/Reaper.h"
#include "sandbox/SpareRequest.h"
#include "sandbox/Spares.h"
#include "sandbox/Sandbox.h"
#include "sandbox/SeccompProfiles.h"
#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox {
namespace {

using Clock = std::chrono::steady_clock;
using detail::ChildMessage;
using detail::MessageKind;
using detail::Mode;

constexpr std::size_t kTailKeep = 8192;  // stderr tail kept for classification when streaming

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void setNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// The stdin pipe, with room for the whole input up front where the system allows, so a child
// that reads its input before writing anything never waits for a step() that is not coming.
bool openStdinPipe(std::size_t inputSize, int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  ::fcntl(fds[1], F_SETPIPE_SZ, static_cast<int>(std::min<std::size_t>(inputSize, 1 << 20)));
  return true;
}

bool contains(const std::string& hay, const char* needle) { return hay.find(needle) != std::string::npos; }

// The sandbox's processes below its init, found by walking /proc/<pid>/task/<tid>/children
// from the host. Those files need no ptrace access, which an unprivileged supervisor lacks on
// the (non-dumpable) init. `tasks` counts threads too, as RLIMIT_NPROC does; init itself is
// neither a process nor a task of the payload's.
struct SandboxTree {
  std::vector<std::string> processes;
  int tasks = 0;
  std::vector<std::string> taskDirs;  // "/proc/P/task/T", when asked for
};

SandboxTree scanSandbox(pid_t initPid, bool withTaskDirs = false) {
  std::vector<std::string> queue{std::to_string(initPid)};
  SandboxTree tree;
  for (std::size_t i = 0; i < queue.size() && queue.size() < 100000; ++i) {
    std::string taskDir = "/proc/" + queue[i] + "/task";
    DIR* d = ::opendir(taskDir.c_str());
    if (d == nullptr) continue;
    if (i > 0) tree.processes.push_back(queue[i]);
    while (dirent* e = ::readdir(d)) {
      if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
      if (i > 0) ++tree.tasks;
      if (i > 0 && withTaskDirs) tree.taskDirs.push_back(taskDir + "/" + e->d_name);
      std::string children = taskDir + "/" + e->d_name + "/children";
      int fd = ::open(children.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      std::string text;
      char buf[4096];
      for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
      ::close(fd);
      std::size_t pos = 0;
      while (pos < text.size()) {
        std::size_t end = text.find(' ', pos);
        if (end == std::string::npos) end = text.size();
        if (end > pos) queue.push_back(text.substr(pos, end - pos));
        pos = end + 1;
      }
    }
    ::closedir(d);
  }
  return tree;
}

int countSandboxTasks(pid_t initPid) { return scanSandbox(initPid).tasks; }

// A small /proc file's first line; "" when it cannot be read (the task is gone).
std::string readProcLine(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[256];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return {};
  return std::string(buf, static_cast<std::size_t>(n));
}

// Private resident memory of one process in KiB: statm's resident minus its shared (file and
// shmem) pages, so the libraries every process maps are not counted once per process. 0 when
// the process is gone. statm, like `children`, needs no ptrace access.
long privateResidentKb(const std::string& pid) {
  std::string line = readProcLine("/proc/" + pid + "/statm");
  unsigned long size = 0, resident = 0, shared = 0;
  if (std::sscanf(line.c_str(), "%lu %lu %lu", &size, &resident, &shared) != 3 || resident < shared) return 0;
  static const long pageKb = ::sysconf(_SC_PAGESIZE) / 1024;
  return static_cast<long>(resident - shared) * pageKb;
}

// Whether the process has exec'd since its fork: the kernel keeps PF_FORKNOEXEC in
// /proc/<pid>/stat's flags (field 9, readable without ptrace access) until the first execve.
// false when the process is gone.
bool hasExeced(const std::string& pid) {
  std::string stat = readProcLine("/proc/" + pid + "/stat");
  std::size_t close = stat.rfind(')');
  unsigned flags = 0;
  if (close == std::string::npos || std::sscanf(stat.c_str() + close + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) != 1) return false;
  constexpr unsigned kForkNoExec = 0x40;  // PF_FORKNOEXEC, include/linux/sched.h
  return (flags & kForkNoExec) == 0;
}

class SandboxExecution final : public Execution {
 public:
  explicit SandboxExecution(const Policy& policy) : policy_(policy) {}
  ~SandboxExecution() override {
    endRun();
    if (held_ && pidfd_ >= 0) {
      // An unused spare: nothing ran in it, so nothing needs waiting for.
      ::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
      detail::reapLater(pidfd_);
      pidfd_ = -1;
    }
    if (pidfd_ >= 0 && !reaped_) {
      ::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
      if (plan_ && plan_->mode == Mode::NoNamespaces && pid_ > 0) ::kill(-pid_, SIGKILL);
      siginfo_t info;
      ::waitid(P_PIDFD, static_cast<id_t>(pidfd_), &info, WEXITED);
    }
    closeAll();
    detail::removeTree(hostScratch_);
  }

  // Counted among the runs in progress (Spares.h) until its verdict.
  void beginRun() {
    if (counted_ || finished_) return;
    counted_ = true;
    detail::runBegins();
  }
  void endRun() {
    if (!counted_) return;
    counted_ = false;
    detail::runEnds();
  }

  // A spare (Spares.h): launched like any run, but its init blocks before the payload until
  // go() sends the real run's request.
  void launchHeld(Mode mode, bool tryUserNs) {
    held_ = true;
    launch(mode, tryUserNs);
  }

  // Hands a held spare the run of `policy` (same spareKey()). False when the spare is no good
  // (its set-up failed or it died); the caller then destroys it and starts cold.
  bool go(const Policy& policy, int requestFd) {
    if (!held_ || finished_ || pidfd_ < 0) return false;
    readStatus();
    if (finished_ || spareBroken_ || !setupError_.empty() || !seccompError_.empty()) return false;
    pollfd exited{pidfd_, POLLIN, 0};
    if (::poll(&exited, 1, 0) != 0) return false;
    if (plan_->warm) {
      // The interpreter's start-up printed something (a warning, a failed import): that output
      // is not the run's, so the run goes cold rather than show it.
      if (policy.inheritStdin || !policy.stdinData.empty()) return false;
      pollfd out[2] = {{stdout_, POLLIN, 0}, {stderr_, POLLIN, 0}};
      if (::poll(out, 2, 0) != 0) return false;
    }
    int stdinPipe[2] = {-1, -1};
    int stdinFd = -1;
    if (policy.inheritStdin) {
      stdinFd = 0;
    } else if (!policy.stdinData.empty()) {
      if (!openStdinPipe(policy.stdinData.size(), stdinPipe)) return false;
      stdinFd = stdinPipe[0];
    }
    detail::GoMessage goMessage{detail::kGoMagic, stdinFd >= 0 ? 1u : 0u};
    const int fds[2] = {requestFd, stdinFd};
    long sent = detail::sendWithFds(status_, &goMessage, sizeof goMessage, fds, stdinFd >= 0 ? 2 : 1);
    // The socket is non-blocking; a spare's socket holds nothing else we sent, so a full
    // buffer cannot happen: any failure means the spare is gone.
    if (stdinPipe[0] >= 0) ::close(stdinPipe[0]);
    if (sent != static_cast<ssize_t>(sizeof goMessage)) {
      if (stdinPipe[1] >= 0) ::close(stdinPipe[1]);
      return false;
    }
    held_ = false;
    warmGo_ = plan_->warm;
    policy_ = policy;
    start_ = Clock::now();
    nextMemoryCheck_ = start_ + kMemoryEvery;
    deadline_ = start_ + std::chrono::microseconds(static_cast<long long>(policy_.timeLimitSec * 1e6));
    if (stdinPipe[1] >= 0) {
      stdinWrite_ = stdinPipe[1];
      setNonBlocking(stdinWrite_);
      feedStdin();
    }
    return true;
  }

  void launch(Mode mode, bool tryUserNs) {
    mode_ = mode;
    plan_ = std::make_unique<detail::LaunchPlan>();
    if (held_ && mode == Mode::NoNamespaces) {
      plan_->mode = mode;
      return failSetup("spare: a sandbox without namespaces has no init to hold");
    }
    if (mode == Mode::NoNamespaces && detail::landlockAbi() == 0 && !policy_.allowUnsandboxed) {
      plan_->mode = mode;
      return failSetup(
          "isolation: no usable user namespaces and no Landlock on this host; refusing to run unsandboxed "
          "(set sandbox.allowUnsandboxed to run with seccomp and rlimits only)");
    }
    detail::PlanOutcome outcome = detail::buildPlan(policy_, mode, tryUserNs, *plan_);
    hostScratch_ = outcome.hostScratch;
    if (!outcome.ok) return failSetup(outcome.error);
    plan_->held = held_;
    plan_->warm = held_ && policy_.warm != nullptr;

    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, inPipe[2] = {-1, -1}, status[2] = {-1, -1};
    if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0 ||
        ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, status) != 0) {
      int e = errno;
      for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], status[0], status[1]})
        if (fd >= 0) ::close(fd);
      return failSetup(std::string("spawn: pipe: ") + std::strerror(e));
    }
    int childIn = -1;
    if (!policy_.inheritStdin) {
      if (policy_.stdinData.empty()) {
        childIn = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      } else if (openStdinPipe(policy_.stdinData.size(), inPipe)) {
        childIn = inPipe[0];
      }
      if (childIn < 0) {
        int e = errno;
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], status[0], status[1]}) ::close(fd);
        return failSetup(std::string("spawn: stdin: ") + std::strerror(e));
      }
    }
    int bpfPipe[2] = {-1, -1};
    if (plan_->seccomp == nullptr && ::pipe2(bpfPipe, O_CLOEXEC) != 0) {
      int e = errno;
      for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], status[0], status[1], childIn, inPipe[1]})
        if (fd >= 0) ::close(fd);
      return failSetup(std::string("spawn: pipe: ") + std::strerror(e));
    }
    plan_->seccompPipe = bpfPipe[0];
    plan_->stdinFd = childIn;
    plan_->stdoutFd = outPipe[1];
    plan_->stderrFd = errPipe[1];
    plan_->statusFd = status[1];

    start_ = Clock::now();
    nextMemoryCheck_ = start_ + kMemoryEvery;
    deadline_ = start_ + std::chrono::microseconds(static_cast<long long>(policy_.timeLimitSec * 1e6));
    int pidfd = -1;
    long pid = ::syscall(SYS_clone, plan_->cloneFlags | CLONE_PIDFD | SIGCHLD, nullptr, &pidfd, nullptr, nullptr);
    if (pid == 0) detail::childMain(*plan_);
    int cloneErr = errno;
    // Parent: the child's ends go.
    for (int fd : {outPipe[1], errPipe[1], status[1], childIn, bpfPipe[0]}) if (fd >= 0) ::close(fd);
    if (pid > 0 && bpfPipe[1] >= 0) {
      // First use of this profile in the process: compile now, while the child builds its
      // mounts, and hand it the program (a few KB: fits the pipe, never blocks).
      std::string error;
      const sock_fprog* prog = detail::seccompProgram(plan_->profile, policy_.network, &error);
      std::uint32_t length = prog != nullptr ? prog->len : 0;
      std::string bytes(reinterpret_cast<const char*>(&length), sizeof length);
      if (prog != nullptr) bytes.append(reinterpret_cast<const char*>(prog->filter), prog->len * sizeof(sock_filter));
      if (::write(bpfPipe[1], bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()) || prog == nullptr)
        seccompError_ = "seccomp: compile: " + (error.empty() ? std::string("could not hand the filter over") : error);
      closeFd(bpfPipe[1]);
    }
    if (pid < 0) {
      for (int fd : {outPipe[0], errPipe[0], status[0], inPipe[1], bpfPipe[1]}) if (fd >= 0) ::close(fd);
      if (mode == Mode::UserNs && (cloneErr == EPERM || cloneErr == ENOSPC || cloneErr == EINVAL || cloneErr == EUSERS)) {
        detail::markUserNsUnusable();
        detail::removeTree(hostScratch_);
        hostScratch_.clear();
        return launch(Mode::NoNamespaces, false);
      }
      return failSetup(std::string("user_ns: clone: ") + std::strerror(cloneErr));
    }
    pid_ = static_cast<pid_t>(pid);
    pidfd_ = pidfd;
    stdout_ = outPipe[0];
    stderr_ = errPipe[0];
    status_ = status[0];
    stdinWrite_ = inPipe[1];
    for (int fd : {stdout_, stderr_, status_}) setNonBlocking(fd);
    if (stdinWrite_ >= 0) {
      setNonBlocking(stdinWrite_);
      feedStdin();
    }
    verdict_.isolation = expectedIsolation();
    if (plan_->warm) sendWarmFiles();
  }

  std::vector<int> watchFds() const override {
    std::vector<int> fds;
    if (finished_) return fds;
    for (int fd : {stdout_, stderr_, status_, listener_, pidfd_})
      if (fd >= 0) fds.push_back(fd);
    return fds;
  }

  int msUntilDeadline() const override {
    if (finished_) return 0;
    auto next = held_ ? deadline_ : std::min(deadline_, nextMemoryCheck_);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
    if (left <= 0) return 0;
    return static_cast<int>(std::min<long long>(left + 1, 1 << 30));
  }

  bool step() override {
    if (finished_) return true;
    drainOutput(stdout_, 1);
    drainOutput(stderr_, 2);
    readStatus();
    if (finished_) return true;  // relaunched or failed in readStatus
    handleNotifications();
    if (stdinWrite_ >= 0) feedStdin();
    if (!reaped_ && Clock::now() >= deadline_) killTree(Status::Timeout);
    if (!held_ && !reaped_ && !gotExit_ && !cause_ && Clock::now() >= nextMemoryCheck_) checkMemory();
    if (!reaped_ && gotExit_ && !cause_) {
      // init has reported: every untrusted task is dead and reaped, so the pipes are at EOF
      // (or about to be). The verdict need not wait for the namespaces' teardown.
      drainOutput(stdout_, 1);
      drainOutput(stderr_, 2);
      if (stdout_ < 0 && stderr_ < 0 && !cause_) {
        endTime_ = Clock::now();
        finalize();
        return true;
      }
    }
    if (!reaped_) tryReap();
    if (reaped_) {
      // Every writer is gone (the pid namespace died with its init): drain to EOF.
      drainOutput(stdout_, 1);
      drainOutput(stderr_, 2);
      readStatus();
      if (!finished_) finalize();
    }
    return finished_;
  }

  bool finished() const override { return finished_; }

  void kill() override {
    if (finished_ || reaped_) return;
    verdict_.cancelled = true;
    killTree(Status::Timeout);
  }

  const Verdict& verdict() const override { return verdict_; }

  int initPid() const { return finished_ ? -1 : pid_; }

 private:
  Isolation expectedIsolation() const {
    Isolation iso;
    bool ns = mode_ != Mode::NoNamespaces;
    iso.userNs = mode_ == Mode::UserNs || (mode_ == Mode::RootThenUserNs && plan_->tryUserNs);
    iso.pidNs = iso.mountNs = iso.ipcNs = iso.utsNs = ns;
    iso.netNs = ns && plan_->netNs;
    iso.cgroup = false;
    iso.landlockAbi = plan_->landlockAbi;
    iso.seccomp = true;  // always loaded (a child that cannot load it fails its setup)
    return iso;
  }

  void finishIsolation() {
    Isolation& iso = verdict_.isolation;
    iso.missing.clear();
    if (!iso.userNs) iso.missing.push_back("user_ns");
    if (!iso.pidNs) {
      for (const char* n : {"pid_ns", "mount_ns", "ipc_ns", "uts_ns"}) iso.missing.push_back(n);
    }
    if (!iso.netNs && !policy_.network) iso.missing.push_back("net_ns");
    if (iso.landlockAbi == 0) iso.missing.push_back("landlock");
    if (!iso.seccomp) iso.missing.push_back("seccomp");
    iso.degraded = !iso.missing.empty();
  }

  void failSetup(std::string message) {
    verdict_.status = Status::SetupError;
    verdict_.setupError = std::move(message);
    if (plan_) verdict_.isolation = expectedIsolation();
    finishIsolation();
    finished_ = true;
  }

  void closeAll() {
    for (int* fd : {&stdout_, &stderr_, &status_, &listener_, &pidfd_, &stdinWrite_}) closeFd(*fd);
  }

  void feedStdin() {
    const std::string& data = policy_.stdinData;
    while (stdinOffset_ < data.size()) {
      ssize_t n = writeNoSigpipe(stdinWrite_, data.data() + stdinOffset_, data.size() - stdinOffset_);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN) return;
        break;  // EPIPE: the child does not want it
      }
      stdinOffset_ += static_cast<std::size_t>(n);
    }
    closeFd(stdinWrite_);
  }

  // write(2) to a pipe whose reader may be gone (a payload that exits without reading, a
  // spare that died): EPIPE must not become a SIGPIPE that kills the caller's process, which
  // a library cannot assume ignores it. SIGPIPE is blocked for this thread around the write
  // and a pending one it raised is consumed.
  static ssize_t writeNoSigpipe(int fd, const char* data, std::size_t size) {
    sigset_t pipeSet, old;
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    sigset_t pendingBefore;
    sigpending(&pendingBefore);
    pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
    ssize_t n = ::write(fd, data, size);
    int err = errno;
    if (n < 0 && err == EPIPE && !sigismember(&pendingBefore, SIGPIPE)) {
      timespec zero{0, 0};
      while (sigtimedwait(&pipeSet, nullptr, &zero) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = err;
    return n;
  }

  void drainOutput(int& fd, int stream) {
    if (fd < 0) return;
    char buf[65536];
    std::string& sink = stream == 1 ? verdict_.stdoutData : verdict_.stderrData;
    std::size_t& total = stream == 1 ? stdoutBytes_ : stderrBytes_;
    bool& truncated = stream == 1 ? verdict_.stdoutTruncated : verdict_.stderrTruncated;
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN) return;
        closeFd(fd);
        return;
      }
      if (n == 0) {
        closeFd(fd);
        return;
      }
      std::size_t room = total < policy_.outputLimitBytes ? policy_.outputLimitBytes - total : 0;
      std::size_t keep = std::min<std::size_t>(room, static_cast<std::size_t>(n));
      total += keep;
      if (keep > 0) {
        if (policy_.onOutput) {
          policy_.onOutput(stream, std::string_view(buf, keep));
          if (stream == 2) {
            stderrTail_.append(buf, keep);
            if (stderrTail_.size() > kTailKeep) stderrTail_.erase(0, stderrTail_.size() - kTailKeep);
          }
        } else {
          sink.append(buf, keep);
        }
      }
      if (keep < static_cast<std::size_t>(n)) {
        truncated = true;
        killTree(Status::OutputLimit);
      }
    }
  }

  void readStatus() {
    while (status_ >= 0) {
      ChildMessage m;
      std::memset(&m, 0, sizeof m);
      int fds[2] = {-1, -1};
      std::size_t fdCount = 0;
      long n = detail::recvWithFds(status_, &m, sizeof m, fds, &fdCount, MSG_DONTWAIT);
      if (n < 0) {
        if (errno == EAGAIN) return;
        closeFd(status_);
        return;
      }
      if (n == 0) {
        closeFd(status_);
        return;
      }
      for (std::size_t i = 0; i < fdCount; ++i) {
        if (m.kind == MessageKind::Listener && listener_ < 0) {
          listener_ = fds[i];
        } else {
          ::close(fds[i]);
        }
      }
      if (static_cast<std::size_t>(n) < sizeof m) continue;
      m.step[sizeof m.step - 1] = '\0';
      m.detail[sizeof m.detail - 1] = '\0';
      switch (m.kind) {
        case MessageKind::SetupError:
          if (warmGo_ && std::strncmp(m.step, "warm", sizeof m.step) == 0) {
            relaunchCold();
            return;
          }
          if (setupError_.empty())
            setupError_ = std::string(m.step) + ": " + m.detail + ": " + std::strerror(m.err);
          break;
        case MessageKind::Exited:
          gotExit_ = true;
          payloadStatus_ = m.waitStatus;
          liveTasks_ = m.liveTasks;
          treeCpuUs_ = m.cpuUs;
          treeMaxRssKb_ = m.maxRssKb;
          break;
        case MessageKind::Layers:
          layersKnown_ = true;
          verdict_.isolation.userNs = (m.layers & detail::kLayerUserNs) != 0;
          if ((m.layers & detail::kLayerLandlock) == 0) verdict_.isolation.landlockAbi = 0;
          if (mode_ == Mode::RootThenUserNs && !verdict_.isolation.userNs) detail::markUserNsUnusable();
          break;
        case MessageKind::UserNsUseless:
          if (held_) {
            detail::markUserNsUnusable();
            spareBroken_ = true;
            return;
          }
          relaunchDegraded();
          return;
        case MessageKind::Listener:
          break;
      }
    }
  }

  void relaunchDegraded() {
    detail::markUserNsUnusable();
    siginfo_t info;
    ::waitid(P_PIDFD, static_cast<id_t>(pidfd_), &info, WEXITED);  // it is exiting already
    closeAll();
    detail::removeTree(hostScratch_);
    hostScratch_.clear();
    verdict_ = Verdict{};
    stdoutBytes_ = stderrBytes_ = stdinOffset_ = 0;
    Mode next = ::geteuid() == 0 ? Mode::RootThenUserNs : Mode::NoNamespaces;
    launch(next, false);
  }

  // A warm spare whose interpreter was gone when its run came: the run starts over cold (the
  // interpreter printed nothing, or go() would have refused it, so no output is lost or mixed).
  void relaunchCold() {
    detail::countWarmFellBack();
    siginfo_t info;
    ::waitid(P_PIDFD, static_cast<id_t>(pidfd_), &info, WEXITED);  // init exits after its report
    closeAll();
    detail::removeTree(hostScratch_);
    hostScratch_.clear();
    verdict_ = Verdict{};
    stdoutBytes_ = stderrBytes_ = stdinOffset_ = 0;
    warmGo_ = false;
    setupError_.clear();
    launch(mode_, plan_->tryUserNs);
  }

  // A warm spare's files for its interpreter, sent right after clone (the status socket
  // buffers them until init asks).
  void sendWarmFiles() {
    detail::SpareRequest files = detail::buildPreseedRequest(policy_.warm->files);
    if (files.fd < 0) {
      spareBroken_ = true;
      return;
    }
    detail::GoMessage message{detail::kPreseedMagic, 0};
    long sent = detail::sendWithFds(status_, &message, sizeof message, &files.fd, 1);
    ::close(files.fd);
    if (sent != static_cast<long>(sizeof message)) spareBroken_ = true;
  }

  void handleNotifications() {
    while (listener_ >= 0) {
      pollfd p{listener_, POLLIN, 0};
      if (::poll(&p, 1, 0) <= 0) return;
      if ((p.revents & POLLIN) == 0) {
        if ((p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0) closeFd(listener_);
        return;
      }
      static const std::size_t notifSize = [] {
        seccomp_notif_sizes sizes{};
        if (::syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) return sizeof(seccomp_notif);
        return std::max<std::size_t>(sizes.seccomp_notif, sizeof(seccomp_notif));
      }();
      std::vector<unsigned char> buf(notifSize, 0);
      auto* req = reinterpret_cast<seccomp_notif*>(buf.data());
      if (::ioctl(listener_, SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
        if (errno == EINTR || errno == ENOENT) continue;  // ENOENT: the caller died meanwhile
        closeFd(listener_);
        return;
      }
      if (verdict_.syscall.empty()) verdict_.syscall = detail::syscallName(req->data.arch, req->data.nr);
      killTree(Status::SyscallViolation);
      // The notified task stays blocked until the SIGKILL lands; nothing to answer.
    }
  }

  void killTree(Status cause) {
    if (!cause_) {
      cause_ = cause;
      if (cause == Status::Timeout && mode_ != Mode::NoNamespaces && pid_ > 0) {
        // A fork bomb shows up as a timeout; tell it apart before the tree goes.
        killedTasks_ = countSandboxTasks(pid_);
      }
    }
    if (killSent_ || pidfd_ < 0) return;
    killSent_ = true;
    ::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
    if (mode_ == Mode::NoNamespaces && pid_ > 0) ::kill(-pid_, SIGKILL);  // its process group
  }

  void tryReap() {
    if (pidfd_ < 0) return;
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    rusage ru;
    std::memset(&ru, 0, sizeof ru);
    long r = ::syscall(SYS_waitid, P_PIDFD, pidfd_, &info, WEXITED | WNOHANG, &ru);
    if (r != 0 || info.si_pid == 0) return;
    reaped_ = true;
    endTime_ = Clock::now();
    initCode_ = info.si_code;
    initStatus_ = info.si_status;
    usage_ = ru;
    if (mode_ == Mode::NoNamespaces) ::kill(-pid_, SIGKILL);  // stragglers in its group
  }

  void finalize() {
    finished_ = true;
    endRun();
    Verdict& v = verdict_;
    v.wallMs = std::chrono::duration<double, std::milli>(endTime_ - start_).count();
    auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1000.0 + t.tv_usec / 1000.0; };
    if (gotExit_) {
      // The payload's tree alone, as init measured it (init's own set-up is not the payload's).
      v.cpuMs = static_cast<double>(treeCpuUs_) / 1000.0;
      v.maxRssKb = static_cast<long>(treeMaxRssKb_);
    } else {
      v.cpuMs = ms(usage_.ru_utime) + ms(usage_.ru_stime);
      v.maxRssKb = usage_.ru_maxrss;
    }
    v.maxRssKb = std::max(v.maxRssKb, sampledPeakKb_);
    if (!layersKnown_ && mode_ == Mode::RootThenUserNs) v.isolation.userNs = false;
    finishIsolation();
    if (!reaped_ && pidfd_ >= 0) {
      // Closed on init's report: the untrusted tree is gone and init is only exiting.
      ::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
      detail::reapLater(pidfd_);
      pidfd_ = -1;
    }
    closeAll();
    detail::removeTree(hostScratch_);
    hostScratch_.clear();

    // The payload's own ending: reported by init, or (no pid namespace) the child itself.
    bool exited = false, signaled = false;
    int code = -1, sig = 0;
    if (gotExit_) {
      exited = WIFEXITED(payloadStatus_);
      signaled = WIFSIGNALED(payloadStatus_);
      code = exited ? WEXITSTATUS(payloadStatus_) : -1;
      sig = signaled ? WTERMSIG(payloadStatus_) : 0;
    } else if (initCode_ == CLD_EXITED) {
      exited = true;
      code = initStatus_;
    } else {
      signaled = true;
      sig = initStatus_;
    }
    if (!seccompError_.empty()) setupError_ = seccompError_;
    if (!setupError_.empty() && !(gotExit_ && cause_)) {
      v.status = Status::SetupError;
      v.setupError = setupError_;
      return;
    }
    v.exitCode = exited ? code : -1;
    v.signal = signaled ? sig : 0;
    if (cause_) {
      v.status = *cause_;
      if (!gotExit_ || !exited) {
        v.exitCode = -1;
        v.signal = SIGKILL;
      }
      if (*cause_ == Status::Timeout && !v.cancelled && killedTasks_ >= policy_.processes - 1 && policy_.processes > 1)
        v.status = Status::ProcessLimit;
      return;
    }
    const std::string& err = policy_.onOutput ? stderrTail_ : v.stderrData;
    const double cpuLimitMs = policy_.cpuLimitSec * 1000.0;
    const bool memoryWords = contains(err, "MemoryError") || contains(err, "std::bad_alloc") ||
                             contains(err, "out of memory") || contains(err, "Cannot allocate memory") ||
                             contains(err, "JavaScript heap out of memory") || contains(err, "Fatal process out of memory") ||
                             contains(err, "Array buffer allocation failed") ||
                             contains(err, "memory exhausted");
    const bool nearMemoryCap = v.maxRssKb >= static_cast<long>(policy_.memoryLimitMb * 1024 * 9 / 10);
    const bool processWords = contains(err, "Resource temporarily unavailable") &&
                              (contains(err, "fork") || contains(err, "thread") || contains(err, "spawn") ||
                               contains(err, "BlockingIOError") || contains(err, "EAGAIN"));
    if (signaled) {
      if (sig == SIGXCPU || (sig == SIGKILL && ceilCpuReached(v.cpuMs, cpuLimitMs))) {
        v.status = Status::CpuLimit;
      } else if (sig == SIGXFSZ) {
        v.status = Status::FileSizeLimit;
      } else if (sig == SIGSYS) {
        v.status = Status::SyscallViolation;
        if (v.syscall.empty()) v.syscall = "unknown (killed by seccomp: foreign architecture)";
      } else if (memoryWords || (nearMemoryCap && (sig == SIGSEGV || sig == SIGABRT || sig == SIGKILL || sig == SIGTRAP))) {
        v.status = Status::MemoryLimit;
      } else if (processWords || (liveTasks_ >= policy_.processes - 1 && policy_.processes > 1)) {
        v.status = Status::ProcessLimit;
      } else {
        v.status = Status::Signaled;
      }
      return;
    }
    if (code == 0) {
      v.status = Status::Ok;
    } else if (contains(err, "File too large")) {
      v.status = Status::FileSizeLimit;
    } else if (memoryWords) {
      v.status = Status::MemoryLimit;
    } else if (processWords || (liveTasks_ >= policy_.processes - 1 && policy_.processes > 1)) {
      v.status = Status::ProcessLimit;
    } else {
      v.status = Status::ExitNonzero;
    }
  }

  static bool ceilCpuReached(double cpuMs, double limitMs) { return cpuMs + 50.0 >= limitMs; }

  // The memory limit, enforced here whether or not a cgroup is delegated: the private resident
  // memory of each of the sandbox's processes, sampled every kMemoryEvery; over the limit the
  // tree is killed with memory_limit. RLIMIT_DATA (PlanBuilder) is only a far backstop against
  // an allocation faster than the sampling: it counts reserved address space such as each
  // thread's stack, so as THE limit it stopped healthy threaded suites (a test starting dozens
  // of threads: "can't start new thread" at ~100 MB resident under a 512 MB limit).
  // Every kCpuWaitEvery-th sample also reads each task's scheduler wait (Policy::cpuWaitNs).
  void checkMemory() {
    nextMemoryCheck_ = Clock::now() + kMemoryEvery;
    if (pid_ <= 0) return;
    const bool waits = policy_.cpuWaitNs && samples_++ % kCpuWaitEvery == 0;
    SandboxTree tree = scanSandbox(pid_, waits);
    if (waits) noteCpuWait(tree.taskDirs);
    std::vector<std::string> processes = std::move(tree.processes);
    if (mode_ == Mode::NoNamespaces) processes.push_back(std::to_string(pid_));
    // Until the payload's execve it is a copy of this supervisor (vfork of pid 1, a fork of
    // ours; a full copy under ASan) and its resident pages are ours: charged to it, a sample
    // in that window stopped trivial programs whenever the supervisor held more than the limit
    // (1 in 40 runs of `hello` beside 400 MB of ours under 256 MB). Once anything in the tree
    // has exec'd, every process counts, forked-but-not-exec'd children of the payload too.
    if (!payloadExeced_) {
      payloadExeced_ = std::any_of(processes.begin(), processes.end(), hasExeced);
      if (!payloadExeced_) return;
    }
    // Per process, as RLIMIT_DATA was: a sum would count pages a fork shares copy-on-write once
    // per child (a fork bomb of small Pythons read as gigabytes).
    long kb = 0;
    for (const auto& process : processes) kb = std::max(kb, privateResidentKb(process));
    sampledPeakKb_ = std::max(sampledPeakKb_, kb);
    if (kb > static_cast<long>(policy_.memoryLimitMb) * 1024) killTree(Status::MemoryLimit);
  }

  // A task's run_delay counts from its birth: the tasks of the first sample (a warm spare's
  // interpreter waited before the run) count from that sample, later ones from zero.
  void noteCpuWait(const std::vector<std::string>& taskDirs) {
    std::int64_t longest = 0;
    for (const auto& dir : taskDirs) {
      unsigned long long runtime = 0, delay = 0;
      if (std::sscanf(readProcLine(dir + "/schedstat").c_str(), "%llu %llu", &runtime, &delay) != 2) continue;
      auto [it, added] = waitBase_.try_emplace(dir, firstWaitSample_ ? static_cast<std::int64_t>(delay) : 0);
      longest = std::max(longest, static_cast<std::int64_t>(delay) - it->second);
    }
    firstWaitSample_ = false;
    if (longest > policy_.cpuWaitNs->load()) policy_.cpuWaitNs->store(longest);
  }

  static constexpr std::chrono::milliseconds kMemoryEvery{25};
  static constexpr unsigned kCpuWaitEvery = 4;

  Policy policy_;
  std::unique_ptr<detail::LaunchPlan> plan_;
  Mode mode_ = Mode::UserNs;
  Verdict verdict_;
  std::string hostScratch_, setupError_, seccompError_, stderrTail_;
  int pidfd_ = -1, stdout_ = -1, stderr_ = -1, status_ = -1, listener_ = -1, stdinWrite_ = -1;
  pid_t pid_ = -1;
  std::size_t stdoutBytes_ = 0, stderrBytes_ = 0, stdinOffset_ = 0;
  Clock::time_point start_{}, deadline_{}, endTime_{}, nextMemoryCheck_{};
  long sampledPeakKb_ = 0;
  unsigned samples_ = 0;
  bool firstWaitSample_ = true, payloadExeced_ = false;
  std::map<std::string, std::int64_t> waitBase_;
  std::optional<Status> cause_;
  bool held_ = false, spareBroken_ = false, warmGo_ = false, counted_ = false;
  bool killSent_ = false, reaped_ = false, finished_ = false, gotExit_ = false, layersKnown_ = false;
  std::int64_t treeCpuUs_ = 0, treeMaxRssKb_ = 0;
  int payloadStatus_ = 0, liveTasks_ = 0, killedTasks_ = 0, initCode_ = 0, initStatus_ = 0;
  rusage usage_{};
};

}  // namespace

int detail::spareInitPid(const Execution& spare) { return static_cast<const SandboxExecution&>(spare).initPid(); }

std::unique_ptr<Execution> detail::launchSpare(const Policy& policy, Mode mode, bool tryUserNs) {
  auto execution = std::make_unique<SandboxExecution>(policy);
  execution->launchHeld(mode, tryUserNs);
  return execution;
}

namespace {

// The namespace strategy a run takes now.
std::pair<Mode, bool> currentMode() {
  if (::geteuid() == 0) return {Mode::RootThenUserNs, !detail::userNsKnownUnusable()};
  if (!detail::userNsKnownUnusable()) return {Mode::UserNs, true};
  return {Mode::NoNamespaces, false};
}

}  // namespace

void prepareSpare(const Policy& policy) {
  auto [mode, tryUserNs] = currentMode();
  if (mode == Mode::NoNamespaces || policy.argv.empty() || !detail::sparesEnabled() || detail::hasNewFiles(policy)) return;
  detail::wantSpare(detail::spareKey(policy, mode, tryUserNs), policy, mode, tryUserNs);
}

std::unique_ptr<Execution> Execution::start(const Policy& policy) {
  detail::reapFinished();
  auto [mode, tryUserNs] = currentMode();
  // Spares need the namespaces: a degraded run has no init to hold.
  // A new file's copy is made when its sandbox is built: never ahead (NewFiles.h).
  const bool spares = mode != Mode::NoNamespaces && !policy.argv.empty() && detail::sparesEnabled() &&
                      !detail::hasNewFiles(policy);
  std::string key;
  if (spares) {
    key = detail::spareKey(policy, mode, tryUserNs);
    if (std::unique_ptr<Execution> spare = detail::takeSpare(key)) {
      std::set<std::string> skip;
      if (detail::warmEligible(policy)) skip = detail::preseedPaths(policy.warm->files);
      detail::SpareRequest request = detail::buildSpareRequest(policy, skip.empty() ? nullptr : &skip);
      bool started = request.fd >= 0 && static_cast<SandboxExecution*>(spare.get())->go(policy, request.fd);
      if (request.fd >= 0) ::close(request.fd);
      detail::wantSpare(key, policy, mode, tryUserNs);
      if (started) {
        if (!skip.empty()) detail::countWarmUsed();
        static_cast<SandboxExecution*>(spare.get())->beginRun();
        return spare;
      }
      detail::countDiscarded();
    }
  }
  auto execution = std::make_unique<SandboxExecution>(policy);
  execution->launch(mode, tryUserNs);
  execution->beginRun();
  if (spares) detail::wantSpare(key, policy, mode, tryUserNs);
  return execution;
}

}  // namespace greenlight::sandbox
