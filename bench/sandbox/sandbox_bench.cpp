// Spawn-to-exit cost of the in-process sandbox API against bare fork+exec, for /bin/true (or
// any command given after "--"). Prints medians and the overhead; run by run-bench.sh.
//
//   sandbox_bench [-n RUNS] [-- CMD ARGS...]
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sandbox/Sandbox.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// CPU time (user+system) of this process and its reaped children, in ms: unlike wall time it
// is not inflated by other load on the machine.
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

}  // namespace

int main(int argc, char** argv) {
  int runs = 200;
  std::vector<std::string> cmd = {"/bin/true"};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--") == 0) {
      cmd.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  if (runs < 5 || cmd.empty()) {
    std::fprintf(stderr, "usage: sandbox_bench [-n RUNS>=5] [-- CMD ARGS...]\n");
    return 2;
  }
  greenlight::sandbox::Policy policy;
  policy.argv = cmd;
  // Warm-up: the seccomp profile is compiled and /etc cached once per process.
  for (int i = 0; i < 5; ++i) {
    auto v = greenlight::sandbox::run(policy);
    if (v.status != greenlight::sandbox::Status::Ok) {
      std::fprintf(stderr, "sandbox run failed: %s %s\n", std::string(greenlight::sandbox::statusName(v.status)).c_str(),
                   v.setupError.c_str());
      return 1;
    }
    forkExecMs(cmd);
  }
  std::vector<double> bare, sandboxed;
  double bareCpu = 0, sandboxCpu = 0;
  // Interleaved, so that machine noise hits both series alike.
  for (int i = 0; i < runs; ++i) {
    double c0 = cpuNowMs();
    bare.push_back(forkExecMs(cmd));
    double c1 = cpuNowMs();
    auto t0 = Clock::now();
    greenlight::sandbox::run(policy);
    sandboxed.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    double c2 = cpuNowMs();
    bareCpu += c1 - c0;
    sandboxCpu += c2 - c1;
  }
  double b = median(bare), s = median(sandboxed);
  std::printf("runs: %d  command: %s\n", runs, cmd[0].c_str());
  std::printf("bare fork+exec      median %.3f ms\n", b);
  std::printf("sandbox::run()      median %.3f ms\n", s);
  std::printf("overhead            median %.3f ms (target <= 1.0 ms)\n", s - b);
  std::printf("cpu per run         bare %.3f ms, sandbox %.3f ms (user+sys, this process and children)\n",
              bareCpu / runs, sandboxCpu / runs);
  return 0;
}
