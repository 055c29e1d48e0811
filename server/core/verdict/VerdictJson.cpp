#include "core/verdict/VerdictJson.h"

#include <cmath>

namespace greenlight::core {
namespace {

double round2(double v) { return std::round(v * 100.0) / 100.0; }

nlohmann::ordered_json isolationOrdered(const sandbox::Isolation& iso) {
  nlohmann::ordered_json j;
  j["user_ns"] = iso.userNs;
  j["pid_ns"] = iso.pidNs;
  j["net_ns"] = iso.netNs;
  j["mount_ns"] = iso.mountNs;
  j["ipc_ns"] = iso.ipcNs;
  j["uts_ns"] = iso.utsNs;
  j["cgroup"] = iso.cgroup;
  j["landlock"] = iso.landlockAbi;
  j["seccomp"] = iso.seccomp;
  j["degraded"] = iso.degraded;
  j["missing"] = iso.missing;
  return j;
}

}  // namespace

nlohmann::json isolationToJson(const sandbox::Isolation& isolation) {
  return nlohmann::json::parse(isolationOrdered(isolation).dump());
}

nlohmann::ordered_json verdictToJson(const sandbox::Verdict& v) {
  nlohmann::ordered_json j;
  j["status"] = std::string(sandbox::statusName(v.status));
  j["exit_code"] = v.exitCode >= 0 ? nlohmann::ordered_json(v.exitCode) : nlohmann::ordered_json(nullptr);
  j["signal"] = v.signal != 0 ? nlohmann::ordered_json(v.signal) : nlohmann::ordered_json(nullptr);
  j["syscall"] = v.syscall.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.syscall);
  j["wall_ms"] = round2(v.wallMs);
  j["cpu_ms"] = round2(v.cpuMs);
  j["max_rss_kb"] = v.maxRssKb;
  j["stdout_truncated"] = v.stdoutTruncated;
  j["stderr_truncated"] = v.stderrTruncated;
  j["setup_error"] = v.setupError.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.setupError);
  j["isolation"] = isolationOrdered(v.isolation);
  return j;
}

std::string verdictToJsonLine(const sandbox::Verdict& verdict) {
  // Invalid UTF-8 in a setup error (a path) must not throw: replace it.
  return verdictToJson(verdict).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace greenlight::core
