// Spawn-to-exit cost of the in-process sandbox API against bare fork+exec, for /bin/true (or
// any command given after "--"). Prints medians and the overhead, twice: cold (every run
// builds its sandbox) and with spares (keepSpares(true): the sandbox was built ahead, the
// run only sends its request). Run by run-bench.sh.
//
//   sandbox_bench [-n RUNS] [--pause-ms MS] [-- CMD ARGS...]
//
// --pause-ms (default 5): idle time between iterations. Runs on the interactive path come
// seconds apart (a test run per pause in typing), which is what lets the spare for the next
// run get ready; back to back (--pause-ms 0) the next run may find its spare still being built
// and wait for the rest of its set-up.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "sandbox/Sandbox.h"

namespace sb = greenlight::sandbox;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// CPU time (user+system) of this process (all its threads) and its reaped children, in ms:
// unlike wall time it is not inflated by other load on the machine.
double cpuNowMs() {
  auto ms = [](const timeval& t) { return t.tv_sec * 1000.0 + t.tv_usec / 1000.0; };
  rusage self{}, kids{};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &kids);
  return ms(self.ru_utime) + ms(self.ru_stime) + ms(kids.ru_utime) + ms(kids.ru_stime);
}

double forkExecMs(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  auto t0 = Clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Series {
  std::vector<double> bare, sandboxed;
  double bareCpu = 0, sandboxCpu = 0;
  int failures = 0;
};

// Interleaved, so that machine noise hits both series alike. The sandbox's CPU is counted
// from its run to the next one, so a spare built in the background is charged to it.
Series measure(const sb::Policy& policy, const std::vector<std::string>& cmd, int runs, int pauseMs) {
  Series s;
  for (int i = 0; i < runs; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(pauseMs));
    double c0 = cpuNowMs();
    s.bare.push_back(forkExecMs(cmd));
    double c1 = cpuNowMs();
    std::this_thread::sleep_for(std::chrono::milliseconds(pauseMs));
    auto t0 = Clock::now();
    sb::Verdict v = sb::run(policy);
    s.sandboxed.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (v.status != sb::Status::Ok) ++s.failures;
    double c2 = cpuNowMs();
    s.bareCpu += c1 - c0;
    s.sandboxCpu += c2 - c1;
  }
  return s;
}

void report(const char* label, const Series& s, int runs) {
  double b = median(s.bare), r = median(s.sandboxed);
  std::printf("%s\n", label);
  std::printf("  bare fork+exec      median %.3f ms\n", b);
  std::printf("  sandbox::run()      median %.3f ms\n", r);
  std::printf("  overhead            median %.3f ms (target <= 1.0 ms)\n", r - b);
  std::printf("  cpu per run         bare %.3f ms, sandbox %.3f ms (user+sys, this process and children)\n",
              s.bareCpu / runs, s.sandboxCpu / runs);
  if (s.failures > 0) std::printf("  FAILED runs         %d\n", s.failures);
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 200, pauseMs = 5;
  std::vector<std::string> cmd = {"/bin/true"};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--pause-ms") == 0 && i + 1 < argc) {
      pauseMs = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--") == 0) {
      cmd.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  if (runs < 5 || pauseMs < 0 || cmd.empty()) {
    std::fprintf(stderr, "usage: sandbox_bench [-n RUNS>=5] [--pause-ms MS] [-- CMD ARGS...]\n");
    return 2;
  }
  sb::Policy policy;
  policy.argv = cmd;
  // Warm-up: the seccomp profile is compiled and /etc cached once per process.
  for (int i = 0; i < 5; ++i) {
    auto v = sb::run(policy);
    if (v.status != sb::Status::Ok) {
      std::fprintf(stderr, "sandbox run failed: %s %s\n", std::string(sb::statusName(v.status)).c_str(),
                   v.setupError.c_str());
      return 1;
    }
    forkExecMs(cmd);
  }
  std::printf("runs: %d  command: %s  pause between runs: %d ms\n", runs, cmd[0].c_str(), pauseMs);
  Series cold = measure(policy, cmd, runs, pauseMs);
  report("cold (every run builds its sandbox)", cold, runs);

  sb::keepSpares(true);
  sb::run(policy);  // leaves the first spare
  sb::SpareStats before = sb::spareStats();
  Series warm = measure(policy, cmd, runs, pauseMs);
  sb::SpareStats after = sb::spareStats();
  report("spares (keepSpares(true): built ahead, the run sends its request)", warm, runs);
  std::printf("  spares used         %lu of %d runs (built %lu, discarded %lu)\n", after.used - before.used, runs,
              after.built - before.built, after.discarded - before.discarded);
  return cold.failures + warm.failures > 0 ? 1 : 0;
}
