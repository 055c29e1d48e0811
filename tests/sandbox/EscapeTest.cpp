// The escape-and-limits suite. Every case asserts the verdict AND that the host is untouched.
// Runs as whoever runs it: ctest runs it as root and again as a throw-away unprivileged user.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "sandbox/Sandbox.h"

using greenlight::sandbox::Policy;
using greenlight::sandbox::run;
using greenlight::sandbox::Status;
using greenlight::sandbox::Verdict;
using namespace gltest;

namespace {

bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

}  // namespace

TEST_CASE("network to a host listener on 127.0.0.1 and ::1 is refused and named", "[escape][network]") {
  for (bool v6 : {false, true}) {
    TcpListener listener(v6);
    REQUIRE(listener.ok());
    std::string host = v6 ? "::1" : "127.0.0.1";
    for (auto policy : {pyPolicy({"net", host, std::to_string(listener.port())}),
                        nodePolicy({"net", host, std::to_string(listener.port())})}) {
      Verdict v = run(policy);
      INFO(describe(v));
      CHECK(v.status == Status::SyscallViolation);
      CHECK(v.syscall == "socket");
      CHECK_FALSE(contains(v.stdoutData, "CONNECTED"));
      CHECK_FALSE(listener.gotConnection());
    }
  }
}

TEST_CASE("with network allowed the sandbox still has its own (empty) network namespace unless asked", "[escape][network]") {
  TcpListener listener(false);
  REQUIRE(listener.ok());
  Policy p = pyPolicy({"net", "127.0.0.1", std::to_string(listener.port())});
  p.network = true;
  Verdict v = run(p);
  INFO(describe(v));
  // --net shares the host network: the connection must now work (proves the refusal above
  // is the sandbox's doing, not a broken probe).
  CHECK(v.status == Status::Ok);
  CHECK(contains(v.stdoutData, "CONNECTED"));
  CHECK(listener.gotConnection());
}

TEST_CASE("DNS does not resolve", "[escape][network]") {
  Verdict v = run(pyPolicy({"dns"}));
  INFO(describe(v));
  CHECK(v.status != Status::Ok);
  CHECK_FALSE(contains(v.stdoutData, "RESOLVED"));
}

TEST_CASE("a secret file outside the sandbox and $HOME/.ssh cannot be read", "[escape][files]") {
  TempDir dir;
  std::string secret = dir.file("secret.txt", "TOP-SECRET-VALUE");
  std::string key = dir.file("home/.ssh/id_ed25519", "PRIVATE-KEY-MATERIAL");
  const char* home = std::getenv("HOME");
  Verdict v = run(pyPolicy({"read", secret, key, "~/.ssh/id_ed25519", std::string(home ? home : "/root") + "/.ssh/id_rsa",
                            "/etc/shadow", "/root/.bash_history"}));
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK_FALSE(contains(v.stdoutData, "TOP-SECRET-VALUE"));
  CHECK_FALSE(contains(v.stdoutData, "PRIVATE-KEY"));
  CHECK_FALSE(contains(v.stdoutData, "READ"));
  CHECK(readFile(secret) == "TOP-SECRET-VALUE");
}

TEST_CASE("the parent's environ and API-key variables never enter", "[escape][env]") {
  ::setenv("OPENAI_API_KEY", "sk-test-greenlight-secret", 1);
  ::setenv("ANTHROPIC_API_KEY", "sk-ant-test-greenlight-secret", 1);
  Verdict v = run(pyPolicy({"environ", std::to_string(::getpid())}));
  Verdict n = run(nodePolicy({"env"}));
  ::unsetenv("OPENAI_API_KEY");
  ::unsetenv("ANTHROPIC_API_KEY");
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK(contains(v.stdoutData, "ENV PATH"));
  CHECK_FALSE(contains(v.stdoutData, "greenlight-secret"));
  CHECK_FALSE(contains(v.stdoutData, "API_KEY"));
  CHECK(n.status == Status::Ok);
  CHECK_FALSE(contains(n.stdoutData, "greenlight-secret"));
}

TEST_CASE("writes to host /tmp, /dev/shm and a read-only workspace do not reach the host", "[escape][files]") {
  TempDir workspace;
  std::string kept = workspace.file("src.py", "original");
  std::string token = uniqueToken("gl-escape");
  Policy p = pyPolicy({"write", "/tmp/" + token, "/dev/shm/" + token, kept, workspace.path() + "/new.txt",
                       "/usr/" + token, "/etc/" + token});
  p.binds.push_back({workspace.path(), "", false});
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK_FALSE(fileExists("/tmp/" + token));
  CHECK_FALSE(fileExists("/dev/shm/" + token));
  CHECK(readFile(kept) == "original");
  CHECK_FALSE(fileExists(workspace.path() + "/new.txt"));
  CHECK_FALSE(fileExists("/usr/" + token));
  CHECK(contains(v.stdoutData, "DENIED " + kept));
  // Node too.
  Policy n = nodePolicy({"write", kept, "/tmp/" + token + "-node"});
  n.binds.push_back({workspace.path(), "", false});
  Verdict nv = run(n);
  INFO(describe(nv));
  CHECK(nv.status == Status::Ok);
  CHECK(readFile(kept) == "original");
  CHECK_FALSE(fileExists("/tmp/" + token + "-node"));
}

TEST_CASE("a writable bind is writable, and only it", "[files]") {
  TempDir out;
  // Under root the sandbox runs as an unprivileged host uid: the directory must let it write.
  ::chmod(out.path().c_str(), 0777);
  Policy p = pyPolicy({"write", out.path() + "/result.txt"});
  p.binds.push_back({out.path(), "", true});
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK(readFile(out.path() + "/result.txt") == "ESCAPED");
}

TEST_CASE("no state survives to the next run", "[escape][files]") {
  Verdict first = run(pyPolicy({"persist-write"}));
  INFO(describe(first));
  CHECK(contains(first.stdoutData, "WROTE /work/state.txt"));
  Verdict second = run(pyPolicy({"persist-check"}));
  INFO(describe(second));
  CHECK(contains(second.stdoutData, "GONE /work/state.txt"));
  CHECK(contains(second.stdoutData, "GONE /tmp/state.txt"));
}

TEST_CASE("fork bombs stop at the process limit and leave nothing behind", "[limits]") {
  for (auto base : {pyPolicy({"fork-bomb"}), cPolicy({"fork-bomb"})}) {
    Policy p = base;
    p.processes = 16;
    p.timeLimitSec = 2;
    Verdict v = run(p);
    INFO(describe(v));
    CHECK(v.status == Status::ProcessLimit);
  }
  // A sentinel on the host is still fine (the host can still fork).
  ProcessResult r = runProcess({"/bin/true"});
  CHECK(r.exitCode == 0);
}

TEST_CASE("a memory bomb is a memory_limit", "[limits]") {
  for (auto base : {pyPolicy({"memory-bomb"}), nodePolicy({"memory"})}) {
    Policy p = base;
    p.memoryLimitMb = 256;
    Verdict v = run(p);
    INFO(describe(v));
    CHECK(v.status == Status::MemoryLimit);
  }
}

TEST_CASE("the memory limit is resident memory, not reserved address space", "[limits]") {
  // 120 threads reserve ~1 GB of stacks under a 256 MB limit: healthy, it must pass.
  Policy threads = pyPolicy({"many-threads", "120"});
  threads.memoryLimitMb = 256;
  threads.processes = 256;
  Verdict t = run(threads);
  INFO(describe(t));
  CHECK(t.status == Status::Ok);
  CHECK(contains(t.stdoutData, "THREADS OK 120"));
  // Memory touched and held over the limit is stopped even though no allocation is refused.
  Policy held = pyPolicy({"hold-memory", "400"});
  held.memoryLimitMb = 256;
  Verdict h = run(held);
  INFO(describe(h));
  CHECK(h.status == Status::MemoryLimit);
  CHECK(!contains(h.stdoutData, "HELD"));
  // The same program under the limit runs to its end.
  Policy under = pyPolicy({"hold-memory", "64"});
  under.memoryLimitMb = 256;
  Verdict u = run(under);
  INFO(describe(u));
  CHECK(u.status == Status::Ok);
  CHECK(contains(u.stdoutData, "HELD"));
}

TEST_CASE("the supervisor's own memory is not charged to the payload before it execs", "[limits]") {
  // The payload starts as a copy of the supervisor (vfork of pid 1, itself a fork; a full clone
  // under ASan) and is in the sandbox tree until its execve: a sample in that window read the
  // supervisor's resident pages as the payload's and stopped a two-line program with
  // memory_limit (the ASan lane's corpus, whose test process holds hundreds of MB).
  std::vector<char> ballast(400u << 20);
  for (std::size_t i = 0; i < ballast.size(); i += 4096) ballast[i] = static_cast<char>(i);
  int stopped = 0;
  std::string last;
  for (int i = 0; i < 40; ++i) {
    Policy p = cPolicy({"hello"});
    p.memoryLimitMb = 256;
    Verdict v = run(p);
    if (v.status != Status::Ok) {
      ++stopped;
      last = describe(v);
    }
  }
  INFO(last);
  CHECK(stopped == 0);
  CHECK(ballast[4096] == static_cast<char>(4096));
}

TEST_CASE("stack overflow is a SIGSEGV, abort a SIGABRT", "[limits]") {
  Verdict v = run(cPolicy({"stack"}));
  INFO(describe(v));
  CHECK(v.status == Status::Signaled);
  CHECK(v.signal == SIGSEGV);
  Verdict a = run(cPolicy({"abort"}));
  INFO(describe(a));
  CHECK(a.status == Status::Signaled);
  CHECK(a.signal == SIGABRT);
}

TEST_CASE("a CPU spin is a cpu_limit", "[limits]") {
  Policy p = pyPolicy({"cpu-spin"});
  p.cpuLimitSec = 1;
  // Wall time only as a backstop: on a loaded machine a second of CPU can take many seconds.
  p.timeLimitSec = 120;
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::CpuLimit);
  // The payload's CPU time is reported (not zero, not init's). Not "about the limit": with the
  // host's cores oversubscribed, SIGXCPU at the 1 s limit came with 879-891 ms of accounted CPU
  // (load 25 on 2 cores, 3 runs of 6 parallel suites).
  CHECK(v.cpuMs >= 500);
}

TEST_CASE("sleeping past the deadline is a timeout", "[limits]") {
  Policy p = pyPolicy({"sleep", "30"});
  p.timeLimitSec = 0.5;
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::Timeout);
  CHECK_FALSE(contains(v.stdoutData, "WOKE"));  // cut short: the 30 s sleep never ended
}

TEST_CASE("an output flood is an output_limit with truncated output", "[limits]") {
  Policy p = pyPolicy({"flood"});
  p.outputLimitBytes = 64 * 1024;
  Verdict v = run(p);
  INFO(describe(v).substr(0, 300));
  CHECK(v.status == Status::OutputLimit);
  CHECK(v.stdoutTruncated);
  CHECK(v.stdoutData.size() == 64 * 1024);
}

TEST_CASE("a giant file is a file_size_limit", "[limits]") {
  Policy p = pyPolicy({"giant-file"});
  p.fileSizeLimitMb = 4;
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::FileSizeLimit);
  CHECK_FALSE(contains(v.stdoutData, "WROTE GIANT"));
}

TEST_CASE("kill(-1, SIGKILL) only reaches the sandbox", "[escape][process]") {
  pid_t sentinel = ::fork();
  if (sentinel == 0) {
    ::execl("/bin/sleep", "sleep", "30", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  Verdict v = run(cPolicy({"kill-all"}));
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK(::kill(sentinel, 0) == 0);  // still alive
  int status = 0;
  CHECK(::waitpid(sentinel, &status, WNOHANG) == 0);
  ::kill(sentinel, SIGKILL);
  ::waitpid(sentinel, &status, 0);
}

TEST_CASE("a daemonised grandchild does not outlive the run", "[escape][process]") {
  std::string token = uniqueToken("gl-daemon");
  Verdict v = run(cPolicy({"daemon", token}));
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK(contains(v.stdoutData, "DAEMONIZED"));
  CHECK_FALSE(processWithTokenAlive(token));
}

TEST_CASE("ptrace, mount, unshare, clone(CLONE_NEWUSER), TIOCSTI and io_uring are refused and named", "[escape][seccomp]") {
  struct Case {
    std::vector<std::string> args;
    std::string syscall, leak;
  };
  for (const Case& c : std::vector<Case>{{{"ptrace-parent"}, "ptrace", "ATTACHED"},
                                         {{"mount"}, "mount", "MOUNTED"},
                                         {{"unshare"}, "unshare", "UNSHARED"},
                                         {{"clone-newuser"}, "clone", "CLONED"},
                                         {{"tiocsti"}, "ioctl", "INJECTED"},
                                         {{"tiocsti", "high-bits"}, "ioctl", "INJECTED"},
                                         {{"io_uring"}, "io_uring_setup", "IO_URING"}}) {
    Verdict v = run(cPolicy(c.args));
    INFO(c.args[0] << ": " << describe(v));
    CHECK(v.status == Status::SyscallViolation);
    CHECK(v.syscall == c.syscall);
    CHECK_FALSE(contains(v.stdoutData, c.leak));
  }
}

TEST_CASE("clone3 gets ENOSYS so libc falls back to clone", "[seccomp]") {
  Verdict v = run(cPolicy({"clone3"}));
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
}

TEST_CASE("a foreign-architecture system call is a syscall_violation", "[seccomp]") {
  Verdict v = run(cPolicy({"x32"}));
  INFO(describe(v));
  CHECK(v.status == Status::SyscallViolation);
  CHECK(v.syscall == "x32 getpid");
  CHECK_FALSE(contains(v.stdoutData, "X32"));
}

TEST_CASE("bubblewrap try-syscall style: dangerous calls are refused by name", "[seccomp]") {
  for (const char* name : {"bpf", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd", "umount2",
                           "pivot_root", "chroot", "setns", "kexec_load", "init_module", "finit_module",
                           "delete_module", "process_vm_readv", "process_vm_writev", "open_by_handle_at", "reboot",
                           "swapon", "acct", "settimeofday", "move_mount", "fsopen"}) {
    Verdict v = run(cPolicy({"try", name}));
    INFO(name << ": " << describe(v));
    CHECK(v.status == Status::SyscallViolation);
    CHECK(v.syscall == name);
    CHECK_FALSE(contains(v.stdoutData, "SYSCALL"));
  }
}

TEST_CASE("symlink and hardlink tricks do not leave scratch", "[escape][files]") {
  TempDir dir;
  std::string secret = dir.file("secret.txt", "LINKED-SECRET");
  Verdict v = run(pyPolicy({"symlinks", secret}));
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK_FALSE(contains(v.stdoutData, "LINKED-SECRET"));
  Verdict h = run(cPolicy({"hardlink", secret}));
  INFO(describe(h));
  CHECK(h.status == Status::Ok);
  CHECK_FALSE(contains(h.stdoutData, "LINKED-SECRET"));
  CHECK(readFile(secret) == "LINKED-SECRET");
}

TEST_CASE("setuid binaries do not raise privileges", "[escape][process]") {
  Verdict v = run(pyPolicy({"setuid"}));
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK(contains(v.stdoutData, "UID 1000 1000"));
  CHECK(contains(v.stdoutData, "NOSUID True"));
  CHECK_FALSE(contains(v.stdoutData, "SU 0 0"));
}

TEST_CASE("piston/codejail style: removing system files fails, the host keeps them", "[escape][files]") {
  Verdict v = run(pyPolicy({"remove-system"}));
  INFO(describe(v));
  CHECK(contains(v.stdoutData, "DENIED /usr/bin/true"));
  CHECK(contains(v.stdoutData, "DENIED /etc/passwd"));
  CHECK(fileExists("/usr/bin/true"));
  CHECK(fileExists("/etc/passwd"));
}

TEST_CASE("as root, a project under a private (0700) directory is reached without widening it", "[escape][files][root]") {
  if (!isRoot()) {
    WARN("skipped: the private-parent case is root's (the sandbox drops to uid 65534)");
    return;
  }
  TempDir top;
  const std::string home = top.path() + "/home", project = home + "/proj";
  top.file("home/secret.txt", "SECRET");
  top.file("home/proj/mod.py", "VALUE = 41\n");
  REQUIRE(::chmod(home.c_str(), 0700) == 0);
  REQUIRE(::chmod(project.c_str(), 0755) == 0);
  // Reads the project, lists the private home, tries its secret and writes into the stand-in.
  const std::string script =
      "import os, sys\n"
      "home, proj = sys.argv[1], sys.argv[2]\n"
      "print('UID', os.getuid())\n"
      "print('PROJECT', open(proj + '/mod.py').read().strip())\n"
      "print('HOME', sorted(os.listdir(home)))\n"
      "for what, f in (('READ', lambda: open(home + '/secret.txt').read()),\n"
      "                ('WRITE', lambda: open(home + '/new.txt', 'w').write('x')),\n"
      "                ('MKDIR', lambda: os.mkdir(home + '/d'))):\n"
      "    try:\n"
      "        f(); print(what, 'DONE')\n"
      "    except OSError as e:\n"
      "        print(what, 'REFUSED', type(e).__name__)\n";
  // The project alone (its parents made on the new root), and nested in the bound home (the
  // way in covered by an empty read-only stand-in): the same view.
  for (bool homeBound : {false, true}) {
    Policy p;
    p.argv = {"/usr/bin/python3", "-c", script, home, project};
    p.workdir = project;
    if (homeBound) p.binds.push_back({home, "", false});
    p.binds.push_back({project, "", false});
    Verdict v = run(p);
    INFO("home bound: " << homeBound << "\n" << describe(v));
    CHECK(v.status == Status::Ok);
    CHECK(contains(v.stdoutData, "UID 1000"));
    CHECK(contains(v.stdoutData, "PROJECT VALUE = 41"));
    CHECK(contains(v.stdoutData, "HOME ['proj']"));
    CHECK(contains(v.stdoutData, "READ REFUSED"));
    CHECK(contains(v.stdoutData, "WRITE REFUSED"));
    CHECK(contains(v.stdoutData, "MKDIR REFUSED"));
    CHECK_FALSE(contains(v.stdoutData, "SECRET"));
    CHECK_FALSE(fileExists(home + "/new.txt"));
    struct stat st{};
    CHECK((::stat(home.c_str(), &st) == 0 && (st.st_mode & 07777) == 0700));  // nothing widened
  }
}
