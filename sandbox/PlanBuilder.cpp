// The planner: which mounts, which /etc, which environment, which limits and rules.
//
// The minimal /etc is not bind-mounted file by file (each mount costs ~15 µs on the hot path):
// the few files the dynamic loader, glibc's NSS, locale and CPython/node need are read once per
// process, cached, and written into the new root's tmpfs by the child. passwd/group/hosts are
// synthesized; shadow and friends never enter.
#include "sandbox/PlanBuilder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "sandbox/Landlock.h"
#include "sandbox/NewFiles.h"
#include "sandbox/PrivateParents.h"
#include "sandbox/Probe.h"
#include "sandbox/SeccompProfiles.h"

namespace greenlight::sandbox::detail {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultPath = "/usr/local/bin:/usr/bin:/bin";
constexpr std::size_t kMaxEtcFile = 1 << 20;

// Top-level host entries that hold the system's programs and libraries.
constexpr const char* kSystemDirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
// Read into the new /etc (files, symlinks, or directories of them, one level deep).
// Kept short: every entry costs a read here once per process and a write per run.
constexpr const char* kEtcEntries[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                       "/etc/nsswitch.conf", "/etc/localtime", "/etc/protocols",
                                       "/etc/services", "/etc/os-release", "/etc/python3", "/etc/python3.11"};
// Only with --net.
constexpr const char* kEtcNetEntries[] = {"/etc/resolv.conf"};
// Directories bound read-only (one mount instead of hundreds of symlinks or files):
// /etc/alternatives holds Debian's cc/c++/awk/... links; the TLS trust store only with --net.
constexpr const char* kEtcBoundDirs[] = {"/etc/alternatives"};
constexpr const char* kEtcNetBoundDirs[] = {"/etc/ssl", "/etc/ca-certificates"};

const char kPasswd[] =
    "root:x:0:0:root:/root:/usr/sbin/nologin\n"
    "sandbox:x:1000:1000:greenlight sandbox:/tmp:/bin/sh\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
const char kGroup[] = "root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n";
const char kHosts[] = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n";

void appendEntry(const std::string& path, std::vector<MountOp>& out, int depth) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return;
  MountOp op;
  op.target = path;
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    op.kind = MountKind::Symlink;
    op.data = fs::read_symlink(path, ec).string();
    if (!ec) out.push_back(std::move(op));
  } else if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) <= kMaxEtcFile) {
    // Read once per process (cached by etcOps).
    if (!readFileInto(path.c_str(), static_cast<std::size_t>(st.st_size), op.data)) return;  // unreadable: it does not enter
    op.kind = MountKind::WriteFile;
    op.mode = 0644;
    out.push_back(std::move(op));
  } else if (S_ISDIR(st.st_mode) && depth == 0) {
    op.kind = MountKind::Dir;
    op.mode = 0755;
    out.push_back(std::move(op));
    std::error_code ec;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path, ec)) names.push_back(e.path().string());
    std::sort(names.begin(), names.end());
    for (const auto& n : names) appendEntry(n, out, depth + 1);
  }
}

const std::vector<MountOp>& etcOps(bool network) {
  // Never destroyed: the spares' builder thread (Spares.h) may still be planning while the
  // process exits and runs static destructors.
  static const auto* cache = [] {
    auto* both = new std::pair<std::vector<MountOp>, std::vector<MountOp>>;
    for (const char* e : kEtcEntries) appendEntry(e, both->first, 0);
    for (const char* e : kEtcNetEntries) appendEntry(e, both->second, 0);
    return both;
  }();
  return network ? cache->second : cache->first;
}

std::string mb(std::size_t megabytes) { return std::to_string(megabytes) + "m"; }

std::string envValue(const std::vector<std::string>& env, const std::string& key) {
  std::string found;
  for (const auto& kv : env) {
    if (kv.size() > key.size() && kv.compare(0, key.size(), key) == 0 && kv[key.size()] == '=')
      found = kv.substr(key.size() + 1);
  }
  return found;
}

// mkdir ops for every ancestor of `target` below "/".
void addParents(const std::string& target, std::vector<MountOp>& ops) {
  fs::path p(target);
  std::vector<std::string> parents;
  for (fs::path q = p.parent_path(); q != q.root_path() && !q.empty(); q = q.parent_path()) parents.push_back(q.string());
  std::reverse(parents.begin(), parents.end());
  for (const auto& d : parents) {
    MountOp op;
    op.kind = MountKind::Dir;
    op.target = d;
    op.mode = 0755;
    ops.push_back(std::move(op));
  }
}

}  // namespace

bool readFileInto(const char* path, std::size_t size, std::string& into, int openFlags) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC | openFlags);
  if (fd < 0) return false;
  std::size_t start = into.size();
  into.resize(start + size);
  std::size_t got = 0;
  while (got < size) {
    ssize_t n = ::read(fd, into.data() + start + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  into.resize(start + got);
  return true;
}

void removeTree(const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string planExec(const Policy& policy, const std::string& scratchDir, const std::string& tmpDir, LaunchPlan& plan) {
  plan.workdir = policy.workdir.empty() ? scratchDir : policy.workdir;

  // Environment from scratch: nothing of the caller's enters.
  std::string path = envValue(policy.env, "PATH");
  if (path.empty()) path = kDefaultPath;
  plan.envStore = {"PATH=" + path, "LANG=C.UTF-8", "HOME=" + tmpDir, "TMPDIR=" + tmpDir, "USER=sandbox",
                   "LOGNAME=sandbox"};
  for (const auto& kv : policy.env) {
    auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return "environment entry is not K=V: " + kv;
    std::string key = kv.substr(0, eq + 1);
    plan.envStore.erase(std::remove_if(plan.envStore.begin(), plan.envStore.end(),
                                       [&](const std::string& e) { return e.compare(0, key.size(), key) == 0; }),
                        plan.envStore.end());
    plan.envStore.push_back(kv);
  }
  plan.argvStore = policy.argv;
  plan.argv.clear();
  plan.envp.clear();
  for (auto& s : plan.argvStore) plan.argv.push_back(s.data());
  plan.argv.push_back(nullptr);
  for (auto& s : plan.envStore) plan.envp.push_back(s.data());
  plan.envp.push_back(nullptr);

  const std::string& argv0 = policy.argv[0];
  plan.execCandidates.clear();
  if (argv0.find('/') != std::string::npos) {
    plan.execCandidates.push_back(argv0);
  } else {
    std::stringstream dirs(path);
    for (std::string d; std::getline(dirs, d, ':');) plan.execCandidates.push_back((d.empty() ? "." : d) + "/" + argv0);
  }
  plan.candidatePtrs.clear();
  for (const auto& c : plan.execCandidates) plan.candidatePtrs.push_back(c.c_str());
  return {};
}

PlanOutcome buildPlan(const Policy& policy, Mode mode, bool tryUserNs, LaunchPlan& plan) {
  PlanOutcome out;
  auto failWith = [&](std::string message) {
    out.ok = false;
    out.error = "plan: " + std::move(message);
    return out;
  };
  if (policy.argv.empty() || policy.argv[0].empty()) return failWith("empty command");
  if (policy.timeLimitSec <= 0 || policy.cpuLimitSec <= 0 || policy.memoryLimitMb == 0 || policy.processes <= 0 ||
      policy.fileSizeLimitMb == 0 || policy.scratchSizeMb == 0)
    return failWith("limits must be positive");

  const bool root = ::geteuid() == 0;
  plan.mode = mode;
  plan.tryUserNs = tryUserNs;
  plan.netNs = !policy.network;
  if (mode == Mode::RootThenUserNs) {
    plan.hostUid = kUnprivilegedHostUid;
    plan.hostGid = kUnprivilegedHostGid;
  } else {
    plan.hostUid = ::geteuid();
    plan.hostGid = ::getegid();
  }
  plan.uidMap = std::to_string(kSandboxUid) + " " + std::to_string(plan.hostUid) + " 1\n";
  plan.gidMap = std::to_string(kSandboxGid) + " " + std::to_string(plan.hostGid) + " 1\n";
  plan.chownSeed = mode == Mode::RootThenUserNs;

  unsigned long flags = 0;
  if (mode != Mode::NoNamespaces) {
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
    if (plan.netNs) flags |= CLONE_NEWNET;
    if (mode == Mode::UserNs) flags |= CLONE_NEWUSER;
  }
  plan.cloneFlags = flags;

  // Binds: resolve on the host now (symlinks, existence, file vs directory).
  std::vector<ResolvedBind> binds;
  if (std::string error = resolveBinds(policy, binds); !error.empty()) return failWith(error);
  // New files in a read-only bind are overlays of their directory (NewFiles.h), placed in the
  // order below as a bind of that directory would be: after the binds enclosing it, before
  // those inside it. `overlayOf[i]` >= 0 marks such an entry of `binds`.
  std::vector<NewFileDir> newDirs;
  if (std::string error = splitNewFiles(binds, newDirs); !error.empty()) return failWith(error);
  std::vector<int> overlayOf(binds.size(), -1);
  for (std::size_t k = 0; k < newDirs.size(); ++k) {
    binds.push_back({newDirs[k].hostDir, newDirs[k].target, false, true});
    overlayOf.push_back(static_cast<int>(k));
  }
  std::vector<std::size_t> order(binds.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Parents before children, so a nested bind lands on top of its enclosing one.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::count(binds[a].target.begin(), binds[a].target.end(), '/') <
           std::count(binds[b].target.begin(), binds[b].target.end(), '/');
  });
  {
    std::vector<ResolvedBind> sorted;
    std::vector<int> sortedOverlay;
    for (std::size_t i : order) {
      sorted.push_back(binds[i]);
      sortedOverlay.push_back(overlayOf[i]);
    }
    binds = std::move(sorted);
    overlayOf = std::move(sortedOverlay);
  }

  std::string scratchDir = "/work";
  std::string tmpDir = "/tmp";
  if (mode == Mode::NoNamespaces) {
    // No mount namespace: a host scratch directory stands in for /work and /tmp.
    for (const auto& b : binds) {
      if (b.host != b.target) return failWith("bind " + b.host + " -> " + b.target + " needs a mount namespace (unavailable here)");
    }
    if (!newDirs.empty())
      return failWith("new file " + newDirs[0].target + "/" + newDirs[0].files[0].rel +
                      " in a read-only bind needs a mount namespace (unavailable here)");
    char tmpl[] = "/tmp/greenlight-sandbox-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) return failWith(std::string("mkdtemp: ") + std::strerror(errno));
    out.hostScratch = tmpl;
    scratchDir = out.hostScratch + "/work";
    tmpDir = out.hostScratch + "/tmp";
    std::error_code ec;
    fs::create_directory(scratchDir, ec);
    fs::create_directory(tmpDir, ec);
    ::chmod(out.hostScratch.c_str(), 0700);
    if (!policy.scratchSource.empty()) {
      fs::copy(policy.scratchSource, scratchDir, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
      if (ec) {
        removeTree(out.hostScratch);
        return failWith("seed " + policy.scratchSource + ": " + ec.message());
      }
    }
  } else {
    const std::string old = kOldRoot;
    auto& ops = plan.mounts;
    auto dir = [&](const std::string& t, mode_t m) {
      MountOp op;
      op.kind = MountKind::Dir;
      op.target = t;
      op.mode = m;
      ops.push_back(std::move(op));
    };
    auto bind = [&](const std::string& host, const std::string& target, bool writable, bool isDir) {
      MountOp op;
      op.kind = MountKind::Bind;
      op.source = old + host;
      op.target = target;
      op.writable = writable;
      op.isDir = isDir;
      ops.push_back(std::move(op));
    };
    auto file = [&](const std::string& t, std::string data) {
      MountOp op;
      op.kind = MountKind::WriteFile;
      op.target = t;
      op.data = std::move(data);
      op.mode = 0644;
      ops.push_back(std::move(op));
    };
    auto link = [&](const std::string& t, std::string to) {
      MountOp op;
      op.kind = MountKind::Symlink;
      op.target = t;
      op.data = std::move(to);
      ops.push_back(std::move(op));
    };
    auto tmpfs = [&](const std::string& t, std::string options) {
      MountOp op;
      op.kind = MountKind::Tmpfs;
      op.target = t;
      op.data = std::move(options);
      ops.push_back(std::move(op));
    };
    plan.newRootOptions = "size=16m,nr_inodes=8192,mode=0755";

    for (const char* d : kSystemDirs) {
      struct stat st;
      if (::lstat(d, &st) != 0) continue;
      if (S_ISLNK(st.st_mode)) {
        std::error_code ec;
        link(d, fs::read_symlink(d, ec).string());
      } else if (S_ISDIR(st.st_mode)) {
        bind(d, d, false, true);
      }
    }
    dir("/etc", 0755);
    for (const MountOp& op : etcOps(false)) ops.push_back(op);
    if (policy.network) {
      for (const MountOp& op : etcOps(true)) ops.push_back(op);
    }
    auto bindDirIfPresent = [&](const char* d) {
      struct stat st;
      if (::stat(d, &st) == 0 && S_ISDIR(st.st_mode)) bind(d, d, false, true);
    };
    for (const char* d : kEtcBoundDirs) bindDirIfPresent(d);
    if (policy.network) {
      for (const char* d : kEtcNetBoundDirs) bindDirIfPresent(d);
    }
    file("/etc/passwd", kPasswd);
    file("/etc/group", kGroup);
    file("/etc/hosts", kHosts);
    file("/etc/hostname", "sandbox\n");

    dir("/dev", 0755);
    for (const char* d : {"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"}) {
      MountOp op;
      op.kind = MountKind::Bind;
      op.source = old + d;
      op.target = d;
      op.writable = true;
      op.isDir = false;
      op.device = true;
      ops.push_back(std::move(op));
    }
    link("/dev/fd", "/proc/self/fd");
    link("/dev/stdin", "/proc/self/fd/0");
    link("/dev/stdout", "/proc/self/fd/1");
    link("/dev/stderr", "/proc/self/fd/2");
    // POSIX semaphores and shm_open (multiprocessing) use /dev/shm: the sandbox's own /tmp.
    link("/dev/shm", "/tmp");

    dir("/proc", 0555);
    MountOp proc;
    proc.kind = MountKind::Proc;
    proc.target = "/proc";
    ops.push_back(std::move(proc));

    const std::string caps = "size=" + mb(policy.scratchSizeMb) + ",nr_inodes=65536";
    // In root mode the tmpfs is mounted in the initial user namespace (ids are host ids); in
    // user-namespace mode they are interpreted inside it.
    const uid_t owner = mode == Mode::RootThenUserNs ? plan.hostUid : kSandboxUid;
    const gid_t group = mode == Mode::RootThenUserNs ? plan.hostGid : kSandboxGid;
    dir("/tmp", 01777);
    tmpfs("/tmp", caps + ",mode=1777");
    dir("/work", 0755);
    tmpfs("/work", caps + ",mode=0755,uid=" + std::to_string(owner) + ",gid=" + std::to_string(group));
    if (!policy.scratchSource.empty()) {
      std::error_code ec;
      fs::path real = fs::canonical(policy.scratchSource, ec);
      if (ec || !fs::is_directory(real, ec)) return failWith("scratch source " + policy.scratchSource + ": not a directory");
      MountOp op;
      op.kind = MountKind::Seed;
      op.source = old + real.string();
      op.target = "/work";
      ops.push_back(std::move(op));
    }
    // Root mode: a nested bind's way in through a directory the dropped uid cannot search gets
    // an empty stand-in (PrivateParents.cpp).
    std::vector<std::vector<MountOp>> standIns(binds.size());
    std::vector<MountOp> seals;
    if (mode == Mode::RootThenUserNs) {
      std::vector<PlannedBind> planned;
      for (const auto& b : binds) planned.push_back({b.host, b.target});
      planPrivateParents(planned, plan.hostUid, plan.hostGid, standIns, seals);
    }
    std::vector<MountOp> overlays;
    MountOp detach;
    if (std::string error = planNewFiles(newDirs, ops, overlays, detach); !error.empty()) return failWith(error);
    for (std::size_t i = 0; i < binds.size(); ++i) {
      const auto& b = binds[i];
      for (const MountOp& op : standIns[i]) ops.push_back(op);
      addParents(b.target, ops);
      if (overlayOf[i] >= 0) {
        ops.push_back(overlays[static_cast<std::size_t>(overlayOf[i])]);
      } else {
        bind(b.host, b.target, b.writable, b.isDir);
      }
    }
    if (!newDirs.empty()) ops.push_back(detach);
    for (MountOp& op : seals) ops.push_back(std::move(op));
  }

  if (std::string error = planExec(policy, scratchDir, tmpDir, plan); !error.empty()) return failWith(error);
  const std::string& argv0 = policy.argv[0];

  // rlimits.
  auto lim = [&](int res, rlim_t soft, rlim_t hard) { plan.rlimits.push_back({res, soft, hard}); };
  rlim_t cpu = static_cast<rlim_t>(std::ceil(policy.cpuLimitSec));
  lim(RLIMIT_CPU, cpu, cpu + 1);
  // The memory limit itself is the supervisor's (Execution.cpp checkMemory: resident memory,
  // sampled). RLIMIT_DATA counts address space a process reserves but may never touch (every
  // thread's stack), so it is set far above: a backstop for an allocation faster than sampling.
  const rlim_t limitMb = static_cast<rlim_t>(policy.memoryLimitMb);
  rlim_t data = std::max<rlim_t>(limitMb * 4, limitMb + 2048) << 20;
  lim(RLIMIT_DATA, data, data);
  rlim_t fsize = static_cast<rlim_t>(policy.fileSizeLimitMb) << 20;
  lim(RLIMIT_FSIZE, fsize, fsize);
  lim(RLIMIT_NOFILE, 1024, 1024);
  lim(RLIMIT_CORE, 0, 0);
  rlim_t stack = std::min<rlim_t>(8u << 20, data);
  lim(RLIMIT_STACK, stack, stack);
  if (mode == Mode::NoNamespaces) {
    // Without a user namespace NPROC counts every process of this host uid: add what it
    // already runs.
    int existing = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
      struct stat st;
      if (::stat(e.path().c_str(), &st) == 0 && st.st_uid == plan.hostUid && std::isdigit(e.path().filename().string()[0]))
        ++existing;
    }
    lim(RLIMIT_NPROC, static_cast<rlim_t>(policy.processes + existing), static_cast<rlim_t>(policy.processes + existing));
  } else {
    // +1: pid 1 (the init) is counted too.
    lim(RLIMIT_NPROC, static_cast<rlim_t>(policy.processes + 1), static_cast<rlim_t>(policy.processes + 1));
  }

  // Landlock.
  int abi = landlockAbi();
  plan.landlockAbi = abi;
  if (abi > 0) {
    std::uint64_t write = landlock::writeRights(abi);
    plan.landlockHandledFs = write;
    if (!policy.network && abi >= 4) plan.landlockHandledNet = landlock::kNetBindTcp | landlock::kNetConnectTcp;
    if (abi >= 6) plan.landlockScoped = landlock::kScopeSignal | landlock::kScopeAbstractUnixSocket;
    auto rule = [&](const std::string& p, std::uint64_t access) { plan.landlockRules.push_back({p, access}); };
    const std::uint64_t devWrite = landlock::kWriteFile | (abi >= 3 ? landlock::kTruncate : 0);
    if (mode == Mode::NoNamespaces) {
      plan.landlockHandledFs |= landlock::kReadRights;
      for (const char* d : kSystemDirs) rule(d, landlock::kReadRights);
      for (const char* d : {"/etc", "/proc"}) rule(d, landlock::kReadRights);
      for (const char* d : {"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"}) rule(d, landlock::kReadRights | devWrite);
      rule(out.hostScratch, landlock::kReadRights | write);
      for (const auto& b : binds) rule(b.host, landlock::kReadRights | (b.writable ? write : 0));
    } else {
      rule("/work", write);
      rule("/tmp", write);
      rule("/dev", devWrite);
      for (const auto& b : binds) {
        if (b.writable) rule(b.target, write);
      }
    }
  }
  (void)root;

  // A profile compiled earlier in this process is used directly; otherwise the caller
  // compiles it after clone(), overlapping with the child's setup (see LaunchPlan).
  plan.profile = resolveProfile(policy.profile, argv0);
  plan.seccomp = cachedSeccompProgram(plan.profile, policy.network);
  out.ok = true;
  return out;
}

}  // namespace greenlight::sandbox::detail
