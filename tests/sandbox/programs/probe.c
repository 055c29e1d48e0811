/* Native probes run inside the sandbox by the escape-and-limits suite. One binary, one probe
 * per subcommand; each prints what it achieved so the suite can assert nothing escaped. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int recurse(int depth) {
  volatile char pad[4096];
  pad[0] = (char)depth;
  return recurse(depth + 1) + pad[0];
}

struct named { const char* name; long nr; };
static const struct named kSyscalls[] = {
    {"ptrace", SYS_ptrace}, {"bpf", SYS_bpf}, {"perf_event_open", SYS_perf_event_open},
    {"keyctl", SYS_keyctl}, {"add_key", SYS_add_key}, {"request_key", SYS_request_key},
    {"userfaultfd", SYS_userfaultfd}, {"mount", SYS_mount}, {"umount2", SYS_umount2},
    {"pivot_root", SYS_pivot_root}, {"chroot", SYS_chroot}, {"unshare", SYS_unshare},
    {"setns", SYS_setns}, {"kexec_load", SYS_kexec_load}, {"init_module", SYS_init_module},
    {"finit_module", SYS_finit_module}, {"delete_module", SYS_delete_module},
    {"process_vm_readv", SYS_process_vm_readv}, {"process_vm_writev", SYS_process_vm_writev},
    {"open_by_handle_at", SYS_open_by_handle_at}, {"io_uring_setup", SYS_io_uring_setup},
    {"reboot", SYS_reboot}, {"swapon", SYS_swapon}, {"acct", SYS_acct},
    {"settimeofday", SYS_settimeofday}, {"move_mount", SYS_move_mount}, {"fsopen", SYS_fsopen},
};

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const char* what = argv[1];
  if (!strcmp(what, "hello")) {
    printf("hello from C, uid=%d\n", (int)getuid());
    return 0;
  }
  if (!strcmp(what, "stack")) return recurse(0);
  if (!strcmp(what, "abort")) abort();
  if (!strcmp(what, "kill-all")) {
    int r = kill(-1, SIGKILL);
    printf("kill(-1) = %d\n", r);
    return 0;
  }
  if (!strcmp(what, "ptrace-parent")) {
    long r = ptrace(PTRACE_ATTACH, getppid(), 0, 0);
    printf("ATTACHED %ld\n", r);
    return 0;
  }
  if (!strcmp(what, "unshare")) {
    int r = unshare(CLONE_NEWUSER);
    printf("UNSHARED %d\n", r);
    return 0;
  }
  if (!strcmp(what, "clone-newuser")) {
    long r = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (r == 0) _exit(0);
    printf("CLONED %ld\n", r);
    return 0;
  }
  if (!strcmp(what, "mount")) {
    int r = mount("none", "/tmp", "tmpfs", 0, 0);
    printf("MOUNTED %d\n", r);
    return 0;
  }
  if (!strcmp(what, "tiocsti")) {
    /* Request with garbage in the upper 32 bits: the kernel ignores them, so must the filter. */
    unsigned long req = TIOCSTI;
    if (argc > 2) req |= 0xdead00000000ul;
    char c = 'x';
    long r = syscall(SYS_ioctl, 0, req, &c);
    printf("INJECTED %ld\n", r);
    return 0;
  }
  if (!strcmp(what, "io_uring")) {
    char params[120];
    memset(params, 0, sizeof params);
    long r = syscall(SYS_io_uring_setup, 8, params);
    printf("IO_URING %ld\n", r);
    return 0;
  }
  if (!strcmp(what, "clone3")) {
    long r = syscall(SYS_clone3, 0, 0);
    printf("clone3 %ld errno=%d\n", r, errno);
    return r == -1 && errno == ENOSYS ? 0 : 1;
  }
  if (!strcmp(what, "x32")) {
    /* An x32-ABI system call number (bit 30 set): another ABI the filter must not let through. */
#if defined(__x86_64__)
    long r = syscall(0x40000000L | SYS_getpid);
    printf("X32 %ld\n", r);
#endif
    return 0;
  }
  if (!strcmp(what, "try") && argc > 2) {
    for (size_t i = 0; i < sizeof kSyscalls / sizeof kSyscalls[0]; ++i) {
      if (!strcmp(kSyscalls[i].name, argv[2])) {
        long r = syscall(kSyscalls[i].nr, 0, 0, 0, 0, 0, 0);
        printf("SYSCALL %s = %ld (errno %d)\n", argv[2], r, errno);
        return 0;
      }
    }
    return 3;
  }
  if (!strcmp(what, "fork-bomb")) {
    for (;;) {
      if (fork() < 0) usleep(1000);
    }
  }
  if (!strcmp(what, "hardlink") && argc > 2) {
    int r = link(argv[2], "/work/stolen");
    printf("LINKED %d errno=%d\n", r, errno);
    int fd = open("/work/stolen", O_RDONLY);
    char buf[256] = {0};
    if (fd >= 0 && read(fd, buf, sizeof buf - 1) > 0) printf("READ %s\n", buf);
    return 0;
  }
  if (!strcmp(what, "daemon") && argc > 2) {
    /* Double fork + setsid: a grandchild that would outlive the run without a pid namespace. */
    pid_t p = fork();
    if (p == 0) {
      setsid();
      if (fork() == 0) {
        char* args[] = {"/bin/sleep", "30", argv[2], NULL};
        execv("/bin/sleep", args);
        _exit(1);
      }
      _exit(0);
    }
    waitpid(p, NULL, 0);
    printf("DAEMONIZED\n");
    return 0;
  }
  fprintf(stderr, "unknown probe %s\n", what);
  return 2;
}
