// Step: Landlock. Writes only beneath the writable places the plan lists (/work, /tmp,
// writable binds, /dev for the null device); in degraded mode reads too are limited to the
// plan's read-only places. TCP bind/connect are denied (ABI >= 4) without --net, and signals
// and abstract unix sockets are scoped to the sandbox (ABI >= 6). Needs no_new_privs (set by
// processSetup) and runs in pid 1 before the payload forks, so both are restricted.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "sandbox/Landlock.h"
#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {

bool applyLandlock(const LaunchPlan& plan, bool* applied) {
  *applied = false;
  if (plan.landlockAbi <= 0) return true;
  landlock::RulesetAttr attr{plan.landlockHandledFs, plan.landlockHandledNet, plan.landlockScoped};
  int ruleset = static_cast<int>(
      ::syscall(SYS_landlock_create_ruleset, &attr, landlock::rulesetAttrSize(plan.landlockAbi), 0u));
  if (ruleset < 0) {
    reportFailure(plan.statusFd, "landlock", "landlock_create_ruleset", nullptr, errno);
    return false;
  }
  for (const LandlockRule& rule : plan.landlockRules) {
    int fd = ::open(rule.path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) continue;  // an optional path (e.g. /lib32) that is not there
      reportFailure(plan.statusFd, "landlock", "open", rule.path.c_str(), errno);
      ::close(ruleset);
      return false;
    }
    struct stat st;
    std::uint64_t access = rule.access & plan.landlockHandledFs;
    if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) access &= landlock::kFileRights;
    landlock::PathBeneathAttr beneath{access, fd};
    if (access != 0 && ::syscall(SYS_landlock_add_rule, ruleset, landlock::kRulePathBeneath, &beneath, 0u) != 0) {
      reportFailure(plan.statusFd, "landlock", "landlock_add_rule", rule.path.c_str(), errno);
      ::close(fd);
      ::close(ruleset);
      return false;
    }
    ::close(fd);
  }
  if (::syscall(SYS_landlock_restrict_self, ruleset, 0u) != 0) {
    reportFailure(plan.statusFd, "landlock", "landlock_restrict_self", nullptr, errno);
    ::close(ruleset);
    return false;
  }
  ::close(ruleset);
  *applied = true;
  return true;
}

}  // namespace greenlight::sandbox::detail
