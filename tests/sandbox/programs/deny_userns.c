/* Test wrapper: runs a command under a seccomp filter that refuses user namespaces the way
 * AppArmor's restriction or a hardened container runtime would (clone/unshare with
 * CLONE_NEWUSER -> EPERM; clone3 -> ENOSYS so glibc uses clone), to exercise the sandbox's
 * degraded mode without any switch in production code.
 *   deny_userns CMD [ARGS...] */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: deny_userns CMD [ARGS...]\n");
    return 2;
  }
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return 125;
  int rc = 0;
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
                         SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                         SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  if (rc != 0 || seccomp_load(ctx) != 0) {
    fprintf(stderr, "deny_userns: could not install the filter\n");
    return 125;
  }
  seccomp_release(ctx);
  execvp(argv[1], argv + 1);
  perror("deny_userns: execvp");
  return 127;
}
