// Step: process. A new session, stdio wired to the parent's pipes, every other inherited fd
// closed (a long-lived pid 1 holding another sandbox's pipe would keep that pipe open), signal
// dispositions and mask reset, PR_SET_PDEATHSIG(SIGKILL) (set after the uid changes, which
// clear it), no_new_privs, and the working directory.
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {
namespace {

constexpr const char* kStep = "process";

bool fail(const LaunchPlan& plan, const char* call, const char* path) {
  reportFailure(plan.statusFd, kStep, call, path, errno);
  return false;
}

}  // namespace

bool processSetup(const LaunchPlan& plan) {
  if (::setsid() < 0) return fail(plan, "setsid", nullptr);
  if (plan.stdinFd >= 0 && ::dup2(plan.stdinFd, 0) < 0) return fail(plan, "dup2", "stdin");
  if (::dup2(plan.stdoutFd, 1) < 0) return fail(plan, "dup2", "stdout");
  if (::dup2(plan.stderrFd, 2) < 0) return fail(plan, "dup2", "stderr");
  // Everything but 0/1/2, the status socket and (until the filter is loaded) the seccomp
  // pipe goes away now; both are close-on-exec, so the payload never sees them.
  int keepA = plan.statusFd, keepB = plan.seccompPipe >= 0 ? plan.seccompPipe : plan.statusFd;
  if (keepA > keepB) {
    int t = keepA;
    keepA = keepB;
    keepB = t;
  }
  unsigned from = 3;
  for (int keep : {keepA, keepB}) {
    if (keep >= static_cast<int>(from)) {
      if (keep > static_cast<int>(from) && ::syscall(SYS_close_range, from, static_cast<unsigned>(keep - 1), 0u) != 0)
        return fail(plan, "close_range", nullptr);
      from = static_cast<unsigned>(keep + 1);
    }
  }
  if (::syscall(SYS_close_range, from, UINT_MAX, 0u) != 0) return fail(plan, "close_range", nullptr);

  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  // execve resets handled signals by itself; only ignored ones survive it. These are the ones
  // a supervisor ignores in practice (a CLI ignores SIGPIPE, servers SIGHUP/SIGCHLD...).
  for (int sig : {SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD, SIGTSTP,
                  SIGTTIN, SIGTTOU, SIGURG, SIGXCPU, SIGXFSZ, SIGWINCH, SIGIO, SIGPROF, SIGVTALRM})
    ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) return fail(plan, "sigprocmask", nullptr);

  if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return fail(plan, "prctl", "PR_SET_PDEATHSIG");
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(plan, "prctl", "PR_SET_NO_NEW_PRIVS");
  if (::chdir(plan.workdir.c_str()) != 0) return fail(plan, "chdir", plan.workdir.c_str());
  return true;
}

}  // namespace greenlight::sandbox::detail
