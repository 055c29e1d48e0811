#include "support/Log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace greenlight::support {
namespace {

struct LogState {
  std::mutex mutex;
  std::FILE* out = nullptr;  // nullptr means stderr
  LogForwarder forwarder;
  LogLevel forwardLevel = LogLevel::Warn;
};

LogState& state() {
  static LogState s;
  return s;
}

std::atomic<int> gLevel{static_cast<int>(LogLevel::Info)};

}  // namespace

std::optional<LogLevel> parseLogLevel(std::string_view name) {
  if (name == "trace") return LogLevel::Trace;
  if (name == "debug") return LogLevel::Debug;
  if (name == "info") return LogLevel::Info;
  if (name == "warn" || name == "warning") return LogLevel::Warn;
  if (name == "error") return LogLevel::Error;
  if (name == "off") return LogLevel::Off;
  return std::nullopt;
}

std::string_view logLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::Trace: return "trace";
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warn: return "warn";
    case LogLevel::Error: return "error";
    case LogLevel::Off: return "off";
  }
  return "?";
}

void setLogLevel(LogLevel level) { gLevel.store(static_cast<int>(level)); }
LogLevel logLevel() { return static_cast<LogLevel>(gLevel.load(std::memory_order_relaxed)); }

bool setLogFile(const std::string& path, std::string* error) {
  std::FILE* f = std::fopen(path.c_str(), "ae");
  if (!f) {
    if (error) *error = "cannot open log file " + path;
    return false;
  }
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().out) std::fclose(state().out);
  state().out = f;
  return true;
}

void setLogForwarder(LogForwarder forwarder, LogLevel minLevel) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().forwarder = std::move(forwarder);
  state().forwardLevel = minLevel;
}

void logLine(LogLevel level, std::string_view message) {
  if (!logEnabled(level)) return;
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms));
  LogForwarder forward;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    std::FILE* out = state().out ? state().out : stderr;
    std::fprintf(out, "%s %-5s %.*s\n", stamp, logLevelName(level).data(),
                 static_cast<int>(message.size()), message.data());
    std::fflush(out);
    if (state().forwarder && level >= state().forwardLevel) forward = state().forwarder;
  }
  if (forward) forward(level, std::string(message));
}

}  // namespace greenlight::support
