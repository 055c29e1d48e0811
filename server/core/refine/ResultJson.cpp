#include "core/refine/ResultJson.h"

#include <cmath>
#include <sstream>
#include <vector>

#include "protocol/Uri.h"

namespace greenlight::core::refine {

using nlohmann::ordered_json;

namespace {

double ms(double v) { return std::round(v * 10.0) / 10.0; }

// JSON strings must be UTF-8, and nlohmann's dump() throws on anything else. The texts here come
// from files (a Latin-1 test file quoted in feedback, a path), compilers and the model: each
// invalid byte becomes U+FFFD, so every consumer of the object can serialise it.
std::string utf8(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok && n > 1) {
      // No overlong forms, surrogates or code points past U+10FFFF.
      const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
      ok = !(n == 2 && c < 0xC2) && !(n == 3 && c == 0xE0 && c1 < 0xA0) && !(n == 3 && c == 0xED && c1 >= 0xA0) &&
           !(n == 4 && c == 0xF0 && c1 < 0x90) && !(n == 4 && (c > 0xF4 || (c == 0xF4 && c1 >= 0x90)));
    }
    if (ok) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      out.emplace_back(text.substr(start));
      break;
    }
    out.emplace_back(text.substr(start, nl - start + 1));
    start = nl + 1;
  }
  return out;
}

std::string range(std::size_t start, std::size_t count) {
  // Unified diff ranges: "start,count", start 1-based (0 when count is 0, per GNU diff).
  std::ostringstream o;
  o << (count == 0 ? start : start + 1);
  if (count != 1) o << "," << count;
  return o.str();
}

}  // namespace

std::string resultHeadline(const RefineResult& r) {
  std::string name = r.target && !r.target->name.empty() ? r.target->name : "code";
  std::ostringstream o;
  int rounds = static_cast<int>(r.rounds.size());
  int total = r.testsPassed + r.testsFailed;
  if (r.status == "passed" && r.tests) {
    int count = r.tests->count;
    o << name << ": " << count << (r.tests->isNew ? " new" : "") << (count == 1 ? " test, " : " tests, ") << r.testsPassed << "/"
      << total << " passed";
    if (r.coverage) o << " · " << testing::linesRunText(*r.coverage, "new lines");
  } else if (r.status == "tests_proposed" && r.proposal) {
    std::size_t n = r.proposal->names.size();
    o << name << ": " << n << (n == 1 ? " test" : " tests") << " proposed";
    if (!r.proposal->flagged.empty()) o << ", " << r.proposal->flagged.size() << " pass on the stub";
  } else if (r.status == "passed") {
    if (rounds == 0) o << name << ": " << total << "/" << total << " tests already pass";
    else o << name << ": " << r.testsPassed << "/" << total << " tests passed in " << rounds << (rounds == 1 ? " round" : " rounds");
    if (r.coverage) o << " · " << testing::linesRunText(*r.coverage, "new lines");
  } else if (r.status == "unverified") {
    o << name << ": generated, unverified (no tests found)";
  } else if (r.status == "failed") {
    o << name << ": no candidate passed";
    if (total > 0) o << " (best " << r.testsPassed << "/" << total << ")";
  } else if (r.status == "cancelled") {
    o << name << ": cancelled";
  } else {
    o << name << ": " << (r.error.empty() ? "error" : r.error);
  }
  return o.str();
}

ordered_json refineResultToJson(const RefineResult& r, bool applied) {
  ordered_json j;
  j["status"] = r.status;
  j["file"] = utf8(r.file);
  if (r.target) {
    const Target& t = *r.target;
    int line = t.commentFirst > 0 ? std::min(t.commentFirst, t.kind == TargetKind::Stub ? t.first : t.commentFirst) : t.first;
    int end = t.kind == TargetKind::Stub ? t.last : t.commentLast;
    j["target"] = {{"name", utf8(t.name)}, {"line", line}, {"end_line", end}, {"kind", std::string(targetKindName(t.kind))}};
  } else {
    j["target"] = nullptr;
  }
  j["code"] = utf8(r.code);
  ordered_json imports = ordered_json::array();
  for (const auto& i : r.additions.imports) imports.push_back(utf8(i));
  j["imports"] = imports;
  j["applied"] = applied;
  auto editJson = [&](const TextEdit& e) -> ordered_json {
    return {{"file", utf8(r.file)},     {"line", e.line},           {"column", e.column},
            {"end_line", e.endLine}, {"end_column", e.endColumn}, {"new_text", utf8(e.newText)}};
  };
  j["edit"] = r.edit ? editJson(*r.edit) : ordered_json(nullptr);
  ordered_json edits = ordered_json::array();
  for (const auto& e : r.edits) edits.push_back(editJson(e));
  j["edits"] = edits;
  ordered_json rounds = ordered_json::array();
  for (const auto& round : r.rounds) {
    ordered_json cands = ordered_json::array();
    for (const auto& c : round.candidates) {
      ordered_json cj = {{"status", c.status}, {"passed", c.passed}, {"failed", c.failed}, {"errors", c.errors}, {"feedback", utf8(c.feedback)}};
      if (c.coverage) cj["coverage"] = testing::targetCoverageToJson(*c.coverage);
      cands.push_back(std::move(cj));
    }
    rounds.push_back({{"round", round.round}, {"model_ms", ms(round.modelMs)}, {"tests_ms", ms(round.testsMs)}, {"candidates", cands}});
  }
  j["rounds"] = rounds;
  j["summary"] = {{"rounds", static_cast<int>(r.rounds.size())},
                  {"passed", r.testsPassed},
                  {"failed", r.testsFailed},
                  {"model_ms", ms(r.modelMs)},
                  {"tests_ms", ms(r.testsMs)},
                  {"prompt_tokens", r.promptTokens},
                  {"completion_tokens", r.completionTokens}};
  if (r.coverage) j["summary"]["coverage"] = testing::targetCoverageToJson(*r.coverage);
  if (r.coverageRound) {
    j["summary"]["coverage_round"] = true;
    j["summary"]["coverage_reason"] = utf8(r.coverageReason);
  }
  if (r.proposal) {
    const TestsProposal& p = *r.proposal;
    ordered_json t;
    t["uri"] = protocol::uriFromPath(p.path);
    t["file"] = utf8(p.path);
    t["exists"] = p.exists;
    t["text"] = utf8(p.text);
    if (p.exists) t["original"] = utf8(p.original);
    t["count"] = static_cast<int>(p.names.size());
    ordered_json names = ordered_json::array();
    for (const auto& n : p.names) names.push_back(utf8(n));
    t["names"] = names;
    ordered_json flagged = ordered_json::array();
    for (const auto& f : p.flagged) flagged.push_back({{"name", utf8(f.name)}, {"line", f.line}, {"message", utf8(f.message)}});
    t["flagged"] = flagged;
    t["error"] = p.error.empty() ? ordered_json(nullptr) : ordered_json(utf8(p.error));
    j["tests"] = t;
  } else if (r.tests) {
    j["tests"] = {{"uri", protocol::uriFromPath(r.tests->path)}, {"file", utf8(r.tests->path)}, {"count", r.tests->count}, {"new", r.tests->isNew}};
  }
  j["error"] = r.error.empty() ? ordered_json(nullptr) : ordered_json(utf8(r.error));
  return j;
}

std::string unifiedDiff(std::string_view before, std::string_view after, const std::string& path) {
  if (before == after) return "";
  auto a = splitLines(before), b = splitLines(after);
  // One contiguous change (what a splice makes): common prefix and suffix, one hunk.
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) ++suffix;
  const std::size_t context = 3;
  std::size_t from = prefix > context ? prefix - context : 0;
  std::size_t aEnd = std::min(a.size(), a.size() - suffix + context);
  std::size_t bEnd = std::min(b.size(), b.size() - suffix + context);
  std::ostringstream o;
  o << "--- a/" << path << "\n+++ b/" << path << "\n";
  o << "@@ -" << range(from, aEnd - from) << " +" << range(from, bEnd - from) << " @@\n";
  auto emit = [&](char mark, const std::string& line) {
    o << mark << line;
    if (line.empty() || line.back() != '\n') o << "\n\\ No newline at end of file\n";
  };
  for (std::size_t i = from; i < prefix; ++i) emit(' ', a[i]);
  for (std::size_t i = prefix; i < a.size() - suffix; ++i) emit('-', a[i]);
  for (std::size_t i = prefix; i < b.size() - suffix; ++i) emit('+', b[i]);
  for (std::size_t i = a.size() - suffix; i < aEnd; ++i) emit(' ', a[i]);
  return o.str();
}

}  // namespace greenlight::core::refine
