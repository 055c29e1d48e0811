#include "core/testing/RunJson.h"

#include <cmath>
#include <sstream>

#include "core/testing/Coverage.h"
#include "core/testing/Diagnostics.h"
#include "core/verdict/VerdictJson.h"

namespace greenlight::core::testing {

nlohmann::ordered_json testResultToJson(const TestResult& t) {
  nlohmann::ordered_json j;
  j["name"] = t.name;
  j["file"] = t.file;
  j["line"] = t.line;
  j["status"] = std::string(testStatusName(t.status));
  j["message"] = t.message;
  if (!t.id.empty()) j["id"] = t.id;
  if (!t.parent.empty()) j["parent"] = t.parent;
  if (!t.outcome.empty()) j["outcome"] = t.outcome;
  if (!t.reason.empty()) j["reason"] = t.reason;
  if (!t.details.empty()) j["details"] = t.details;
  j["duration_ms"] = std::round(t.durationMs * 100) / 100;
  if (!t.expected.empty()) j["expected"] = t.expected;
  if (!t.actual.empty()) j["actual"] = t.actual;
  if (t.kind != FailureKind::None) j["code"] = std::string(failureCode(t.kind));
  if (!t.frames.empty()) {
    nlohmann::ordered_json frames = nlohmann::ordered_json::array();
    for (const auto& f : t.frames) {
      nlohmann::ordered_json x;
      x["file"] = f.file;
      x["line"] = f.line;
      if (f.column) x["column"] = f.column;
      if (!f.function.empty()) x["function"] = f.function;
      frames.push_back(std::move(x));
    }
    j["frames"] = std::move(frames);
  }
  if (!t.output.empty()) j["output"] = t.output;
  if (t.origin) {
    const ValueOrigin& o = *t.origin;
    nlohmann::ordered_json locals = nlohmann::ordered_json::array();
    for (const auto& [k, v] : o.locals) locals.push_back({k, v});
    j["origin"] = {{"function", o.function}, {"file", o.file}, {"line", o.line}, {"def_line", o.defLine},
                   {"kind", o.kind}, {"value", o.value}, {"locals", locals}};
  }
  return j;
}

nlohmann::ordered_json runResultToJson(const RunResult& r, int coverFirst, int coverLast) {
  nlohmann::ordered_json j;
  j["file"] = r.file;
  j["language"] = std::string(languageNameOf(r.language, r.file));
  j["cached"] = r.cached;
  nlohmann::ordered_json tests = nlohmann::ordered_json::array();
  for (const auto& t : r.tests) tests.push_back(testResultToJson(t));
  j["tests"] = std::move(tests);
  nlohmann::ordered_json diags = nlohmann::ordered_json::array();
  for (const auto& d : r.diagnostics) diags.push_back(diagnosticToJson(d));
  j["diagnostics"] = std::move(diags);
  nlohmann::ordered_json s;
  s["passed"] = r.summary.passed;
  s["failed"] = r.summary.failed;
  s["errors"] = r.summary.errors;
  s["skipped"] = r.summary.skipped;
  // What the run executed (Coverage.h): the function a FILE:LINE run asked about, else each
  // covered file whole; absent when nothing was measured.
  if (!r.coverage.empty()) {
    nlohmann::ordered_json cov = nlohmann::ordered_json::array();
    for (const auto& fc : r.coverage) {
      const bool target = findCoverage({fc}, r.file) != nullptr;
      auto t = targetCoverage({fc}, fc.file, target ? coverFirst : 1, target ? coverLast : 0);
      if (!t) continue;
      nlohmann::ordered_json c;
      c["file"] = fc.file;
      c["lines"] = t->lines;
      c["run"] = t->run;
      c["not_run"] = t->notRun;
      nlohmann::ordered_json counts = nlohmann::ordered_json::array();
      for (const auto& [line, n] : t->hits) counts.push_back({line, n});
      c["hits"] = std::move(counts);
      cov.push_back(std::move(c));
    }
    j["coverage"] = std::move(cov);
    if (auto t = targetCoverage(r.coverage, r.file, coverFirst, coverLast))
      s["coverage"] = {{"lines", t->lines.size()}, {"run", t->run.size()}};
  }
  j["summary"] = std::move(s);
  j["sandbox"] = r.verdict ? verdictToJson(*r.verdict) : nlohmann::ordered_json::object();
  if (!r.selectionNote.empty()) j["selection"] = r.selectionNote;
  if (!r.discoveryNote.empty()) j["discovery"] = r.discoveryNote;
  if (!r.coverageNote.empty()) j["coverage_note"] = r.coverageNote;
  if (r.cancelled) j["cancelled"] = true;
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

std::string runResultToText(const RunResult& r) {
  std::ostringstream out;
  for (const auto& d : r.diagnostics) {
    out << d.file << ':' << d.line << ':' << d.column << ": " << d.severity << ": " << d.message << " [" << d.code << "]\n";
    for (const auto& rel : d.related)
      out << rel.file << ':' << rel.line << ':' << (rel.column ? rel.column : 1) << ": note: " << rel.message << '\n';
  }
  out << summaryLine(r.summary) << '\n';
  return out.str();
}

}  // namespace greenlight::core::testing
