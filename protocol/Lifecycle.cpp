#include "protocol/Lifecycle.h"

namespace greenlight::protocol {
namespace {

// Walks an optional chain of objects ("workspace", "workspaceEdit") and returns the innermost,
// or nullptr when a link is absent or null. A link of the wrong type is an error.
const Json* child(const Json& j, const char* key, const JsonPath& path) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  requireObject(*it, path.field(key));
  return &*it;
}

}  // namespace

void fromJson(const Json& j, ClientCapabilities& out, const JsonPath& path) {
  requireObject(j, path);
  if (const Json* general = child(j, "general", path)) {
    JsonPath p = path.field("general");
    optionalField(*general, "positionEncodings", out.positionEncodings, p);
  }
  if (const Json* window = child(j, "window", path)) {
    JsonPath p = path.field("window");
    optionalField(*window, "workDoneProgress", out.workDoneProgress, p);
    if (const Json* sd = child(*window, "showDocument", p)) optionalField(*sd, "support", out.showDocument, p.field("showDocument"));
    out.showMessageActions = child(*window, "showMessage", p) != nullptr;
  }
  if (const Json* ws = child(j, "workspace", path)) {
    JsonPath p = path.field("workspace");
    optionalField(*ws, "configuration", out.configuration, p);
    optionalField(*ws, "applyEdit", out.applyEdit, p);
    if (const Json* we = child(*ws, "workspaceEdit", p)) {
      optionalField(*we, "documentChanges", out.documentChanges, p.field("workspaceEdit"));
      out.changeAnnotations = child(*we, "changeAnnotationSupport", p.field("workspaceEdit")) != nullptr;
      if (auto ops = we->find("resourceOperations"); ops != we->end() && ops->is_array()) {
        for (const auto& op : *ops) out.createFiles = out.createFiles || (op.is_string() && op.get<std::string>() == "create");
      }
    }
    if (const Json* cl = child(*ws, "codeLens", p))
      optionalField(*cl, "refreshSupport", out.codeLensRefresh, p.field("codeLens"));
    if (const Json* dcc = child(*ws, "didChangeConfiguration", p))
      optionalField(*dcc, "dynamicRegistration", out.didChangeConfigurationDynamic,
                    p.field("didChangeConfiguration"));
  }
  if (const Json* td = child(j, "textDocument", path)) {
    JsonPath p = path.field("textDocument");
    if (const Json* ca = child(*td, "codeAction", p)) {
      JsonPath cp = p.field("codeAction");
      out.codeActionLiterals = child(*ca, "codeActionLiteralSupport", cp) != nullptr;
      if (const Json* rs = child(*ca, "resolveSupport", cp)) {
        std::vector<std::string> props;
        optionalField(*rs, "properties", props, cp.field("resolveSupport"));
        for (const auto& prop : props)
          if (prop == "command") out.codeActionResolveCommand = true;
      }
    }
  }
}

void fromJson(const Json& j, WorkspaceFolder& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
  optionalField(j, "name", out.name, path);
}
void to_json(Json& j, const WorkspaceFolder& f) { j = Json{{"uri", f.uri}, {"name", f.name}}; }

void fromJson(const Json& j, InitializeParams& out, const JsonPath& path) {
  requireObject(j, path);
  optionalField(j, "processId", out.processId, path);
  optionalField(j, "rootUri", out.rootUri, path);
  optionalField(j, "rootPath", out.rootPath, path);
  optionalField(j, "workspaceFolders", out.workspaceFolders, path);
  if (auto it = j.find("initializationOptions"); it != j.end()) out.initializationOptions = *it;
  optionalField(j, "capabilities", out.capabilities, path);
  if (const Json* info = child(j, "clientInfo", path)) {
    optionalField(*info, "name", out.clientName, path.field("clientInfo"));
    optionalField(*info, "version", out.clientVersion, path.field("clientInfo"));
  }
}

void to_json(Json& j, const ServerCapabilities& c) {
  j = Json{
      {"positionEncoding", c.positionEncoding},
      // Incremental sync; didSave without text (the store already has it).
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"codeActionProvider", {{"codeActionKinds", c.codeActionKinds}, {"resolveProvider", true}}},
      {"executeCommandProvider", {{"commands", c.executeCommands}}},
  };
  if (c.codeLens) j["codeLensProvider"] = {{"resolveProvider", false}};
}

void to_json(Json& j, const InitializeResult& r) {
  j = Json{{"capabilities", r.capabilities},
           {"serverInfo", {{"name", r.serverName}, {"version", r.serverVersion}}}};
}

}  // namespace greenlight::protocol
