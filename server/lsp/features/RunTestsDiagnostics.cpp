#include "lsp/features/RunTestsDiagnostics.h"

#include <algorithm>

#include "core/testing/Coverage.h"
#include "core/testing/Discovery.h"
#include "lsp/features/RunTestsPositions.h"
#include "protocol/Uri.h"

namespace greenlight::lsp {
namespace {

using core::testing::RunResult;

struct Files {
  const FileSource& source;
  std::map<std::string, std::pair<FileState, TextPositions>> cache;

  std::pair<FileState, TextPositions>& get(const std::string& path) {
    auto it = cache.find(path);
    if (it != cache.end()) return it->second;
    FileState state = source(path);
    if (state.uri.empty()) state.uri = protocol::uriFromPath(path);
    TextPositions positions(state.text);
    return cache.emplace(path, std::make_pair(std::move(state), std::move(positions))).first->second;
  }
};

// Did a column at (file, line) come from a producer (compiler, stack frame) rather than from
// the line text? Only then is it in the producer's unit; else Diagnostics.cpp computed it from
// the text, in bytes. (Related information reuses both kinds: a frame's column for the
// assertion, the primary diagnostic's column for the definition's "assertion here".)
bool columnFromProducer(const std::string& file, int line, int column, const core::testing::Diagnostic& d,
                        const RunResult& result) {
  if (column <= 0) return false;
  for (const auto& m : result.compilerMessages) {
    if (m.file == file && m.line == line && m.column == column) return true;
  }
  auto frames = d.data.find("frames");
  if (frames != d.data.end() && frames->is_array()) {
    for (const auto& f : *frames) {
      if (f.is_object() && f.value("file", "") == file && f.value("line", 0) == line && f.value("column", 0) == column)
        return true;
    }
  }
  return false;
}

protocol::Range rangeFor(const TextPositions& tp, int line, int column, ColumnUnit unit, int endLine, int endColumn,
                         protocol::PositionEncoding enc) {
  if (!tp.hasText()) {
    protocol::Position s = tp.rawPosition(line, column);
    return {s, endLine > 0 ? tp.rawPosition(endLine, endColumn) : s};
  }
  auto span = tp.codeSpan(line);
  std::size_t start = column > 0 ? tp.offset(line, column, unit) : span.first;
  // Diagnostics.cpp computes ends from the line text, in bytes; related ranges run to the
  // last non-blank character of the line.
  std::size_t end = (endLine > 0 && endColumn > 0) ? tp.offset(endLine, endColumn, ColumnUnit::Bytes) : span.second;
  if (end <= start) end = tp.nextChar(start);
  return {tp.position(start, enc), tp.position(end, enc)};
}

std::string testFileOf(const RunResult& result, const std::string& testName) {
  for (const auto& t : result.tests) {
    if (t.name == testName) return t.file;
  }
  return "";
}

}  // namespace

std::map<std::string, FileDiagnostics> toLspDiagnostics(const RunResult& result, const FileSource& source,
                                                        protocol::PositionEncoding enc, const std::string& cxxCompiler) {
  Files files{source, {}};
  std::map<std::string, FileDiagnostics> out;
  auto entry = [&](const std::string& path) -> FileDiagnostics& {
    auto it = out.find(path);
    if (it != out.end()) return it->second;
    auto& f = files.get(path);
    FileDiagnostics fd;
    fd.uri = f.first.uri;
    fd.version = f.first.version;
    return out.emplace(path, std::move(fd)).first->second;
  };
  for (const auto& path : result.files) entry(path);

  for (const auto& d : result.diagnostics) {
    const bool compile = d.code == "compile-error";
    const ColumnUnit producer = producerUnit(result.language, compile, cxxCompiler);
    FileDiagnostics& target = entry(d.file);
    const TextPositions& tp = files.get(d.file).second;

    protocol::Diagnostic ld;
    const ColumnUnit startUnit = columnFromProducer(d.file, d.line, d.column, d, result) ? producer : ColumnUnit::Bytes;
    ld.range = rangeFor(tp, d.line, d.column, startUnit, d.endLine, d.endColumn, enc);
    ld.severity = d.severity == "warning" ? protocol::DiagnosticSeverity::Warning
                  : d.severity == "information" ? protocol::DiagnosticSeverity::Information
                                               : protocol::DiagnosticSeverity::Error;
    ld.code = d.code;
    ld.source = "greenlight";
    ld.message = d.message;
    for (const auto& r : d.related) {
      auto& rf = files.get(r.file);
      protocol::DiagnosticRelatedInformation info;
      info.location.uri = rf.first.uri;
      const ColumnUnit unit = columnFromProducer(r.file, r.line, r.column, d, result) ? producer : ColumnUnit::Bytes;
      info.location.range = rangeFor(rf.second, r.line, r.column, unit, 0, 0, enc);
      info.message = r.message;
      ld.relatedInformation.push_back(std::move(info));
    }
    // What greenlight.fix needs without re-running: the engine's data plus where and what.
    protocol::Json data = d.data;
    const std::string test = d.data.value("test", "");
    data["test"] = test;
    data["file"] = d.file;
    data["testFile"] = test.empty() ? d.file : testFileOf(result, test);
    data["sourceFile"] = result.file;
    data["message"] = d.message;
    data["code"] = d.code;
    ld.data = std::move(data);
    target.diagnostics.push_back(std::move(ld));
  }
  return out;
}

std::vector<protocol::Diagnostic> notRunDiagnostics(const std::vector<int>& lines, const std::optional<std::string>& text,
                                                   protocol::PositionEncoding enc) {
  std::vector<protocol::Diagnostic> out;
  TextPositions tp(text);
  for (int line : lines) {
    protocol::Diagnostic d;
    d.range = rangeFor(tp, line, 0, ColumnUnit::Bytes, 0, 0, enc);
    d.severity = protocol::DiagnosticSeverity::Information;
    d.code = "not-run";
    d.source = "greenlight";
    d.message = "no test runs this line";
    out.push_back(std::move(d));
  }
  return out;
}

void addNotRunDiagnostics(std::map<std::string, FileDiagnostics>& into, const RunResult& result, std::optional<int> line,
                          const FileSource& files, protocol::PositionEncoding enc) {
  if (!line || result.coverage.empty()) return;  // no function was asked about: never a whole file's lines
  const std::optional<std::string> text = files(result.file).text;
  auto fn = core::testing::functionAtLine(text.value_or(""), *line, result.language);
  if (!fn) return;
  auto [first, last] = core::testing::functionLines(text.value_or(""), fn->line, result.language);
  auto t = core::testing::targetCoverage(result.coverage, result.file, first, last);
  if (!t || t->notRun.empty()) return;
  auto it = into.find(result.file);
  if (it == into.end()) return;
  auto add = notRunDiagnostics(t->notRun, text, enc);
  it->second.diagnostics.insert(it->second.diagnostics.end(), add.begin(), add.end());
}

}  // namespace greenlight::lsp
