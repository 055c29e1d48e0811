// `greenlight sandbox [options] -- CMD [ARGS...]`: runs any command in the sandbox with
// stdin/stdout/stderr passed through (output capped), and exits with the child's code.
// Exit codes: the child's code; 128+N when it died of signal N (137 when the sandbox killed it
// for an output or syscall violation); 124 on timeout; 125 on a setup error AND on a usage
// error (bad option), so the child's own 1/2 are never ambiguous.
#include <fcntl.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/Commands.h"
#include "core/verdict/VerdictJson.h"
#include "sandbox/Sandbox.h"

namespace greenlight::cli {
namespace {

constexpr int kUsageError = 125;

const char kHelp[] =
    "usage: greenlight sandbox [options] -- CMD [ARGS...]\n"
    "\n"
    "Runs CMD isolated (user/pid/mount/ipc/uts/net namespaces, read-only system, fresh /tmp and\n"
    "scratch /work, Landlock, seccomp, rlimits); stdin/stdout/stderr are passed through.\n"
    "\n"
    "options:\n"
    "  --time-limit S        wall-clock limit in seconds (default 10)\n"
    "  --cpu-limit S         CPU limit in seconds (default 10)\n"
    "  --memory-limit MB     data segment limit (default 512)\n"
    "  --processes N         tasks (processes + threads) (default 64)\n"
    "  --output-limit KB     per stream; exceeding it stops the run (default 1024)\n"
    "  --file-size-limit MB  largest file the command may write (default 64)\n"
    "  --ro PATH             bind host PATH read-only at the same path (repeatable)\n"
    "  --rw PATH             bind host PATH writable at the same path (repeatable)\n"
    "  --seed DIR            copy DIR into the scratch /work first\n"
    "  --workdir DIR         working directory inside (default: the scratch dir /work)\n"
    "  --net                 allow network (off by default)\n"
    "  --env K=V             set a variable (repeatable); nothing else of the caller's\n"
    "                        environment enters\n"
    "  --profile P           seccomp profile: auto|native|python|node|compiler (default auto)\n"
    "  --json                print the verdict as one JSON object on the last line of stderr\n"
    "  --report FILE         write the verdict JSON to FILE instead\n"
    "  --help                this text\n"
    "\n"
    "exit: the command's code; 128+N if killed by signal N (137 when stopped for output or a\n"
    "refused system call); 124 timeout; 125 setup or usage error.\n";

int usage(const std::string& message) {
  std::fprintf(stderr, "greenlight sandbox: %s\nRun 'greenlight sandbox --help' for the options.\n", message.c_str());
  return kUsageError;
}

bool parseNumber(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end == nullptr || *end != '\0' || !(v > 0) || v > 1e9) return false;
  *out = v;
  return true;
}

void writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // the reader went away: the rest is dropped, the run goes on
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

int sandboxCommand(const Args& args) {
  sandbox::Policy policy;
  policy.inheritStdin = true;
  bool json = false;
  std::string report;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--help" || arg == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    }
    if (arg.rfind("--", 0) != 0) break;  // the command starts without "--"
    std::string value;
    bool hasInline = false;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasInline = true;
    }
    auto flag = [&](const char* name) {
      if (arg != name) return false;
      if (hasInline) throw std::string(std::string(name) + " takes no value");
      return true;
    };
    auto takes = [&](const char* name) {
      if (arg != name) return false;
      if (!hasInline) {
        if (i + 1 >= args.size()) throw std::string(std::string(name) + " needs a value");
        value = args[++i];
      }
      return true;
    };
    auto number = [&](const char* name) {
      double v = 0;
      if (!parseNumber(value, &v)) throw std::string(std::string(name) + ": expected a positive number, got '" + value + "'");
      return v;
    };
    try {
      if (flag("--net")) policy.network = true;
      else if (flag("--json")) json = true;
      else if (takes("--time-limit")) policy.timeLimitSec = number("--time-limit");
      else if (takes("--cpu-limit")) policy.cpuLimitSec = number("--cpu-limit");
      else if (takes("--memory-limit")) policy.memoryLimitMb = static_cast<std::size_t>(number("--memory-limit"));
      else if (takes("--processes")) policy.processes = static_cast<int>(number("--processes"));
      else if (takes("--output-limit")) policy.outputLimitBytes = static_cast<std::size_t>(number("--output-limit") * 1024);
      else if (takes("--file-size-limit")) policy.fileSizeLimitMb = static_cast<std::size_t>(number("--file-size-limit"));
      else if (takes("--ro")) policy.binds.push_back({value, "", false});
      else if (takes("--rw")) policy.binds.push_back({value, "", true});
      else if (takes("--seed")) policy.scratchSource = value;
      else if (takes("--workdir")) policy.workdir = value;
      else if (takes("--report")) report = value;
      else if (takes("--env")) {
        if (value.find('=') == std::string::npos || value[0] == '=') throw std::string("--env: expected K=V, got '" + value + "'");
        policy.env.push_back(value);
      } else if (takes("--profile")) {
        if (value == "auto") policy.profile = sandbox::Profile::Auto;
        else if (value == "native") policy.profile = sandbox::Profile::Native;
        else if (value == "python") policy.profile = sandbox::Profile::Python;
        else if (value == "node") policy.profile = sandbox::Profile::Node;
        else if (value == "compiler") policy.profile = sandbox::Profile::Compiler;
        else throw std::string("--profile: unknown profile '" + value + "'");
      } else {
        throw std::string("unknown option '" + arg + "'");
      }
    } catch (const std::string& message) {
      return usage(message);
    }
    if (policy.memoryLimitMb == 0 || policy.processes <= 0 || policy.outputLimitBytes == 0 || policy.fileSizeLimitMb == 0)
      return usage("limits must be at least 1");
  }
  if (i >= args.size()) return usage("no command given (expected: greenlight sandbox [options] -- CMD [ARGS...])");
  policy.argv.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  policy.onOutput = [](int stream, std::string_view data) { writeAll(stream == 1 ? 1 : 2, data); };

  // Ctrl-C / SIGTERM / SIGHUP: stop the whole tree and still report.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stopSignals, s);
  ::sigprocmask(SIG_BLOCK, &stopSignals, nullptr);
  int cancelFd = ::signalfd(-1, &stopSignals, SFD_CLOEXEC | SFD_NONBLOCK);
  ::signal(SIGPIPE, SIG_IGN);

  sandbox::Verdict verdict = sandbox::run(policy, cancelFd);

  if (verdict.status == sandbox::Status::SetupError)
    std::fprintf(stderr, "greenlight sandbox: %s\n", verdict.setupError.c_str());
  else if (verdict.status == sandbox::Status::SyscallViolation)
    std::fprintf(stderr, "greenlight sandbox: refused system call: %s\n", verdict.syscall.c_str());
  if (!report.empty() || json) {
    std::string line = core::verdictToJsonLine(verdict) + "\n";
    if (!report.empty()) {
      int fd = ::open(report.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) {
        std::fprintf(stderr, "greenlight sandbox: --report %s: %s\n", report.c_str(), std::strerror(errno));
        return 125;
      }
      writeAll(fd, line);
      ::close(fd);
    } else {
      std::fflush(stderr);
      writeAll(2, line);
    }
  }
  switch (verdict.status) {
    case sandbox::Status::SetupError: return 125;
    case sandbox::Status::Timeout: return 124;
    default: break;
  }
  if (verdict.exitCode >= 0) return verdict.exitCode;
  if (verdict.signal > 0) return 128 + verdict.signal;
  return 125;
}

}  // namespace greenlight::cli
