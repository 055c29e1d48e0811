#include "protocol/Workspace.h"

namespace greenlight::protocol {

void fromJson(const Json& j, Command& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "title", out.title, path);
  requiredField(j, "command", out.command, path);
  optionalField(j, "arguments", out.arguments, path);
}
void to_json(Json& j, const Command& c) {
  j = Json{{"title", c.title}, {"command", c.command}};
  if (!c.arguments.empty()) j["arguments"] = c.arguments;
}

void fromJson(const Json& j, TextDocumentEdit& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "textDocument", out.textDocument, path);
  requiredField(j, "edits", out.edits, path);
}
void to_json(Json& j, const TextDocumentEdit& e) {
  j = Json{{"textDocument", e.textDocument}, {"edits", e.edits}};
}

void fromJson(const Json& j, ChangeAnnotation& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "label", out.label, path);
  optionalField(j, "needsConfirmation", out.needsConfirmation, path);
  optionalField(j, "description", out.description, path);
}
void to_json(Json& j, const ChangeAnnotation& a) {
  j = Json{{"label", a.label}};
  if (a.needsConfirmation) j["needsConfirmation"] = *a.needsConfirmation;
  if (a.description) j["description"] = *a.description;
}

void to_json(Json& j, const CreateFile& c) {
  j = Json{{"kind", "create"}, {"uri", c.uri}};
  if (c.ignoreIfExists) j["options"] = Json{{"ignoreIfExists", true}};
  if (c.annotationId) j["annotationId"] = *c.annotationId;
}

void fromJson(const Json& j, WorkspaceEdit& out, const JsonPath& path) {
  requireObject(j, path);
  if (auto it = j.find("changeAnnotations"); it != j.end() && !it->is_null()) {
    JsonPath p = path.field("changeAnnotations");
    requireObject(*it, p);
    std::map<std::string, ChangeAnnotation> annotations;
    for (auto& [id, a] : it->items()) fromJson(a, annotations[id], p.field(id));
    out.changeAnnotations = std::move(annotations);
  }
  if (auto it = j.find("changes"); it != j.end() && !it->is_null()) {
    JsonPath p = path.field("changes");
    requireObject(*it, p);
    std::map<DocumentUri, std::vector<TextEdit>> changes;
    for (auto& [uri, edits] : it->items()) fromJson(edits, changes[uri], p.field(uri));
    out.changes = std::move(changes);
  }
  optionalField(j, "documentChanges", out.documentChanges, path);
}
void to_json(Json& j, const WorkspaceEdit& e) {
  j = Json::object();
  if (e.changes) {
    Json changes = Json::object();
    for (const auto& [uri, edits] : *e.changes) changes[uri] = edits;
    j["changes"] = std::move(changes);
  }
  if (e.documentChanges || !e.createFiles.empty()) {
    Json changes = Json::array();
    for (const auto& c : e.createFiles) changes.push_back(c);
    if (e.documentChanges)
      for (const auto& d : *e.documentChanges) changes.push_back(d);
    j["documentChanges"] = std::move(changes);
  }
  if (e.changeAnnotations) {
    Json annotations = Json::object();
    for (const auto& [id, a] : *e.changeAnnotations) annotations[id] = a;
    j["changeAnnotations"] = std::move(annotations);
  }
}

void fromJson(const Json& j, ApplyWorkspaceEditParams& out, const JsonPath& path) {
  requireObject(j, path);
  optionalField(j, "label", out.label, path);
  requiredField(j, "edit", out.edit, path);
}
void to_json(Json& j, const ApplyWorkspaceEditParams& p) {
  j = Json{{"edit", p.edit}};
  if (p.label) j["label"] = *p.label;
}

void fromJson(const Json& j, ApplyWorkspaceEditResult& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "applied", out.applied, path);
  optionalField(j, "failureReason", out.failureReason, path);
  optionalField(j, "failedChange", out.failedChange, path);
}
void to_json(Json& j, const ApplyWorkspaceEditResult& r) {
  j = Json{{"applied", r.applied}};
  if (r.failureReason) j["failureReason"] = *r.failureReason;
  if (r.failedChange) j["failedChange"] = *r.failedChange;
}

void fromJson(const Json& j, ConfigurationItem& out, const JsonPath& path) {
  requireObject(j, path);
  optionalField(j, "scopeUri", out.scopeUri, path);
  optionalField(j, "section", out.section, path);
}
void to_json(Json& j, const ConfigurationItem& i) {
  j = Json::object();
  if (i.scopeUri) j["scopeUri"] = *i.scopeUri;
  if (i.section) j["section"] = *i.section;
}

void fromJson(const Json& j, ConfigurationParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "items", out.items, path);
}
void to_json(Json& j, const ConfigurationParams& p) { j = Json{{"items", p.items}}; }

void fromJson(const Json& j, DidChangeConfigurationParams& out, const JsonPath& path) {
  requireObject(j, path);
  if (auto it = j.find("settings"); it != j.end()) out.settings = *it;
}
void to_json(Json& j, const DidChangeConfigurationParams& p) { j = Json{{"settings", p.settings}}; }

void fromJson(const Json& j, ExecuteCommandParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "command", out.command, path);
  optionalField(j, "arguments", out.arguments, path);
  if (auto it = j.find("workDoneToken"); it != j.end() && !it->is_null()) {
    if (!it->is_string() && !it->is_number_integer())
      throw JsonError(path.field("workDoneToken"), "expected an integer or a string");
    out.workDoneToken = *it;
  }
}
void to_json(Json& j, const ExecuteCommandParams& p) {
  j = Json{{"command", p.command}};
  if (!p.arguments.empty()) j["arguments"] = p.arguments;
  if (!p.workDoneToken.is_null()) j["workDoneToken"] = p.workDoneToken;
}

}  // namespace greenlight::protocol
