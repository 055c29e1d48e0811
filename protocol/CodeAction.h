// textDocument/codeAction and codeAction/resolve.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/Diagnostics.h"
#include "protocol/Workspace.h"

namespace greenlight::protocol {

struct CodeActionContext {
  std::vector<Diagnostic> diagnostics;  // the client's diagnostics overlapping the range
  // Kinds the client wants; an action matches when a listed kind is a prefix of its kind at a
  // '.' boundary ("source" matches "source.greenlight.runTests"). Absent = all kinds.
  std::optional<std::vector<std::string>> only;
  std::optional<int> triggerKind;  // 1 invoked, 2 automatic
};
void fromJson(const Json& j, CodeActionContext& out, const JsonPath& path);
void to_json(Json& j, const CodeActionContext& c);

struct CodeActionParams {
  TextDocumentIdentifier textDocument;
  Range range;
  CodeActionContext context;
};
void fromJson(const Json& j, CodeActionParams& out, const JsonPath& path);
void to_json(Json& j, const CodeActionParams& p);

struct CodeAction {
  std::string title;
  std::optional<std::string> kind;
  std::vector<Diagnostic> diagnostics;  // omitted when empty
  std::optional<bool> isPreferred;
  std::optional<WorkspaceEdit> edit;
  std::optional<Command> command;
  // Round-tripped by the client to codeAction/resolve untouched; null = absent.
  Json data;
};
void fromJson(const Json& j, CodeAction& out, const JsonPath& path);
void to_json(Json& j, const CodeAction& a);

// True when `kind` is selected by a context.only filter (see CodeActionContext::only).
bool kindMatches(const std::optional<std::vector<std::string>>& only, std::string_view kind);

}  // namespace greenlight::protocol
