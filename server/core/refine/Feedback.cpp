#include "core/refine/Feedback.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "core/providers/Redact.h"

namespace greenlight::core::refine {

namespace fs = std::filesystem;
using testing::FailureKind;
using testing::RunResult;
using testing::TestResult;
using testing::TestStatus;

namespace {

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size()) out.emplace_back(text.substr(start));
      break;
    }
    out.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::string lineOf(const FeedbackContext& ctx, const std::string& file, int line) {
  auto it = ctx.texts.find(file);
  std::string text;
  if (it != ctx.texts.end()) {
    text = it->second;
  } else {
    return "";
  }
  int n = 1;
  std::size_t start = 0;
  while (n < line) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) return "";
    start = nl + 1;
    ++n;
  }
  std::size_t end = text.find('\n', start);
  std::string l = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.pop_back();
  std::size_t a = l.find_first_not_of(" \t");
  return a == std::string::npos ? "" : l.substr(a);
}

std::string statusWord(const TestResult& t) {
  switch (t.status) {
    case TestStatus::Failed: return "FAILED";
    case TestStatus::Error: return t.kind == FailureKind::Compile ? "DOES NOT COMPILE" : "ERROR";
    case TestStatus::Timeout: return "TIMEOUT";
    case TestStatus::Skipped: return "SKIPPED";
    case TestStatus::Passed: return "PASSED";
  }
  return "FAILED";
}

bool isTestFile(const RunResult& result, const std::string& file) {
  return file != result.file && std::find(result.files.begin(), result.files.end(), file) != result.files.end();
}

}  // namespace

std::string relativePath(const std::string& path, const std::string& root) {
  if (root.empty() || path.empty() || path[0] != '/') return path;
  std::string r = root;
  if (r.size() > 1 && r.back() == '/') r.pop_back();
  if (path.size() > r.size() && path.compare(0, r.size(), r) == 0 && path[r.size()] == '/') return path.substr(r.size() + 1);
  return path;
}

namespace {

bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool hexDigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return c >= '0' && c <= '9'; }

// `s` without every occurrence of the literal prefixes, each followed by what `tail` consumes
// (returns how many bytes after the prefix belong to the match).
template <typename Tail>
std::string removeAll(const std::string& s, std::initializer_list<std::string_view> prefixes, Tail tail) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t matched = 0;
    for (std::string_view p : prefixes) {
      if (s.compare(i, p.size(), p) == 0) {
        matched = p.size() + tail(i + p.size());
        break;
      }
    }
    if (matched) {
      i += matched;
    } else {
      out += s[i++];
    }
  }
  return out;
}

}  // namespace

// Hand-written scanners, not std::regex: libstdc++'s regex recurses once per repeated
// character, so a test printing a long run of digits or hex (the output may be 1 MB) overflowed
// the stack. Each pass is linear.
std::string sanitizeText(std::string_view text, const FeedbackContext& ctx, bool dropTimings) {
  std::string s(text);
  // Staging and sandbox paths first ("/dev/shm/greenlight-run-Ab12/src/"), then the workspace root.
  s = removeAll(s, {"/dev/shm/greenlight-run-", "/dev/shm/greenlight-out-", "/tmp/greenlight-run-", "/tmp/greenlight-out-"},
                [&](std::size_t at) {
                  std::size_t k = at;
                  while (k < s.size() && std::isalnum(static_cast<unsigned char>(s[k]))) ++k;
                  if (k == at) return std::size_t{0};
                  if (s.compare(k, 4, "/src") == 0) k += 4;
                  if (k < s.size() && s[k] == '/') ++k;
                  return k - at;
                });
  s = removeAll(s, {"/work/src/"}, [](std::size_t) { return std::size_t{0}; });
  if (!ctx.workspaceRoot.empty() && ctx.workspaceRoot != "/") {
    std::string root = ctx.workspaceRoot;
    if (root.back() != '/') root += '/';
    s = removeAll(s, {root}, [](std::size_t) { return std::size_t{0}; });
  }
  // "<Foo object at 0x7f3a...>" -> "<Foo>", then any other long hex address -> "0x…".
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t at = std::string::npos;
    if (s.compare(i, 11, " object at ") == 0) at = i + 11;
    else if (s.compare(i, 4, " at ") == 0) at = i + 4;
    if (at != std::string::npos && s.compare(at, 2, "0x") == 0) {
      std::size_t k = at + 2;
      while (k < s.size() && hexDigit(s[k])) ++k;
      if (k > at + 2 && k < s.size() && s[k] == '>') {
        out += '>';
        i = k + 1;
        continue;
      }
    }
    if (s.compare(i, 2, "0x") == 0 && (i == 0 || !wordChar(s[i - 1]))) {
      std::size_t k = i + 2;
      while (k < s.size() && hexDigit(s[k])) ++k;
      if (k - i - 2 >= 6 && (k == s.size() || !wordChar(s[k]))) {
        out += "0x…";
        i = k;
        continue;
      }
    }
    out += s[i++];
  }
  s.swap(out);
  if (dropTimings) {
    // "0.012s", "12 ms", "3 seconds" -> "…s".
    static const std::string_view kUnits[] = {"seconds", "secs", "sec", "ms", "µs", "us", "ns", "s"};
    out.clear();
    for (std::size_t i = 0; i < s.size();) {
      if (digit(s[i]) && (i == 0 || !wordChar(s[i - 1]))) {
        std::size_t k = i;
        while (k < s.size() && digit(s[k])) ++k;
        if (k + 1 < s.size() && s[k] == '.' && digit(s[k + 1])) {
          ++k;
          while (k < s.size() && digit(s[k])) ++k;
        }
        std::size_t unitAt = k < s.size() && std::isspace(static_cast<unsigned char>(s[k])) ? k + 1 : k;
        std::size_t end = std::string::npos;
        for (std::string_view unit : kUnits) {
          for (std::size_t u : {unitAt, k}) {
            if (end == std::string::npos && s.compare(u, unit.size(), unit) == 0 &&
                (u + unit.size() == s.size() || !wordChar(s[u + unit.size()])))
              end = u + unit.size();
          }
        }
        if (end != std::string::npos) {
          out += "…s";
          i = end;
        } else {
          out.append(s, i, k - i);  // the whole number: its digits cannot start another match
          i = k;
        }
        continue;
      }
      out += s[i++];
    }
    s.swap(out);
  }
  return providers::redactSecrets(s, ctx.secrets);
}

std::string boundHeadTail(std::string_view text, std::size_t maxLines, std::size_t maxBytes) {
  const std::size_t n = text.size();
  const std::size_t lineCount =
      static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + (n && text.back() != '\n' ? 1 : 0);
  if (lineCount <= maxLines && n <= maxBytes) return std::string(text);
  // Two thirds of the lines at the head, a third at the tail, one line for the marker.
  const std::size_t slots = std::max<std::size_t>(maxLines, 3) - 1;
  const std::size_t headLines = std::max<std::size_t>(1, slots * 2 / 3);
  const std::size_t tailLines = std::max<std::size_t>(1, slots - headLines);
  const std::size_t reserve = 48;  // the marker line
  const std::size_t budget = maxBytes > 2 * reserve ? maxBytes - reserve : maxBytes / 2;
  auto charStart = [&](std::size_t p) { return p >= n || (static_cast<unsigned char>(text[p]) & 0xC0) != 0x80; };
  // [hEnd, tStart) is cut. First by lines...
  std::size_t hEnd = n, tStart = n;
  if (lineCount > headLines + tailLines) {
    hEnd = 0;
    for (std::size_t k = 0; k < headLines; ++k) hEnd = text.find('\n', hEnd) + 1;
    tStart = n && text.back() == '\n' ? n - 1 : n;
    for (std::size_t k = 0; k < tailLines; ++k) {
      std::size_t nl = tStart == 0 ? std::string_view::npos : text.rfind('\n', tStart - 1);
      tStart = nl == std::string_view::npos ? 0 : nl;
    }
    tStart = tStart == 0 ? 0 : tStart + 1;
  }
  // ... then by bytes: the tail keeps up to a third of the budget, the head the rest. Whole
  // lines are preferred; a line longer than what is left is cut inside, never inside a
  // UTF-8 character.
  if (hEnd + (n - tStart) > budget) {
    const std::size_t tailBudget = budget / 3;
    if (n - tStart > tailBudget || tStart == n) {
      std::size_t from = n - std::min(n, tailBudget);
      std::size_t p = from;
      if (p > 0 && text[p - 1] != '\n') {
        std::size_t nl = text.find('\n', p);
        p = nl != std::string_view::npos && nl + 1 < n && nl + 1 - from <= tailBudget / 2 ? nl + 1 : from;
      }
      while (!charStart(p)) ++p;
      tStart = std::max(tStart == n ? p : tStart, p);
    }
    const std::size_t headBudget = budget - std::min(budget, n - tStart);
    if (hEnd > headBudget) {
      std::size_t p = headBudget;
      std::size_t nl = p == 0 ? std::string_view::npos : text.rfind('\n', p - 1);
      if (nl != std::string_view::npos && nl + 1 >= headBudget / 2) p = nl + 1;
      while (p > 0 && !charStart(p)) --p;
      hEnd = p;
    }
  }
  hEnd = std::min(hEnd, tStart);
  if (hEnd >= tStart) return std::string(text);
  const std::string_view cut = text.substr(hEnd, tStart - hEnd);
  const bool wholeLines = (hEnd == 0 || text[hEnd - 1] == '\n') && (tStart == n || text[tStart - 1] == '\n');
  std::string out(text.substr(0, hEnd));
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (wholeLines) {
    std::size_t cutLines = static_cast<std::size_t>(std::count(cut.begin(), cut.end(), '\n')) + (cut.back() != '\n' ? 1 : 0);
    out += "… " + std::to_string(cutLines) + (cutLines == 1 ? " line" : " lines") + " cut …";
  } else {
    out += "… " + std::to_string(cut.size()) + " bytes cut …";
  }
  if (tStart < n) out += "\n" + std::string(text.substr(tStart));
  else if (text.back() == '\n') out += '\n';
  return out;
}

std::string verdictInWords(const RunResult& result, const FeedbackContext& ctx) {
  if (!result.verdict) return "";
  const auto& v = *result.verdict;
  std::ostringstream out;
  auto seconds = [](double s) {
    std::ostringstream o;
    o << s;
    return o.str();
  };
  switch (v.status) {
    case sandbox::Status::Timeout: out << "timed out after " << seconds(ctx.timeLimitSeconds) << " s"; break;
    case sandbox::Status::CpuLimit: out << "used more than " << seconds(ctx.timeLimitSeconds) << " s of CPU time"; break;
    case sandbox::Status::MemoryLimit: out << "exceeded the memory limit of " << ctx.memoryLimitMB << " MB"; break;
    case sandbox::Status::OutputLimit: out << "printed more than the output limit of " << ctx.outputLimitKB << " KB"; break;
    case sandbox::Status::ProcessLimit: out << "started more processes than the limit of " << ctx.processes; break;
    case sandbox::Status::FileSizeLimit: out << "wrote a file larger than the sandbox allows"; break;
    case sandbox::Status::SyscallViolation:
      out << "the sandbox refused the system call " << (v.syscall.empty() ? std::string("(unknown)") : v.syscall)
          << " (tests run without network, debugging or privileged system calls)";
      break;
    case sandbox::Status::Signaled:
      out << "the test process was killed by signal " << v.signal;
      break;
    default: return "";
  }
  return out.str();
}

std::string shapeFeedback(const RunResult& result, const FeedbackContext& ctx) {
  std::ostringstream out;
  const auto& s = result.summary;
  const int total = s.passed + s.failed + s.errors;
  const bool compileFailed = std::any_of(result.compilerMessages.begin(), result.compilerMessages.end(),
                                         [](const testing::CompilerMessage& m) { return m.severity == "error" || m.severity == "fatal error"; });
  if (!result.error.empty()) {
    out << "The tests could not be run: " << sanitizeText(result.error, ctx, false) << "\n";
    return boundHeadTail(out.str(), ctx.limits.maxLines, ctx.limits.maxBytes);
  }
  if (s.failed + s.errors == 0 && !compileFailed && total > 0) return "";
  if (total == 0 && !compileFailed) {
    out << "No test ran";
    std::string verdict = verdictInWords(result, ctx);
    if (!verdict.empty()) out << ": the run " << verdict;
    out << ".\n";
  } else {
    out << s.passed << " of " << total << " tests passed";
    if (s.failed) out << ", " << s.failed << " failed";
    if (s.errors) out << ", " << s.errors << (s.errors == 1 ? " error" : " errors");
    out << ".\n";
  }
  if (compileFailed) {
    out << "\nThe code does not compile:\n";
    std::size_t shown = 0, errors = 0;
    for (const auto& m : result.compilerMessages) {
      if (m.severity != "error" && m.severity != "fatal error") continue;
      ++errors;
      if (shown >= ctx.limits.compilerMessages) continue;
      ++shown;
      out << "  " << relativePath(m.file, ctx.workspaceRoot) << ":" << m.line << ": " << m.severity << ": "
          << sanitizeText(m.message, ctx, false) << "\n";
      std::string src = lineOf(ctx, m.file, m.line);
      if (!src.empty()) out << "      " << m.line << " | " << src << "\n";
    }
    if (errors > shown) out << "  (" << errors - shown << " more errors)\n";
  }
  for (const auto& t : result.tests) {
    if (t.status == TestStatus::Passed || t.status == TestStatus::Skipped) continue;
    out << "\n" << statusWord(t) << " " << t.name;
    if (!t.file.empty() && t.line > 0) out << " (" << relativePath(t.file, ctx.workspaceRoot) << ":" << t.line << ")";
    out << "\n";
    // The failing line of the test: the deepest frame in a test file.
    const testing::Frame* testFrame = nullptr;
    for (const auto& f : t.frames) {
      if (isTestFile(result, f.file) || f.file == t.file) testFrame = &f;
    }
    if (testFrame && testFrame->line > 0) {
      std::string src = lineOf(ctx, testFrame->file, testFrame->line);
      out << "  at " << relativePath(testFrame->file, ctx.workspaceRoot) << ":" << testFrame->line;
      if (!src.empty()) out << ": " << src;
      out << "\n";
    }
    if (t.status == TestStatus::Timeout) {
      // The harness stops a test itself when the run's time runs out, so the sandbox's verdict
      // may be a plain exit: the limit still is the run's time limit.
      std::string words = verdictInWords(result, ctx);
      if (words.empty() || result.verdict->status != sandbox::Status::Timeout) {
        std::ostringstream limit;
        limit << "timed out after " << ctx.timeLimitSeconds << " s";
        words = limit.str();
      }
      out << "  " << words << " (the test did not finish)\n";
    } else if (!t.message.empty()) {
      out << "  " << sanitizeText(t.message, ctx, false) << "\n";
    }
    if (!t.details.empty() && t.status != TestStatus::Timeout) {
      // The runner's diff or explanation, bounded, indented under the one-line message.
      for (const auto& l : splitLines(boundHeadTail(sanitizeText(t.details, ctx, false), 24, 1600))) out << "    " << l << "\n";
    }
    if (t.kind == FailureKind::SandboxViolation || t.kind == FailureKind::MemoryLimit) {
      std::string verdict = verdictInWords(result, ctx);
      if (!verdict.empty() && t.message.find(verdict) == std::string::npos) out << "  the run " << verdict << "\n";
    }
    if (t.origin) {
      const auto& o = *t.origin;
      out << "  " << o.function << (o.kind == "raise" ? " raised" : " returned") << " at "
          << relativePath(o.file, ctx.workspaceRoot) << ":" << o.line;
      if (!o.value.empty() && o.kind != "raise") out << " the value " << sanitizeText(o.value, ctx, false);
      if (!o.locals.empty()) {
        out << " with ";
        for (std::size_t i = 0; i < o.locals.size(); ++i) {
          out << (i ? ", " : "") << o.locals[i].first << "=" << sanitizeText(o.locals[i].second, ctx, false);
        }
      }
      out << "\n";
      std::string src = lineOf(ctx, o.file, o.line);
      if (!src.empty()) out << "      " << o.line << " | " << src << "\n";
    }
    // The last frames in the user's code (not the test files), innermost last.
    std::vector<const testing::Frame*> user;
    for (const auto& f : t.frames) {
      if (f.line <= 0 || &f == testFrame || isTestFile(result, f.file)) continue;
      if (!ctx.workspaceRoot.empty() && f.file.rfind(ctx.workspaceRoot, 0) != 0 && f.file != result.file) continue;
      user.push_back(&f);
    }
    if (!user.empty() && !(t.origin && user.size() == 1 && user.back()->line == t.origin->line)) {
      out << "  in your code (most recent call last):\n";
      std::size_t from = user.size() > 3 ? user.size() - 3 : 0;
      for (std::size_t i = from; i < user.size(); ++i) {
        const auto& f = *user[i];
        out << "    " << relativePath(f.file, ctx.workspaceRoot) << ":" << f.line;
        if (!f.function.empty()) out << " in " << f.function;
        std::string src = lineOf(ctx, f.file, f.line);
        if (!src.empty()) out << ": " << src;
        out << "\n";
      }
    }
    std::string output = sanitizeText(t.output, ctx, true);
    while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
    if (!output.empty()) {
      out << "  output:\n";
      for (const auto& l : splitLines(boundHeadTail(output, ctx.limits.outputLines, 2000))) out << "    " << l << "\n";
    }
  }
  // Output outside any test (a crash before the first test, an import error's noise).
  if (result.tests.empty() && !compileFailed) {
    std::string rest = sanitizeText(result.stderrText.empty() ? result.stdoutText : result.stderrText, ctx, true);
    while (!rest.empty() && (rest.back() == '\n' || rest.back() == ' ')) rest.pop_back();
    if (!rest.empty()) {
      out << "\noutput:\n";
      for (const auto& l : splitLines(boundHeadTail(rest, ctx.limits.outputLines * 2, 4000))) out << "  " << l << "\n";
    }
  }
  std::vector<std::string> passed;
  for (const auto& t : result.tests) {
    if (t.status == TestStatus::Passed) passed.push_back(t.name);
  }
  if (!passed.empty() && passed.size() <= 20) {
    out << "\nPassed: ";
    for (std::size_t i = 0; i < passed.size(); ++i) out << (i ? ", " : "") << passed[i];
    out << "\n";
  }
  return boundHeadTail(out.str(), ctx.limits.maxLines, ctx.limits.maxBytes);
}

}  // namespace greenlight::core::refine
