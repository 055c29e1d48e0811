// LaunchPlan: everything the sandbox child needs, computed by the parent BEFORE clone().
//
// The child of clone() in a (possibly multithreaded) parent may only do async-signal-safe
// work: no allocation, no locks, no stdio. So every path, every mount, argv/envp, the rlimits,
// the Landlock rules and the compiled seccomp BPF live here, fully built, and the child only
// reads them (c_str() pointers, vector indexing) and issues raw system calls.
#pragma once

#include <linux/filter.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

// The uid/gid untrusted code has inside the user namespace.
inline constexpr uid_t kSandboxUid = 1000;
inline constexpr gid_t kSandboxGid = 1000;
// When greenlight runs as root, the host uid/gid the sandbox is mapped to: never 0.
inline constexpr uid_t kUnprivilegedHostUid = 65534;
inline constexpr gid_t kUnprivilegedHostGid = 65534;

// The old root is reachable here between pivot_root and its detach; bind sources are
// resolved under it so that a host path under /tmp stays visible although the new root's
// tmpfs was mounted on /tmp.
inline constexpr const char* kOldRoot = "/.oldroot";
inline constexpr const char* kNewRootBase = "/tmp";

enum class MountKind : std::uint8_t {
  Dir,        // mkdir target (mode)
  WriteFile,  // create target with `data` as contents (mode)
  Symlink,    // target -> data
  Bind,       // bind source (under kOldRoot) on target; read-only unless writable
  Tmpfs,      // tmpfs on target with options `data`
  Proc,       // fresh procfs on target
  Seed,       // copy the host tree `source` (under kOldRoot) into target
  Seal,       // make the mount on target read-only (a private parent's stand-in, PrivateParents.h)
  Overlay,    // read-only overlayfs on target with options `data` (new files in a read-only bind)
  Detach,     // lazily unmount target and remove the directory (the overlays' staging tmpfs)
};

struct MountOp {
  MountKind kind = MountKind::Dir;
  std::string target;   // absolute path inside the new root
  std::string source;   // Bind: host path prefixed with kOldRoot
  std::string data;     // WriteFile contents, Symlink text, Tmpfs options
  bool writable = false;
  bool isDir = true;    // Bind: the source is a directory (else a file mount point is created)
  bool device = false;  // Bind of a device node: keeps device access (no nodev), noexec
  mode_t mode = 0755;
};

struct RlimitSetting {
  int resource;
  rlim_t soft, hard;
};

struct LandlockRule {
  std::string path;
  std::uint64_t access;
};

// Which namespace/credential strategy the child follows.
enum class Mode : std::uint8_t {
  // Host root: clone without CLONE_NEWUSER, build mounts with real root rights (root-owned
  // 0700 directories above an interpreter prefix stay traversable), then drop to
  // kUnprivilegedHostUid and enter a fresh user namespace mapped to it.
  RootThenUserNs,
  // Unprivileged caller: clone with CLONE_NEWUSER; the child maps its own uid and builds the
  // mounts with the capabilities it holds inside the new namespace.
  UserNs,
  // No usable user namespace, unprivileged: no namespaces; Landlock + seccomp + rlimits and a
  // process group are all there is (degraded).
  NoNamespaces,
};

struct LaunchPlan {
  Mode mode = Mode::UserNs;
  bool tryUserNs = true;     // RootThenUserNs: attempt unshare(CLONE_NEWUSER) at all
  bool netNs = true;
  unsigned long cloneFlags = 0;
  uid_t hostUid = 0;
  gid_t hostGid = 0;
  std::string uidMap, gidMap;  // "1000 <host> 1"

  std::vector<MountOp> mounts;         // in order; after pivot_root
  std::string newRootOptions;          // tmpfs options of the new root
  bool chownSeed = false;              // root mode: hand copied files to the sandbox user

  std::string workdir;
  std::vector<std::string> execCandidates;  // argv[0] resolved against the sandbox PATH
  std::vector<const char*> candidatePtrs;   // views of execCandidates
  std::vector<std::string> argvStore, envStore;
  std::vector<char*> argv, envp;       // NULL-terminated views of the stores

  std::vector<RlimitSetting> rlimits;

  int landlockAbi = 0;                 // 0: skip
  std::uint64_t landlockHandledFs = 0, landlockHandledNet = 0, landlockScoped = 0;
  std::vector<LandlockRule> landlockRules;

  const sock_fprog* seccomp = nullptr;  // cached, owned by the profile cache
  // When the profile was not compiled yet, the parent clones first and compiles while the
  // child builds its mounts; the BPF then arrives on this pipe (u32 length + instructions).
  int seccompPipe = -1;
  Profile profile = Profile::Native;

  // A spare (Spares.h): built and then held, blocked in init until the supervisor's go
  // message says what to run (GoMessage); argv/env/workdir/candidates above are placeholders.
  bool held = false;
  // A warm spare (Policy::WarmStart): before awaiting go, init receives the interpreter's files
  // (a request memfd with seed entries only, kPreseedMagic) and starts the payload at once,
  // argv/env/workdir above being the interpreter's own, with kWarmRunFd the socket its run arrives on.
  bool warm = false;

  // Child-side fds (inherited through clone; the child dup2s them onto 0/1/2).
  int stdinFd = -1;        // -1 with inheritStdin: leave fd 0 alone
  int stdoutFd = -1, stderrFd = -1;
  int statusFd = -1;       // SOCK_SEQPACKET, close-on-exec: errors, listener fd, exit status
};

// Messages the child sends on statusFd.
enum class MessageKind : std::uint32_t {
  SetupError = 1,   // step/detail/err describe the failing step
  Listener = 2,     // carries the seccomp listener fd (SCM_RIGHTS)
  Exited = 3,       // the payload and every task it made are gone: waitStatus, liveTasks, usage
  Layers = 4,       // flags: which optional layers were applied
  UserNsUseless = 5,  // a user namespace exists but grants nothing (AppArmor-style): retry degraded
};

// What the payload runs with: from the plan for a cold start, from the go request for a spare.
struct ExecSpec {
  const char* workdir = nullptr;  // set from a go request (a warm payload is told it)
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* const* candidates = nullptr;
  std::size_t candidateCount = 0;
};

// Supervisor -> held spare, on statusFd: start the payload. SCM_RIGHTS carries the request
// memfd (SpareRequest.h's format) and, when hasStdin, the fd to put on the payload's stdin.
inline constexpr std::uint32_t kGoMagic = 0x676c676f;  // "glgo"
// Supervisor -> warm spare, sent right after clone: the files its interpreter needs (hasStdin 0).
inline constexpr std::uint32_t kPreseedMagic = 0x676c7073;  // "glps"
struct GoMessage {
  std::uint32_t magic;
  std::uint32_t hasStdin;
};

inline constexpr std::uint32_t kLayerUserNs = 1u << 0;
inline constexpr std::uint32_t kLayerLandlock = 1u << 1;

struct ChildMessage {
  MessageKind kind;
  std::int32_t err;
  std::int32_t waitStatus;
  std::int32_t liveTasks;
  std::uint32_t layers;
  // Exited: resource use of the payload's whole tree (init's RUSAGE_CHILDREN once all reaped).
  std::int64_t cpuUs;
  std::int64_t maxRssKb;
  char step[24];
  char detail[200];
};

}  // namespace greenlight::sandbox::detail
