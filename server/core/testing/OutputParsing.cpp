#include "core/testing/OutputParsing.h"
#include "support/Regex.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace greenlight::core::testing {

namespace {

// JSON from Python's json module may carry lone surrogates ("\udcff": a test printed bytes that
// are not UTF-8, decoded with surrogateescape), which a strict parser refuses, losing the event
// and the test's result with it. Each lone one becomes U+FFFD; pairs stay.
void replaceLoneSurrogates(std::string& line) {
  auto hex4 = [&](std::size_t at, unsigned& v) {
    if (at + 4 > line.size()) return false;
    v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      char c = line[k];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else return false;
    }
    return true;
  };
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    if (line[i] != '\\') continue;
    if (line[i + 1] != 'u') {
      ++i;  // an escaped character (\\, \", \n): past it
      continue;
    }
    unsigned v = 0;
    if (!hex4(i + 2, v)) continue;
    if (v >= 0xD800 && v <= 0xDBFF) {
      unsigned low = 0;
      if (i + 11 < line.size() && line.compare(i + 6, 2, "\\u") == 0 && hex4(i + 8, low) && low >= 0xDC00 && low <= 0xDFFF) {
        i += 11;
        continue;
      }
      line.replace(i + 2, 4, "fffd");
    } else if (v >= 0xDC00 && v <= 0xDFFF) {
      line.replace(i + 2, 4, "fffd");
    }
    i += 5;
  }
}

}  // namespace

nlohmann::json parseEventLine(std::string line) {
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() && line.find("\\ud") != std::string::npos) {
    replaceLoneSurrogates(line);
    j = nlohmann::json::parse(line, nullptr, false);
  }
  if (!j.is_discarded() && !j.is_object()) return nlohmann::json(nlohmann::json::value_t::discarded);
  return j;
}

EventStream extractEvents(const std::string& text) {
  EventStream out;
  std::size_t pos = 0;
  const std::string marker = kEventMarker;
  while (pos < text.size()) {
    std::size_t m = text.find(marker, pos);
    if (m == std::string::npos) {
      out.rest.append(text, pos, std::string::npos);
      break;
    }
    // The harness writes "\n" before the marker: drop that separator from the plain text.
    std::size_t plainEnd = m;
    if (plainEnd > pos && text[plainEnd - 1] == '\n') --plainEnd;
    out.rest.append(text, pos, plainEnd - pos);
    std::size_t start = m + marker.size();
    std::size_t nl = text.find('\n', start);
    auto j = parseEventLine(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (!j.is_discarded() && j.is_object()) out.events.push_back(std::move(j));
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

namespace {

std::string str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

int num(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return 0;
  return it->get<int>();
}

TestStatus statusFrom(const std::string& s) {
  if (s == "passed") return TestStatus::Passed;
  if (s == "failed") return TestStatus::Failed;
  if (s == "timeout") return TestStatus::Timeout;
  if (s == "skipped") return TestStatus::Skipped;
  return TestStatus::Error;
}

FailureKind kindFrom(const std::string& kind, TestStatus status) {
  if (kind == "assertion") return FailureKind::Assertion;
  if (kind == "exception") return FailureKind::Exception;
  if (kind == "timeout") return FailureKind::Timeout;
  if (kind == "compile") return FailureKind::Compile;
  if (kind == "memory") return FailureKind::MemoryLimit;
  switch (status) {
    case TestStatus::Failed: return FailureKind::Assertion;
    case TestStatus::Error: return FailureKind::Exception;
    case TestStatus::Timeout: return FailureKind::Timeout;
    default: return FailureKind::None;
  }
}

}  // namespace

TestResult resultFromEvent(const nlohmann::json& e) {
  TestResult r;
  r.name = str(e, "name");
  r.file = str(e, "file");
  r.line = num(e, "line");
  r.status = statusFrom(str(e, "status"));
  r.kind = kindFrom(str(e, "kind"), r.status);
  r.message = str(e, "message");
  r.id = str(e, "id");
  r.parent = str(e, "parent");
  r.outcome = str(e, "outcome");
  if (r.outcome == testStatusName(r.status)) r.outcome.clear();  // says nothing more than the status
  r.reason = str(e, "reason");
  r.details = str(e, "details");
  // One line is the message (the diagnostic, `file:line: error:`); the rest of a multi-line one
  // ("Lists differ: ...", a diff) is its details.
  if (auto nl = r.message.find('\n'); nl != std::string::npos) {
    std::string rest = r.message.substr(nl + 1);
    r.message.erase(nl);
    while (!r.message.empty() && (r.message.back() == '\r' || r.message.back() == ' ')) r.message.pop_back();
    if (r.details.empty()) {
      while (!rest.empty() && rest.back() == '\n') rest.pop_back();
      r.details = rest;
    }
  }
  r.expected = str(e, "expected");
  r.actual = str(e, "actual");
  r.output = str(e, "output");
  if (auto it = e.find("duration_ms"); it != e.end() && it->is_number()) r.durationMs = it->get<double>();
  if (auto it = e.find("frames"); it != e.end() && it->is_array()) {
    for (const auto& f : *it) {
      if (!f.is_object()) continue;
      r.frames.push_back({str(f, "file"), num(f, "line"), num(f, "column"), str(f, "function")});
    }
  }
  if (auto it = e.find("origin"); it != e.end() && it->is_object()) {
    ValueOrigin o;
    o.function = str(*it, "function");
    o.file = str(*it, "file");
    o.line = num(*it, "line");
    o.defLine = num(*it, "def_line");
    o.kind = str(*it, "kind");
    o.value = str(*it, "value");
    if (auto l = it->find("locals"); l != it->end() && l->is_array()) {
      for (const auto& pair : *l) {
        if (pair.is_array() && pair.size() == 2 && pair[0].is_string() && pair[1].is_string())
          o.locals.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
      }
    }
    if (!o.file.empty() && o.line > 0) r.origin = std::move(o);
  }
  return r;
}

namespace {

// {"ev":"coverage","file":F,"lines":[[line,count],...]}: summed into the entry for F.
void addCoverageEvent(std::vector<FileCoverage>& into, const nlohmann::json& e) {
  std::string file = str(e, "file");
  if (file.empty()) return;
  auto it = std::find_if(into.begin(), into.end(), [&](const FileCoverage& c) { return c.file == file; });
  if (it == into.end()) {
    into.push_back({file, {}});
    it = std::prev(into.end());
  }
  for (const auto& pair : e["lines"]) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number()) continue;
    int line = pair[0].get<int>();
    if (line < 1) continue;
    it->hits[line] += std::max(0L, static_cast<long>(pair[1].get<double>()));
  }
}

}  // namespace

HarnessOutcome foldEvents(const std::vector<nlohmann::json>& events) {
  HarnessOutcome out;
  for (const auto& e : events) {
    std::string ev = str(e, "ev");
    if (ev == "start") {
      TestResult r;
      r.name = str(e, "name");
      r.id = str(e, "id");
      r.file = str(e, "file");
      r.line = num(e, "line");
      out.running = r;
    } else if (ev == "result") {
      auto r = resultFromEvent(e);
      if (out.running && (out.running->id.empty() || r.id.empty() ? out.running->name == r.name : out.running->id == r.id))
        out.running.reset();
      out.results.push_back(std::move(r));
    } else if (ev == "loaded") {
      if (out.running && (out.running->id.empty() ? out.running->name == str(e, "name") : out.running->id == str(e, "id")))
        out.running.reset();
    } else if (ev == "timeout" && out.running) {
      TestResult r = *out.running;
      r.status = TestStatus::Timeout;
      r.kind = FailureKind::Timeout;
      r.message = "timed out (time limit reached)";
      auto parsed = resultFromEvent(e);
      r.frames = parsed.frames;
      out.results.push_back(std::move(r));
      out.running.reset();
    } else if (ev == "warning") {
      RunWarning w;
      w.file = str(e, "file");
      w.line = num(e, "line");
      w.code = str(e, "code");
      w.message = str(e, "message");
      if (!w.message.empty()) out.warnings.push_back(std::move(w));
    } else if (ev == "done") {
      out.done = true;
    } else if (ev == "coverage" && e.contains("lines") && e["lines"].is_array()) {
      addCoverageEvent(out.coverage, e);
    } else if (ev == "collected" && e.contains("tests") && e["tests"].is_array()) {
      for (const auto& t : e["tests"]) {
        if (!t.is_object()) continue;
        TestResult r;
        r.id = str(t, "id");
        r.name = str(t, "name");
        r.file = str(t, "file");
        r.line = num(t, "line");
        r.parent = str(t, "parent");
        if (!r.name.empty() || !r.id.empty()) out.collected.push_back(std::move(r));
      }
    }
  }
  return out;
}

std::vector<CompilerMessage> parseCompilerOutput(const std::string& text) {
  static const std::regex diag = support::regex(R"(^([^:\s][^:]*):(\d+):(?:(\d+):)?\s+(fatal error|error|warning|note):\s*(.*)$)");
  static const std::regex link = support::regex(R"(^([^:\s][^:]*):(\d+):\s*(undefined reference to .*)$)");
  std::vector<CompilerMessage> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, diag)) {
      CompilerMessage c;
      c.file = m[1].str();
      c.line = std::stoi(m[2].str());
      c.column = m[3].matched ? std::stoi(m[3].str()) : 0;
      c.severity = m[4].str();
      c.message = m[5].str();
      out.push_back(std::move(c));
    } else if (std::regex_match(line, m, link)) {
      out.push_back({m[1].str(), std::stoi(m[2].str()), 0, "error", m[3].str()});
    }
  }
  return out;
}

std::vector<CompilerMessage> parseGenericLocations(const std::string& text) {
  static const std::regex loc = support::regex(R"((?:^|[\s("'])((?:[A-Za-z]:)?[\w./\\-]*[./][\w./\\-]*):(\d+)(?::(\d+))?(?::\s*(.*))?)");
  static const std::regex severity = support::regex(R"(^(fatal error|error|warning|note|info|information)\s*(?:\[[^\]]*\])?\s*:\s*(.*)$)",
                                   std::regex::icase);
  std::vector<CompilerMessage> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    if (std::regex_search(line, m, loc)) {
      CompilerMessage c;
      c.file = m[1].str();
      c.line = std::stoi(m[2].str());
      c.column = m[3].matched ? std::stoi(m[3].str()) : 0;
      c.severity = "error";
      c.code = "test-failed";
      c.message = m[4].matched && !m[4].str().empty() ? m[4].str() : line;
      std::smatch s;
      const std::string rest = m[4].matched ? m[4].str() : "";
      if (std::regex_match(rest, s, severity)) {
        std::string word = s[1].str();
        std::transform(word.begin(), word.end(), word.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        c.severity = word == "warning" ? "warning" : (word == "note" || word == "info" || word == "information") ? "note" : word;
        c.code = "compile-error";
        c.message = s[2].str().empty() ? line : s[2].str();
      }
      if (c.line > 0) out.push_back(std::move(c));
    }
  }
  return out;
}

std::optional<AssertFailure> parseAssertFailure(const std::string& text) {
  static const std::regex r = support::regex(R"(: ([^:\n]+):(\d+): ([^\n]*?): Assertion `([\s\S]*?)' failed\.)");
  std::smatch m;
  if (!std::regex_search(text, m, r)) return std::nullopt;
  AssertFailure a;
  a.file = m[1].str();
  a.line = std::stoi(m[2].str());
  a.function = m[3].str();
  a.expression = m[4].str();
  return a;
}

void PathMap::addFile(std::string sandboxPath, std::string hostPath) {
  files_.emplace_back(std::move(sandboxPath), std::move(hostPath));
}

void PathMap::addPrefix(std::string sandboxPrefix, std::string hostPrefix) {
  while (sandboxPrefix.size() > 1 && sandboxPrefix.back() == '/') sandboxPrefix.pop_back();
  while (hostPrefix.size() > 1 && hostPrefix.back() == '/') hostPrefix.pop_back();
  prefixes_.emplace_back(std::move(sandboxPrefix), std::move(hostPrefix));
}

std::string PathMap::toHost(const std::string& path) const {
  for (const auto& [s, h] : files_) {
    if (path == s) return h;
  }
  for (const auto& [s, h] : prefixes_) {
    if (path.size() > s.size() && path.compare(0, s.size(), s) == 0 && path[s.size()] == '/')
      return h + path.substr(s.size());
  }
  return path;
}

void PathMap::mapFrames(std::vector<Frame>& frames) const {
  for (auto& f : frames) f.file = toHost(f.file);
}

std::string PathMap::mapText(std::string text) const {
  for (const auto& [s, h] : prefixes_) {
    const std::string from = s + "/";
    const std::string to = h + "/";
    for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
      text.replace(pos, from.size(), to);
  }
  return text;
}

void PathMap::mapResult(TestResult& r) const {
  r.file = toHost(r.file);
  mapFrames(r.frames);
  r.message = mapText(std::move(r.message));
  r.output = mapText(std::move(r.output));
  if (r.origin) r.origin->file = toHost(r.origin->file);
}

std::string capText(const std::string& text, std::size_t cap) {
  if (text.size() <= cap) return text;
  std::size_t cut = cap;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "\n[output truncated]";
}

}  // namespace greenlight::core::testing
