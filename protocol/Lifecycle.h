// initialize: what the client offers (the capabilities greenlight looks at) and what we answer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/Basic.h"

namespace greenlight::protocol {

// The client capabilities greenlight uses; everything else is ignored.
struct ClientCapabilities {
  // general.positionEncodings: in the client's order of preference. Absent means utf-16 only.
  std::vector<std::string> positionEncodings;
  bool workDoneProgress = false;    // window.workDoneProgress: server-initiated $/progress
  bool configuration = false;       // workspace.configuration: we may pull settings
  bool didChangeConfigurationDynamic = false;  // workspace.didChangeConfiguration.dynamicRegistration
  bool applyEdit = false;           // workspace.applyEdit
  bool documentChanges = false;     // workspace.workspaceEdit.documentChanges (versioned edits)
  bool codeActionLiterals = false;  // textDocument.codeAction.codeActionLiteralSupport
  bool codeActionResolveCommand = false;  // ...codeAction.resolveSupport.properties has "command"
  bool codeLensRefresh = false;     // workspace.codeLens.refreshSupport
  bool changeAnnotations = false;   // workspace.workspaceEdit.changeAnnotationSupport
  bool createFiles = false;         // workspace.workspaceEdit.resourceOperations has "create"
  bool showDocument = false;        // window.showDocument.support
  bool showMessageActions = false;  // window.showMessage (showMessageRequest with actions)
};
void fromJson(const Json& j, ClientCapabilities& out, const JsonPath& path);

struct WorkspaceFolder {
  DocumentUri uri;
  std::string name;
};
void fromJson(const Json& j, WorkspaceFolder& out, const JsonPath& path);
void to_json(Json& j, const WorkspaceFolder& f);

struct InitializeParams {
  std::optional<std::int64_t> processId;
  std::optional<DocumentUri> rootUri;  // deprecated in favour of workspaceFolders; both honoured
  std::optional<std::string> rootPath;  // older still; used only when neither of the above is set
  std::optional<std::vector<WorkspaceFolder>> workspaceFolders;
  Json initializationOptions;  // null when absent; fed to core::ConfigLayers as is
  ClientCapabilities capabilities;
  std::optional<std::string> clientName;  // clientInfo.name, for logs
  std::optional<std::string> clientVersion;
};
void fromJson(const Json& j, InitializeParams& out, const JsonPath& path);

struct ServerCapabilities {
  std::string positionEncoding = "utf-16";
  std::vector<std::string> codeActionKinds;
  std::vector<std::string> executeCommands;
  bool codeLens = false;  // codeLensProvider {resolveProvider: false}
};
void to_json(Json& j, const ServerCapabilities& c);

struct InitializeResult {
  ServerCapabilities capabilities;
  std::string serverName = "greenlight";
  std::string serverVersion;
};
void to_json(Json& j, const InitializeResult& r);

}  // namespace greenlight::protocol
