#include "core/testing/cmake/Trace.h"
#include "support/Regex.h"

#include <cstdlib>
#include <sstream>

namespace greenlight::core::testing::cmake {

namespace {

std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool namesSignal(const std::string& message) {
  static const std::regex r = support::regex(R"(\bSIG(SEGV|FPE|BUS|ILL|ABRT)\b|signal \d+|[Ss]egmentation fault|crash)");
  return std::regex_search(message, r);
}

}  // namespace

std::vector<TraceEvent> parseTrace(std::string_view text) {
  std::vector<TraceEvent> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) break;  // a torn last line (killed while writing)
    std::string_view line = text.substr(start, nl - start);
    start = nl + 1;
    if (line.rfind("GLTRACE ", 0) != 0) continue;
    line.remove_prefix(8);
    auto t1 = line.find('\t');
    auto t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string_view::npos) continue;
    TraceEvent e;
    e.kind = std::string(line.substr(0, t1));
    e.what = unescape(line.substr(t1 + 1, t2 - t1 - 1));
    std::string_view frames = line.substr(t2 + 1);
    std::size_t at = 0;
    while (at < frames.size()) {
      std::size_t semi = frames.find(';', at);
      if (semi == std::string_view::npos) semi = frames.size();
      std::string_view f = frames.substr(at, semi - at);
      at = semi + 1;
      auto sign = f.rfind('@');
      if (sign == std::string_view::npos) continue;
      TraceFrame tf;
      tf.object = std::string(f.substr(0, sign));
      tf.offset = std::strtoul(std::string(f.substr(sign + 1)).c_str(), nullptr, 16);
      e.frames.push_back(std::move(tf));
    }
    out.push_back(std::move(e));
  }
  return out;
}

bool wantsTrace(const TestResult& r, const std::string& outcome) {
  if (r.status != TestStatus::Failed && r.status != TestStatus::Error) return false;
  if (outcome == "crashed" || r.kind == FailureKind::Exception) return true;
  return r.message.find("threw") != std::string::npos || r.message.find("exception") != std::string::npos ||
         namesSignal(r.message);
}

const TraceEvent* eventFor(const TestResult& r, const std::string& outcome, const std::vector<TraceEvent>& events) {
  if (outcome == "crashed" || namesSignal(r.message)) {
    for (auto it = events.rbegin(); it != events.rend(); ++it)
      if (it->kind == "signal") return &*it;
  }
  const TraceEvent* found = nullptr;
  for (const auto& e : events) {
    if (e.kind != "throw" || e.what.empty()) continue;
    if (r.message.find(e.what) != std::string::npos || r.details.find(e.what) != std::string::npos) found = &e;
  }
  return found;
}

std::vector<std::vector<Frame>> parseAddr2line(std::string_view text) {
  std::vector<std::vector<Frame>> out;
  std::istringstream in{std::string(text)};
  std::string line, function;
  bool haveFunction = false;
  while (std::getline(in, line)) {
    if (line.rfind("0x", 0) == 0 && line.find(' ') == std::string::npos) {
      out.emplace_back();
      haveFunction = false;
      continue;
    }
    if (out.empty()) continue;
    if (!haveFunction) {
      function = line;
      haveFunction = true;
      continue;
    }
    haveFunction = false;
    auto paren = line.find(" (discriminator");
    if (paren != std::string::npos) line = line.substr(0, paren);
    auto colon = line.rfind(':');
    if (colon == std::string::npos || line.compare(0, 2, "??") == 0) continue;
    int n = std::atoi(line.c_str() + colon + 1);
    if (n <= 0) continue;
    out.back().push_back({line.substr(0, colon), n, 0, function == "??" ? "" : function});
  }
  return out;
}

bool frameworkHeader(const std::string& path) {
  static const std::regex r = support::regex(R"((^|/)(catch\.hpp|catch_amalgamated\.[ch]pp|doctest\.h)$|/(catch2|doctest|gtest|gmock)/)");
  return std::regex_search(path, r);
}

}  // namespace greenlight::core::testing::cmake
