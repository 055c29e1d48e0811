// Diagnostics and textDocument/publishDiagnostics.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/Basic.h"

namespace greenlight::protocol {

enum class DiagnosticSeverity { Error = 1, Warning = 2, Information = 3, Hint = 4 };

struct DiagnosticRelatedInformation {
  Location location;  // for greenlight: the failing assertion in the test file
  std::string message;
};
void fromJson(const Json& j, DiagnosticRelatedInformation& out, const JsonPath& path);
void to_json(Json& j, const DiagnosticRelatedInformation& r);

struct Diagnostic {
  Range range;
  std::optional<DiagnosticSeverity> severity;
  // integer | string on the wire; greenlight sends strings ("test-failed", "runtime-error", ...)
  // and keeps whatever a client echoes back in codeAction context verbatim.
  Json code;
  std::optional<std::string> source;  // "greenlight" for ours
  std::string message;
  std::vector<DiagnosticRelatedInformation> relatedInformation;  // omitted when empty
  // Preserved by the client between publishDiagnostics and codeAction (LSP 3.16); carries what
  // greenlight.fix needs. null = absent.
  Json data;
};
void fromJson(const Json& j, Diagnostic& out, const JsonPath& path);
void to_json(Json& j, const Diagnostic& d);

struct PublishDiagnosticsParams {
  DocumentUri uri;
  // The document version the diagnostics were computed for; absent for unopened files.
  std::optional<std::int64_t> version;
  std::vector<Diagnostic> diagnostics;  // empty clears the file's diagnostics
};
void fromJson(const Json& j, PublishDiagnosticsParams& out, const JsonPath& path);
void to_json(Json& j, const PublishDiagnosticsParams& p);

}  // namespace greenlight::protocol
