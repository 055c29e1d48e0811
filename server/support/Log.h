// Process-wide logging: stderr by default, or a file (--log-file), filtered by level.
//
// Thread-safety: every function here may be called from any thread; lines are written whole.
// The LSP layer may install a forwarder (setForwarder) to mirror user-relevant lines to
// window/logMessage; the forwarder is called outside the log lock.
#pragma once

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace greenlight::support {

enum class LogLevel { Trace = 0, Debug, Info, Warn, Error, Off };

std::optional<LogLevel> parseLogLevel(std::string_view name);
std::string_view logLevelName(LogLevel level);

// Sets the minimum level written. Default: Info.
void setLogLevel(LogLevel level);
LogLevel logLevel();

// Sends log lines to `path` (appending). Returns false (and keeps stderr) when it cannot be
// opened; `error` then says why.
bool setLogFile(const std::string& path, std::string* error = nullptr);

// Called for every line at or above `minLevel` after it is written.
using LogForwarder = std::function<void(LogLevel, const std::string&)>;
void setLogForwarder(LogForwarder forwarder, LogLevel minLevel = LogLevel::Warn);

void logLine(LogLevel level, std::string_view message);

inline bool logEnabled(LogLevel level) { return level >= logLevel(); }

}  // namespace greenlight::support

// GL_LOG(Info, "opened " << path): the stream expression is evaluated only when enabled.
#define GL_LOG(LEVEL, EXPR)                                                              \
  do {                                                                                   \
    if (::greenlight::support::logEnabled(::greenlight::support::LogLevel::LEVEL)) {     \
      std::ostringstream glLogStream_;                                                   \
      glLogStream_ << EXPR;                                                              \
      ::greenlight::support::logLine(::greenlight::support::LogLevel::LEVEL,            \
                                     glLogStream_.str());                                \
    }                                                                                    \
  } while (0)
