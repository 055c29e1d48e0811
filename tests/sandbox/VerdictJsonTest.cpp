// Unit tests of Verdict -> JSON (the shape of DESIGN.md).
#include <catch2/catch.hpp>

#include "core/verdict/VerdictJson.h"

using greenlight::core::verdictToJson;
using greenlight::core::verdictToJsonLine;
using greenlight::sandbox::Status;
using greenlight::sandbox::Verdict;

TEST_CASE("verdict json: keys, order and nulls as in DESIGN.md", "[unit][verdict]") {
  Verdict v;
  v.status = Status::Ok;
  v.exitCode = 0;
  v.wallMs = 1.9;
  v.cpuMs = 0.7;
  v.maxRssKb = 1200;
  v.isolation.userNs = v.isolation.pidNs = v.isolation.netNs = v.isolation.mountNs = v.isolation.ipcNs =
      v.isolation.utsNs = true;
  v.isolation.landlockAbi = 7;
  v.isolation.seccomp = true;
  CHECK(verdictToJsonLine(v) ==
        R"({"status":"ok","exit_code":0,"signal":null,"syscall":null,"wall_ms":1.9,"cpu_ms":0.7,"max_rss_kb":1200,)"
        R"("stdout_truncated":false,"stderr_truncated":false,"setup_error":null,)"
        R"("isolation":{"user_ns":true,"pid_ns":true,"net_ns":true,"mount_ns":true,"ipc_ns":true,"uts_ns":true,)"
        R"("cgroup":false,"landlock":7,"seccomp":true,"degraded":false,"missing":[]}})");
}

TEST_CASE("verdict json: signal, syscall, setup error and missing layers", "[unit][verdict]") {
  Verdict v;
  v.status = Status::SyscallViolation;
  v.exitCode = -1;
  v.signal = 9;
  v.syscall = "ptrace";
  v.wallMs = 12.3456;
  v.stdoutTruncated = true;
  v.isolation.degraded = true;
  v.isolation.missing = {"user_ns", "net_ns"};
  auto j = verdictToJson(v);
  CHECK(j["status"] == "syscall_violation");
  CHECK(j["exit_code"].is_null());
  CHECK(j["signal"] == 9);
  CHECK(j["syscall"] == "ptrace");
  CHECK(j["wall_ms"] == 12.35);
  CHECK(j["stdout_truncated"] == true);
  CHECK(j["isolation"]["missing"] == nlohmann::ordered_json::array({"user_ns", "net_ns"}));

  Verdict s;
  s.status = Status::SetupError;
  s.setupError = "mounts: mount bind(/x\xff): No such file or directory";
  std::string line = verdictToJsonLine(s);  // invalid UTF-8 must not throw
  CHECK(line.find("\"status\":\"setup_error\"") != std::string::npos);
  CHECK(line.find("mounts: mount bind(/x") != std::string::npos);
}

TEST_CASE("verdict json: every status has its DESIGN.md name", "[unit][verdict]") {
  const std::pair<Status, const char*> names[] = {
      {Status::Ok, "ok"}, {Status::ExitNonzero, "exit_nonzero"}, {Status::Signaled, "signaled"},
      {Status::Timeout, "timeout"}, {Status::CpuLimit, "cpu_limit"}, {Status::MemoryLimit, "memory_limit"},
      {Status::OutputLimit, "output_limit"}, {Status::ProcessLimit, "process_limit"},
      {Status::FileSizeLimit, "file_size_limit"}, {Status::SyscallViolation, "syscall_violation"},
      {Status::SetupError, "setup_error"}};
  for (auto [status, name] : names) {
    Verdict v;
    v.status = status;
    CHECK(verdictToJson(v)["status"] == name);
  }
}
