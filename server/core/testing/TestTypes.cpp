#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

std::string_view languageName(Language language) {
  switch (language) {
    case Language::Python: return "python";
    case Language::JavaScript: return "javascript";
    case Language::Cxx: return "cpp";
    case Language::Command: return "command";
  }
  return "unknown";
}

bool isTypeScriptPath(std::string_view path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return false;
  std::string ext(path.substr(dot));
  for (auto& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return ext == ".ts" || ext == ".tsx" || ext == ".mts" || ext == ".cts";
}

std::string_view languageNameOf(Language language, std::string_view file) {
  if (language == Language::JavaScript && isTypeScriptPath(file)) return "typescript";
  return languageName(language);
}

std::string_view testStatusName(TestStatus status) {
  switch (status) {
    case TestStatus::Passed: return "passed";
    case TestStatus::Failed: return "failed";
    case TestStatus::Error: return "error";
    case TestStatus::Timeout: return "timeout";
    case TestStatus::Skipped: return "skipped";
  }
  return "error";
}

std::string_view failureCode(FailureKind kind) {
  switch (kind) {
    case FailureKind::None: return "";
    case FailureKind::Assertion: return "test-failed";
    case FailureKind::Exception: return "runtime-error";
    case FailureKind::Timeout: return "timeout";
    case FailureKind::Compile: return "compile-error";
    case FailureKind::SandboxViolation: return "sandbox-violation";
    case FailureKind::MemoryLimit: return "memory-limit";
  }
  return "";
}

Summary summarize(const std::vector<TestResult>& tests) {
  Summary s;
  for (const auto& t : tests) {
    switch (t.status) {
      case TestStatus::Passed: ++s.passed; break;
      case TestStatus::Failed: ++s.failed; break;
      case TestStatus::Error:
      case TestStatus::Timeout: ++s.errors; break;
      case TestStatus::Skipped: ++s.skipped; break;
    }
  }
  return s;
}

std::string summaryLine(const Summary& s) {
  std::string out = std::to_string(s.passed) + " passed, " + std::to_string(s.failed + s.errors) + " failed";
  if (s.skipped) out += ", " + std::to_string(s.skipped) + " skipped";
  return out;
}

}  // namespace greenlight::core::testing
