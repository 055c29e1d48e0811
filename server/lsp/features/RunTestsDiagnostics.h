// A finished run (core::testing::RunResult: 1-based, host paths, mixed column units) -> the
// LSP diagnostics to publish, per file, in the negotiated position encoding.
//
// Every file the run owns (RunResult::files: the source and its test files) gets an entry, an
// empty one when it has no failure, so publishing them all replaces what an older run showed.
// Positions are computed against the text the run used (the editor's unsaved text for open
// documents, else the file on disk), and published with that document version.
//
// Thread-safety: pure; `FileSource` is called on the calling thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/testing/TestTypes.h"
#include "protocol/Diagnostics.h"
#include "protocol/Positions.h"

namespace greenlight::lsp {

struct FileState {
  std::optional<std::string> text;      // nullopt: unreadable
  std::string uri;                      // the client's URI when open, else from the path
  std::optional<std::int64_t> version;  // set for open documents
};
using FileSource = std::function<FileState(const std::string& path)>;

struct FileDiagnostics {
  std::string uri;
  std::optional<std::int64_t> version;
  std::vector<protocol::Diagnostic> diagnostics;
};

// Keyed by host path.
std::map<std::string, FileDiagnostics> toLspDiagnostics(const core::testing::RunResult& result,
                                                        const FileSource& files, protocol::PositionEncoding encoding,
                                                        const std::string& cxxCompiler);

// Lines of a target no test ran (issue 35): one Information diagnostic each, code "not-run",
// "no test runs this line", over the line's code; `text` is the text the run used.
std::vector<protocol::Diagnostic> notRunDiagnostics(const std::vector<int>& lines, const std::optional<std::string>& text,
                                                   protocol::PositionEncoding encoding);
// Adds those of the function a run was asked about (at `line`, 1-based; nullopt: a whole-file
// run, which adds nothing: that would flood) to the source's entry of `into` (from
// toLspDiagnostics).
void addNotRunDiagnostics(std::map<std::string, FileDiagnostics>& into, const core::testing::RunResult& result,
                          std::optional<int> line, const FileSource& files, protocol::PositionEncoding encoding);

}  // namespace greenlight::lsp
