// The sandbox's public API: run one untrusted command isolated, and say precisely how it ended.
//
// Two ways to run:
//  - run(): blocking; call it from a worker thread, never from an event loop.
//  - Execution::start(): non-blocking; hands back the fds to watch (pidfd, stdout, stderr) and
//    the time left before the deadline, so one event loop can supervise many sandboxes.
//
// Thread-safety: run() and Execution::start() may be called concurrently from any threads.
// One Execution object must be driven by one thread at a time. probeIsolation() is computed
// once (thread-safe static) and cached for the life of the process.
//
// What the sandboxed command sees: uid/gid 1000 ("sandbox"), a read-only root holding /usr
// (and the /bin, /lib* links), a minimal /etc (loader cache, nsswitch, alternatives; passwd,
// group and hosts synthesized; never shadow), /dev/{null,zero,random,urandom}, a fresh /proc,
// writable size-capped tmpfs /tmp (also /dev/shm) and /work (the default working directory),
// the Policy's binds, and an environment of PATH, LANG=C.UTF-8, HOME=/tmp, TMPDIR=/tmp,
// USER/LOGNAME=sandbox plus Policy::env. No network unless Policy::network.
// When the caller is root, the sandbox's host uid is 65534 (never 0): a writable bind must be
// writable by that uid. Bind sources are resolved with the caller's rights before the drop,
// so a world-readable prefix under a root-only directory (/root/.pyenv/versions/X) binds fine.
//
// The memory limit is each sandbox process's private resident memory, sampled by the supervisor (RLIMIT_DATA is only a far backstop). Other limits without a
// delegated cgroup are rlimits; memory_limit, process_limit and
// file_size_limit are then recognised from the signal (SIGXCPU, SIGXFSZ), the tasks left at
// the end, max RSS and the runtime's own message on stderr (MemoryError, std::bad_alloc,
// "JavaScript heap out of memory", node's "Array buffer allocation failed", "File too large",
// "Resource temporarily unavailable").
//
// Depends on libc and libseccomp only (no JSON, no Asio, no LSP).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace greenlight::sandbox {

enum class Status {
  Ok,                // exited 0
  ExitNonzero,       // exited with a non-zero code
  Signaled,          // killed by a signal we did not send
  Timeout,           // wall-clock deadline passed; the whole tree was killed
  CpuLimit,          // RLIMIT_CPU / cpu.max
  MemoryLimit,       // over the limit when sampled, an allocation refused (RLIMIT_DATA backstop), a cgroup OOM kill
  OutputLimit,       // a stream exceeded its cap (excess discarded) and the run was stopped
  ProcessLimit,      // RLIMIT_NPROC / pids.max reached
  FileSizeLimit,     // RLIMIT_FSIZE (SIGXFSZ)
  SyscallViolation,  // seccomp refused a call; Verdict::syscall names it
  SetupError,        // the sandbox could not be built; Verdict::setupError says which step
};
// "ok", "exit_nonzero", ... exactly as in the Verdict JSON of DESIGN.md.
std::string_view statusName(Status status);

// Which layers are in force. Mirrors the "isolation" member of the Verdict JSON.
struct Isolation {
  bool userNs = false, pidNs = false, netNs = false, mountNs = false, ipcNs = false,
       utsNs = false;
  bool cgroup = false;   // a delegated writable cgroup v2 enforced the limits
  int landlockAbi = 0;   // 0 when Landlock is not applied
  bool seccomp = false;
  bool degraded = false;               // some layer is missing
  std::vector<std::string> missing;    // names of the missing layers
};

// What this host can do, probed once per process.
const Isolation& probeIsolation();

struct Verdict {
  Status status = Status::SetupError;
  int exitCode = -1;        // valid when the child exited
  int signal = 0;           // 0 when not signaled
  std::string syscall;      // the refused call's name for SyscallViolation, else empty
  double wallMs = 0, cpuMs = 0;
  long maxRssKb = 0;
  bool stdoutTruncated = false, stderrTruncated = false;
  std::string setupError;   // "<step>: <syscall>: <strerror>" for SetupError, else empty
  Isolation isolation;
  std::string stdoutData, stderrData;  // captured output (capped); empty when streamed
  bool cancelled = false;   // stopped by Execution::kill() or run()'s cancelFd (status Timeout)
};

// Seccomp allow-list profile. Auto picks from argv[0] (python*, node*, cc/gcc/g++/clang*).
enum class Profile { Auto, Native, Python, Node, Compiler };

// A read-only file bound at a path that its read-only enclosing directory bind does not hold
// (a new file: an unsaved test file) appears there through a read-only overlay of the nearest
// existing directory, the rest of which stays the host's; such a run takes no spare
// (NewFiles.h). Its directory's path may not hold ':' ',' or '\' (a setup error).
struct Bind {
  std::string hostPath;
  std::string sandboxPath;  // empty: same as hostPath
  bool writable = false;
};

// Whether `path` is seen in the sandbox, at its own path, through one of `binds`: it is under one
// of them and, when the caller is root (the sandbox drops to uid 65534), no directory from that
// bind's root down to `path`'s parent is one uid 65534 may not search. When not, the caller binds
// `path` itself: the sandbox then makes its way in traversable without widening anything
// (PrivateParents.cpp). Stats host paths.
bool bindsReach(const std::vector<Bind>& binds, const std::string& path);

// Where a warm interpreter reads its run (Policy::WarmStart): RLIMIT_NOFILE is 1024 in the sandbox.
inline constexpr int kWarmRunFd = 1023;

struct Policy {
  std::vector<std::string> argv;       // argv[0] resolved with the sandbox PATH if not absolute
  std::vector<std::string> env;        // "K=V"; added to the scratch-built PATH/LANG/HOME/TMPDIR
  std::string workdir;                 // inside the sandbox; empty: the scratch dir /work
  std::vector<Bind> binds;             // extra binds (interpreter prefixes, workspace, --ro/--rw)
  // Host directory whose contents are copied into the writable scratch /work before the run
  // (regular files, directories, symlinks; capped by scratchSizeMb). The host copy is never
  // written. Empty: /work starts empty.
  std::string scratchSource;

  double timeLimitSec = 10;            // wall clock
  double cpuLimitSec = 10;
  std::size_t memoryLimitMb = 512;
  int processes = 64;
  std::size_t outputLimitBytes = 1024 * 1024;  // per stream
  std::size_t fileSizeLimitMb = 64;
  std::size_t scratchSizeMb = 256;     // /work and /tmp tmpfs caps
  bool network = false;
  Profile profile = Profile::Auto;
  bool allowUnsandboxed = false;       // run with rlimits only when no isolation exists

  // stdin: empty and !inheritStdin -> /dev/null; stdinData is written to a pipe otherwise.
  std::string stdinData;
  bool inheritStdin = false;           // pass the caller's fd 0 through (CLI use)
  // When set, output is streamed here as it arrives (still capped) instead of captured.
  // stream: 1 = stdout, 2 = stderr. Called on the supervising thread.
  std::function<void(int stream, std::string_view data)> onOutput;
  // When set, the supervisor keeps here (about every 100 ms, never decreasing) the longest
  // time any one task of the sandbox has waited for a CPU since the run began, in ns
  // (/proc/<pid>/task/<tid>/schedstat run_delay): the time the machine's load took from the
  // run. The hang watchdog does not count it, so a busy machine does not make a long test hang.
  std::shared_ptr<std::atomic<std::int64_t>> cpuWaitNs;

  // Warm start (an interpreter started ahead; used only with keepSpares(true)). When set, the
  // run may be handed to a spare whose payload, `warm->argv` with this policy's environment,
  // was already started in the sandbox before the run came: it has loaded what it can (site,
  // the harness) and blocks reading fd kWarmRunFd, a stream socket (the last descriptor
  // RLIMIT_NOFILE allows, so that the interpreter's own descriptors get the numbers they get
  // in a cold start). At go it reads the run, then EOF:
  //   "<argc>\0<envc>\0" argv[argc] "\0"-terminated, envp[envc] likewise, then the workdir.
  // and must then behave exactly as `argv` would have (WarmBoot in core/testing does that for
  // Python and node). The run's limits, seccomp profile, output capture and verdict are those
  // of a cold run; the interpreter's own start-up CPU time is in the verdict's cpuMs.
  // Without a warm spare for this shape (none yet, spares off, it died, it printed anything
  // before its run) the run starts cold with `argv`, as if `warm` were unset.
  // Not with stdin (stdinData, inheritStdin): the interpreter was started with /dev/null.
  struct WarmStart {
    std::vector<std::string> argv;
    // Files (path relative to /work, contents) the interpreter loads before its run: written
    // into /work before it starts. Those the run's scratchSource also holds are not copied
    // again at go: at the same path they must have the same contents.
    std::vector<std::pair<std::string, std::string>> files;
  };
  std::shared_ptr<const WarmStart> warm;
};

// Blocking run. `cancelFd` (optional): when it becomes readable the whole tree is killed at
// once and the verdict has `cancelled` set.
Verdict run(const Policy& policy, int cancelFd = -1);

// Spares: with keepSpares(true), each run() or Execution::start() of a given policy shape
// (limits, binds, network, seccomp profile) leaves a sandbox of that shape built ahead by a
// background thread, blocked before its payload; the next run of that shape only sends its
// argv, environment, working directory, stdin and /work seed, and skips clone, namespaces,
// mounts, Landlock and seccomp set-up. Each spare serves one run. For long-lived processes
// (the language server); a one-shot CLI gains nothing. Off by default; thread-safe.
// Cost: one sleeping process per shape (at most four), rebuilt after each use.
void keepSpares(bool on);
// Asks for a spare of `policy`'s shape (warm when it has WarmStart) without running anything:
// for a caller that knows a run of that shape is coming. No-op when spares are off.
void prepareSpare(const Policy& policy);
struct SpareStats {
  unsigned long built = 0;      // spares made ready
  unsigned long used = 0;       // taken by a run (one found unfit is also counted discarded)
  unsigned long discarded = 0;  // dropped unused: stale, dead, unfit, evicted, spares off
  unsigned long warmBuilt = 0;    // of the built, with a pre-started interpreter
  unsigned long warmUsed = 0;     // runs handed to a pre-started interpreter
  unsigned long warmFellBack = 0;  // warm runs whose interpreter was gone at go: re-run cold
};
SpareStats spareStats();
// The spares ready now, one line each: what it holds, how long it has idled and the resident
// memory of its processes ("warm /usr/bin/python3 -B, idle 3.2 s, 14 MB resident" or
// "sandbox (native), idle 0.4 s, 1 MB resident"), for `greenlight doctor` and the server's log.
std::vector<std::string> describeSpares();
// A ready spare is dropped once it has idled this long (its binds were resolved when it was
// built; a reinstalled prefix would otherwise show old contents, and an idle interpreter is
// memory nobody uses).
inline constexpr double kSpareIdleSeconds = 60;

// Non-blocking supervision of one sandbox.
class Execution {
 public:
  // Starts the sandbox. Never throws for a sandbox failure: a failed setup yields an Execution
  // that is already finished() with a SetupError verdict.
  static std::unique_ptr<Execution> start(const Policy& policy);
  virtual ~Execution() = default;

  // Fds to watch for readability; they change as streams close, so ask again after step().
  virtual std::vector<int> watchFds() const = 0;
  // Milliseconds until step() has timed work to do: the wall-clock deadline or the next memory
  // sample (0 when due); pass to poll/epoll/timers.
  virtual int msUntilDeadline() const = 0;
  // Does all non-blocking work that is ready (drain pipes, reap, enforce the deadline).
  // Returns true once the run is over and verdict() is final.
  virtual bool step() = 0;
  virtual bool finished() const = 0;
  // Kills the whole tree now (cancellation). The verdict becomes final on a later step().
  virtual void kill() = 0;
  virtual const Verdict& verdict() const = 0;
};

}  // namespace greenlight::sandbox
