// textDocument/codeLens (greenlight resolves lenses eagerly: no codeLens/resolve) and
// workspace/codeLens/refresh (no params; sent when test results change what a lens says).
#pragma once

#include <optional>

#include "protocol/Basic.h"
#include "protocol/Workspace.h"

namespace greenlight::protocol {

struct CodeLensParams {
  TextDocumentIdentifier textDocument;
};
void fromJson(const Json& j, CodeLensParams& out, const JsonPath& path);
void to_json(Json& j, const CodeLensParams& p);

struct CodeLens {
  Range range;                     // the line the lens sits above
  std::optional<Command> command;  // always set by greenlight (no resolve step)
  Json data;                       // null = absent
};
void fromJson(const Json& j, CodeLens& out, const JsonPath& path);
void to_json(Json& j, const CodeLens& l);

}  // namespace greenlight::protocol
