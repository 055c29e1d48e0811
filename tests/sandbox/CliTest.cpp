// `greenlight sandbox` end to end: options, pass-through, exit codes, --json/--report, and the
// degraded mode under a wrapper that refuses user namespaces (as AppArmor's restriction does).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "TestSupport.h"

using namespace gltest;

namespace {

const std::string kBin = builtPath("GL_TEST_GREENLIGHT_BIN", GL_GREENLIGHT_BIN);
const std::string kDenyUserns = builtPath("GL_TEST_DENY_USERNS_BIN", GL_DENY_USERNS_BIN);

bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

ProcessResult sandbox(std::vector<std::string> args, const std::string& stdinData = "") {
  args.insert(args.begin(), {kBin, "sandbox"});
  return runProcess(args, stdinData);
}

nlohmann::json lastJsonLine(const std::string& err) {
  std::string s = err;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  auto nl = s.rfind('\n');
  std::string line = nl == std::string::npos ? s : s.substr(nl + 1);
  return nlohmann::json::parse(line, nullptr, false);
}

}  // namespace

TEST_CASE("cli: --help and usage errors", "[cli]") {
  auto help = sandbox({"--help"});
  CHECK(help.exitCode == 0);
  for (const char* opt : {"--time-limit", "--cpu-limit", "--memory-limit", "--processes", "--output-limit",
                          "--file-size-limit", "--ro", "--rw", "--workdir", "--net", "--env", "--json", "--report"})
    CHECK(contains(help.out, opt));
  auto unknown = sandbox({"--frobnicate", "--", "/bin/true"});
  CHECK(unknown.exitCode == 125);
  CHECK(contains(unknown.err, "unknown option '--frobnicate'"));
  auto badNumber = sandbox({"--time-limit", "soon", "--", "/bin/true"});
  CHECK(badNumber.exitCode == 125);
  CHECK(contains(badNumber.err, "--time-limit: expected a positive number"));
  auto noCommand = sandbox({"--json"});
  CHECK(noCommand.exitCode == 125);
  CHECK(contains(noCommand.err, "no command given"));
}

TEST_CASE("cli: exit codes follow the child, signals, timeout and setup errors", "[cli]") {
  CHECK(sandbox({"--", "/bin/true"}).exitCode == 0);
  CHECK(sandbox({"--", "/bin/sh", "-c", "exit 7"}).exitCode == 7);
  CHECK(sandbox({"--", "/bin/sh", "-c", "kill -TERM $$"}).exitCode == 128 + 15);
  CHECK(sandbox({"--time-limit", "0.5", "--", "/bin/sleep", "10"}).exitCode == 124);
  auto missing = sandbox({"--", "/no/such/binary"});
  CHECK(missing.exitCode == 125);
  CHECK(contains(missing.err, "exec: execve(/no/such/binary): No such file or directory"));
}

TEST_CASE("cli: stdin/stdout/stderr pass through, output is capped", "[cli]") {
  auto cat = sandbox({"--", "/bin/cat"}, "hello through stdin");
  CHECK(cat.exitCode == 0);
  CHECK(cat.out == "hello through stdin");
  auto both = sandbox({"--", "/bin/sh", "-c", "echo to-out; echo to-err >&2"});
  CHECK(both.out == "to-out\n");
  CHECK(both.err == "to-err\n");
  auto flood = sandbox({"--output-limit", "8", "--json", "--", "/bin/sh", "-c", "yes"});
  CHECK(flood.out.size() == 8 * 1024);
  CHECK(flood.exitCode == 137);
  auto j = lastJsonLine(flood.err);
  REQUIRE(j.is_object());
  CHECK(j["status"] == "output_limit");
  CHECK(j["stdout_truncated"] == true);
}

TEST_CASE("cli: --json puts one verdict object on the last line of stderr, --report writes a file", "[cli]") {
  auto r = sandbox({"--json", "--", "/bin/sh", "-c", "echo noise >&2; exit 3"});
  CHECK(r.exitCode == 3);
  auto j = lastJsonLine(r.err);
  REQUIRE(j.is_object());
  CHECK(j["status"] == "exit_nonzero");
  CHECK(j["exit_code"] == 3);
  CHECK(j["signal"].is_null());
  CHECK(j["syscall"].is_null());
  CHECK(j["setup_error"].is_null());
  for (const char* key : {"wall_ms", "cpu_ms", "max_rss_kb", "stdout_truncated", "stderr_truncated", "isolation"})
    CHECK(j.contains(key));
  for (const char* key : {"user_ns", "pid_ns", "net_ns", "mount_ns", "ipc_ns", "uts_ns", "cgroup", "landlock",
                          "seccomp", "degraded", "missing"})
    CHECK(j["isolation"].contains(key));
  CHECK(contains(r.err, "noise\n"));

  TempDir dir;
  std::string report = dir.path() + "/verdict.json";
  auto rr = sandbox({"--report", report, "--", "/bin/true"});
  CHECK(rr.exitCode == 0);
  CHECK(rr.err.empty());
  auto rj = nlohmann::json::parse(readFile(report), nullptr, false);
  REQUIRE(rj.is_object());
  CHECK(rj["status"] == "ok");

  auto violation = sandbox({"--json", "--", probeBin(), "ptrace-parent"});
  // The probe binary lives in the build tree, which is not bound: that is a setup error,
  // so bind it and try again.
  violation = sandbox({"--json", "--ro", probeDir(), "--", probeBin(), "ptrace-parent"});
  CHECK(violation.exitCode == 137);
  auto vj = lastJsonLine(violation.err);
  REQUIRE(vj.is_object());
  CHECK(vj["status"] == "syscall_violation");
  CHECK(vj["syscall"] == "ptrace");
}

TEST_CASE("cli: --env, --ro, --rw, --workdir, the caller's environment stays out", "[cli]") {
  ::setenv("OPENAI_API_KEY", "sk-cli-secret", 1);
  TempDir ro, rw;
  ro.file("input.txt", "from-ro");
  ::chmod(rw.path().c_str(), 0777);  // under root the sandbox's host uid is unprivileged
  auto r = sandbox({"--env", "GREETING=hi", "--ro", ro.path(), "--rw", rw.path(), "--workdir", ro.path(), "--", "/bin/sh",
                    "-c", "env; cat input.txt; echo made > " + rw.path() + "/out.txt; echo x > input.txt || echo RO-OK"});
  ::unsetenv("OPENAI_API_KEY");
  INFO(r.out << r.err);
  CHECK(r.exitCode == 0);
  CHECK(contains(r.out, "GREETING=hi"));
  CHECK_FALSE(contains(r.out, "sk-cli-secret"));
  CHECK(contains(r.out, "from-ro"));
  CHECK(contains(r.out, "RO-OK"));
  CHECK(readFile(rw.path() + "/out.txt") == "made\n");
  CHECK(readFile(ro.path() + "/input.txt") == "from-ro");
}

TEST_CASE("cli: without user namespaces the run degrades, says so, and still confines", "[cli][degraded]") {
  TempDir dir;
  std::string secret = dir.file("secret.txt", "DEGRADED-SECRET");
  std::string token = uniqueToken("gl-degraded");
  auto r = runProcess({kDenyUserns, kBin, "sandbox", "--json", "--", "/usr/bin/python3", "-c",
                       "import os\n"
                       "for p in ['" + secret + "']:\n"
                       "  try: print('READ', open(p).read())\n"
                       "  except OSError as e: print('DENIED', e.strerror)\n"
                       "try: open('/tmp/" + token + "', 'w').write('x'); print('WROTE')\n"
                       "except OSError as e: print('DENIED', e.strerror)\n"
                       "open(os.path.join(os.environ['TMPDIR'], 'ok.txt'), 'w').write('fine'); print('SCRATCH OK')\n"});
  INFO(r.out << r.err);
  CHECK(r.exitCode == 0);
  auto j = lastJsonLine(r.err);
  REQUIRE(j.is_object());
  CHECK(j["status"] == "ok");
  CHECK(j["isolation"]["user_ns"] == false);
  CHECK(j["isolation"]["degraded"] == true);
  CHECK(j["isolation"]["missing"].dump().find("user_ns") != std::string::npos);
  CHECK_FALSE(contains(r.out, "DEGRADED-SECRET"));
  CHECK(contains(r.out, "SCRATCH OK"));
  CHECK_FALSE(fileExists("/tmp/" + token));
  if (isRoot()) {
    CHECK(j["isolation"]["pid_ns"] == true);  // root still builds the other namespaces
  } else {
    CHECK(j["isolation"]["landlock"].get<int>() > 0);
  }
  // Refused calls are still named in degraded mode.
  auto v = runProcess({kDenyUserns, kBin, "sandbox", "--json", "--ro", probeDir(), "--", probeBin(), "ptrace-parent"});
  auto vj = lastJsonLine(v.err);
  REQUIRE(vj.is_object());
  CHECK(vj["status"] == "syscall_violation");
  CHECK(vj["syscall"] == "ptrace");
}
