// The public API's contract: Execution::start() is non-blocking and several sandboxes can be
// supervised from one loop; run() honours cancelFd; stdin data; streaming output; setup errors
// name the step; probeIsolation().
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "TestSupport.h"
#include "sandbox/Sandbox.h"
#include "sandbox/SeccompCompile.h"
#include "sandbox/SeccompProfiles.h"

using greenlight::sandbox::Execution;
using greenlight::sandbox::Policy;
using greenlight::sandbox::run;
using greenlight::sandbox::Status;
using greenlight::sandbox::statusName;
using greenlight::sandbox::Verdict;
using namespace gltest;

namespace {
bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }
}  // namespace

TEST_CASE("statusName matches the Verdict JSON spelling", "[api]") {
  CHECK(statusName(Status::Ok) == "ok");
  CHECK(statusName(Status::ExitNonzero) == "exit_nonzero");
  CHECK(statusName(Status::FileSizeLimit) == "file_size_limit");
  CHECK(statusName(Status::SyscallViolation) == "syscall_violation");
  CHECK(statusName(Status::SetupError) == "setup_error");
}

TEST_CASE("exit codes and signals are reported", "[api]") {
  Policy p = policyFor({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::ExitNonzero);
  CHECK(v.exitCode == 3);
  CHECK(v.stdoutData == "out\n");
  CHECK(v.stderrData == "err\n");
  CHECK(v.wallMs > 0);
  CHECK(v.maxRssKb > 0);
  Verdict k = run(policyFor({"/bin/sh", "-c", "kill -TERM $$"}));
  INFO(describe(k));
  CHECK(k.status == Status::Signaled);
  CHECK(k.signal == 15);
}

TEST_CASE("stdin data reaches the command", "[api]") {
  Policy p = policyFor({"/bin/cat"});
  p.stdinData = std::string(200000, 'a') + "END";
  Verdict v = run(p);
  CHECK(v.status == Status::Ok);
  CHECK(v.stdoutData == p.stdinData);
}

TEST_CASE("many sandboxes are supervised from one poll loop, start() does not block", "[api]") {
  std::vector<std::unique_ptr<Execution>> runs;
  for (int i = 0; i < 4; ++i) {
    Policy p = policyFor({"/bin/sh", "-c", "sleep 0.3; echo done " + std::to_string(i)});
    runs.push_back(Execution::start(p));
  }
  // All four are running at once: none of the starts waited for its command.
  for (auto& r : runs) CHECK_FALSE(r->finished());
  for (;;) {
    bool all = true;
    std::vector<pollfd> fds;
    int timeout = 1000;
    for (auto& r : runs) {
      if (r->step()) continue;
      all = false;
      for (int fd : r->watchFds()) fds.push_back({fd, POLLIN, 0});
      timeout = std::min(timeout, r->msUntilDeadline());
    }
    if (all) break;
    ::poll(fds.data(), fds.size(), timeout);
  }
  for (int i = 0; i < 4; ++i) {
    INFO(describe(runs[static_cast<std::size_t>(i)]->verdict()));
    CHECK(runs[static_cast<std::size_t>(i)]->verdict().status == Status::Ok);
    CHECK(runs[static_cast<std::size_t>(i)]->verdict().stdoutData == "done " + std::to_string(i) + "\n");
  }
}

TEST_CASE("cancelFd and Execution::kill stop the whole tree at once", "[api]") {
  int efd = ::eventfd(0, EFD_CLOEXEC);
  std::thread canceller([efd] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::uint64_t one = 1;
    ssize_t ignored = ::write(efd, &one, sizeof one);
    (void)ignored;
  });
  Verdict v = run(policyFor({"/bin/sleep", "30"}), efd);
  canceller.join();
  ::close(efd);
  INFO(describe(v));
  // `cancelled` says the cancellation ended it (not the command's end, nor its time limit);
  // how long the kill took is not asserted (no timing checks: a loaded machine varies).
  CHECK(v.cancelled);
  CHECK(v.status == Status::Timeout);

  auto e = Execution::start(policyFor({"/bin/sleep", "30"}));
  e->kill();
  while (!e->step()) {
    std::vector<pollfd> fds;
    for (int fd : e->watchFds()) fds.push_back({fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 100);
  }
  CHECK(e->verdict().cancelled);
}

TEST_CASE("streamed output goes to onOutput, still capped", "[api]") {
  Policy p = policyFor({"/bin/sh", "-c", "echo a; echo b >&2"});
  std::string out, err;
  p.onOutput = [&](int stream, std::string_view data) { (stream == 1 ? out : err).append(data); };
  Verdict v = run(p);
  CHECK(v.status == Status::Ok);
  CHECK(out == "a\n");
  CHECK(err == "b\n");
  CHECK(v.stdoutData.empty());
}

TEST_CASE("setup errors name the step", "[api]") {
  Verdict missing = run(policyFor({"no-such-command-xyz"}));
  CHECK(missing.status == Status::SetupError);
  CHECK(contains(missing.setupError, "exec: execve(no-such-command-xyz): No such file or directory"));
  Policy badBind = policyFor({"/bin/true"});
  badBind.binds.push_back({"/nonexistent/path", "", false});
  Verdict b = run(badBind);
  CHECK(b.status == Status::SetupError);
  CHECK(contains(b.setupError, "plan: bind /nonexistent/path"));
  Policy badWorkdir = policyFor({"/bin/true"});
  badWorkdir.workdir = "/does/not/exist";
  Verdict w = run(badWorkdir);
  CHECK(w.status == Status::SetupError);
  CHECK(contains(w.setupError, "process: chdir(/does/not/exist): No such file or directory"));
  Verdict empty = run(Policy{});
  CHECK(empty.status == Status::SetupError);
}

TEST_CASE("probeIsolation reports the host's layers", "[api]") {
  const auto& iso = greenlight::sandbox::probeIsolation();
  CHECK(iso.seccomp);
  CHECK_FALSE(iso.cgroup);
  if (!iso.degraded) {
    CHECK(iso.userNs);
    CHECK(iso.pidNs);
    CHECK(iso.missing.empty());
  }
  Verdict v = run(policyFor({"/bin/true"}));
  CHECK(v.isolation.userNs == iso.userNs);
  CHECK(v.isolation.netNs);
  CHECK(v.isolation.landlockAbi == iso.landlockAbi);
}

// The filters baked in at build time are exactly what libseccomp compiles from today's lists:
// a stale table would silently run code under yesterday's policy.
TEST_CASE("the baked seccomp filters equal a fresh libseccomp compile", "[api][seccomp]") {
  using greenlight::sandbox::Profile;
  namespace detail = greenlight::sandbox::detail;
  for (Profile p : {Profile::Auto, Profile::Native, Profile::Python, Profile::Node, Profile::Compiler}) {
    for (bool network : {false, true}) {
      CAPTURE(detail::profileName(p), network);
      std::string error;
      std::vector<sock_filter> fresh = detail::compileSeccompFilter(p, network, &error);
      REQUIRE(error.empty());
      REQUIRE(fresh.size() > 20);
      const sock_fprog* baked = detail::cachedSeccompProgram(p, network);
      REQUIRE(baked != nullptr);  // never needs a run-time compile on the build machine
      REQUIRE(baked->len == fresh.size());
      CHECK(std::memcmp(baked->filter, fresh.data(), fresh.size() * sizeof(sock_filter)) == 0);
    }
  }
  // Network changes the program (AF_INET/AF_INET6 sockets).
  CHECK(detail::cachedSeccompProgram(Profile::Python, true)->len !=
        detail::cachedSeccompProgram(Profile::Python, false)->len);
}

// glibc's stdio list lock (exported, as the stdio functions of other libraries take it too).
extern "C" void _IO_list_lock();
extern "C" void _IO_list_unlock();

// The sandbox's pid 1 is a clone of one thread of this (multithreaded) process: a lock that
// another thread holds at the moment of the clone stays held in pid 1 for ever. glibc's fork()
// there (ASan builds spawned the payload with a copy, not vfork) took the stdio list lock that
// any fopen/fclose of another thread takes, and pid 1 hung until the run's deadline. Here
// another thread holds that lock while the sandbox starts, then lets it go.
TEST_CASE("a run started while another thread holds libc's stdio lock does not hang", "[api]") {
  for (int i = 0; i < 3; ++i) {
    std::atomic<bool> held{false};
    std::thread holder([&held] {
      _IO_list_lock();
      held = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      _IO_list_unlock();
    });
    while (!held) std::this_thread::yield();
    Policy p = policyFor({"/bin/sh", "-c", "echo ran"});
    p.timeLimitSec = 10;  // a hang ends here; a run takes milliseconds
    Verdict v = run(p);
    holder.join();
    INFO(describe(v));
    CHECK(v.status == Status::Ok);
    CHECK(v.stdoutData == "ran\n");
  }
}
