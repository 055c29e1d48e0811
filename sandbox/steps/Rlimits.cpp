// Step: rlimits. CPU, DATA (not AS: node reserves far more address space than it uses),
// FSIZE, NOFILE, NPROC (charged per user namespace, so it caps fork bombs without cgroups),
// CORE 0, STACK. Values come from the plan (Plan.cpp decides them).
#include <sys/resource.h>

#include <cerrno>

#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {

bool applyRlimits(const LaunchPlan& plan) {
  for (const RlimitSetting& r : plan.rlimits) {
    rlimit value{r.soft, r.hard};
    if (::setrlimit(static_cast<__rlimit_resource>(r.resource), &value) != 0) {
      const char* names[] = {"RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE",
                             "RLIMIT_RSS", "RLIMIT_NPROC", "RLIMIT_NOFILE"};
      const char* name = r.resource >= 0 && r.resource < 8 ? names[r.resource] : "rlimit";
      reportFailure(plan.statusFd, "rlimits", "setrlimit", name, errno);
      return false;
    }
  }
  return true;
}

}  // namespace greenlight::sandbox::detail
