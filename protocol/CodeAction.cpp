#include "protocol/CodeAction.h"

namespace greenlight::protocol {

void fromJson(const Json& j, CodeActionContext& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "diagnostics", out.diagnostics, path);
  optionalField(j, "only", out.only, path);
  optionalField(j, "triggerKind", out.triggerKind, path);
}
void to_json(Json& j, const CodeActionContext& c) {
  j = Json{{"diagnostics", c.diagnostics}};
  if (c.only) j["only"] = *c.only;
  if (c.triggerKind) j["triggerKind"] = *c.triggerKind;
}

void fromJson(const Json& j, CodeActionParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "textDocument", out.textDocument, path);
  requiredField(j, "range", out.range, path);
  requiredField(j, "context", out.context, path);
}
void to_json(Json& j, const CodeActionParams& p) {
  j = Json{{"textDocument", p.textDocument}, {"range", p.range}, {"context", p.context}};
}

void fromJson(const Json& j, CodeAction& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "title", out.title, path);
  optionalField(j, "kind", out.kind, path);
  optionalField(j, "diagnostics", out.diagnostics, path);
  optionalField(j, "isPreferred", out.isPreferred, path);
  optionalField(j, "edit", out.edit, path);
  optionalField(j, "command", out.command, path);
  if (auto it = j.find("data"); it != j.end()) out.data = *it;
}
void to_json(Json& j, const CodeAction& a) {
  j = Json{{"title", a.title}};
  if (a.kind) j["kind"] = *a.kind;
  if (!a.diagnostics.empty()) j["diagnostics"] = a.diagnostics;
  if (a.isPreferred) j["isPreferred"] = *a.isPreferred;
  if (a.edit) j["edit"] = *a.edit;
  if (a.command) j["command"] = *a.command;
  if (!a.data.is_null()) j["data"] = a.data;
}

bool kindMatches(const std::optional<std::vector<std::string>>& only, std::string_view kind) {
  if (!only) return true;
  for (const auto& want : *only) {
    if (want.empty()) continue;
    if (kind == want) return true;
    if (kind.size() > want.size() && kind.substr(0, want.size()) == want && kind[want.size()] == '.')
      return true;
  }
  return false;
}

}  // namespace greenlight::protocol
