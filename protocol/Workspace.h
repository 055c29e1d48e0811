// Workspace-level messages: commands, workspace edits, configuration.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/Basic.h"

namespace greenlight::protocol {

struct Command {
  std::string title;
  std::string command;  // "greenlight.runTests"
  std::vector<Json> arguments;  // omitted when empty
};
void fromJson(const Json& j, Command& out, const JsonPath& path);
void to_json(Json& j, const Command& c);

struct TextDocumentEdit {
  // The version the edits were computed against: the client rejects the edit when the
  // document changed since (that is the point of versioned documentChanges).
  OptionalVersionedTextDocumentIdentifier textDocument;
  std::vector<TextEdit> edits;
};
void fromJson(const Json& j, TextDocumentEdit& out, const JsonPath& path);
void to_json(Json& j, const TextDocumentEdit& e);

// LSP 3.16: what an annotated edit means; needsConfirmation makes the client ask first
// (VS Code's refactor preview).
struct ChangeAnnotation {
  std::string label;
  std::optional<bool> needsConfirmation;
  std::optional<std::string> description;
};
void fromJson(const Json& j, ChangeAnnotation& out, const JsonPath& path);
void to_json(Json& j, const ChangeAnnotation& a);

// Either form; greenlight sends documentChanges when the client supports them, else changes.
// A resource operation of documentChanges (only `create` is used: the test file of a
// tests-first generation).
struct CreateFile {
  DocumentUri uri;
  bool ignoreIfExists = false;
  std::optional<std::string> annotationId;
};
void to_json(Json& j, const CreateFile& c);

struct WorkspaceEdit {
  std::optional<std::map<DocumentUri, std::vector<TextEdit>>> changes;
  std::optional<std::vector<TextDocumentEdit>> documentChanges;
  // Sent at the head of documentChanges, before the text edits (which may edit the new files).
  // Needs the client's resourceOperations "create"; never read from JSON.
  std::vector<CreateFile> createFiles;
  std::optional<std::map<std::string, ChangeAnnotation>> changeAnnotations;  // by annotationId
};
void fromJson(const Json& j, WorkspaceEdit& out, const JsonPath& path);
void to_json(Json& j, const WorkspaceEdit& e);

struct ApplyWorkspaceEditParams {
  std::optional<std::string> label;  // shown in the undo stack
  WorkspaceEdit edit;
};
void fromJson(const Json& j, ApplyWorkspaceEditParams& out, const JsonPath& path);
void to_json(Json& j, const ApplyWorkspaceEditParams& p);

struct ApplyWorkspaceEditResult {
  bool applied = false;
  std::optional<std::string> failureReason;
  std::optional<std::int64_t> failedChange;
};
void fromJson(const Json& j, ApplyWorkspaceEditResult& out, const JsonPath& path);
void to_json(Json& j, const ApplyWorkspaceEditResult& r);

struct ConfigurationItem {
  std::optional<DocumentUri> scopeUri;
  std::optional<std::string> section;  // "greenlight"
};
void fromJson(const Json& j, ConfigurationItem& out, const JsonPath& path);
void to_json(Json& j, const ConfigurationItem& i);

struct ConfigurationParams {
  std::vector<ConfigurationItem> items;
};
void fromJson(const Json& j, ConfigurationParams& out, const JsonPath& path);
void to_json(Json& j, const ConfigurationParams& p);

struct DidChangeConfigurationParams {
  Json settings;  // push-model clients put {"greenlight": {...}} here; pull clients send null
};
void fromJson(const Json& j, DidChangeConfigurationParams& out, const JsonPath& path);
void to_json(Json& j, const DidChangeConfigurationParams& p);

struct ExecuteCommandParams {
  std::string command;
  std::vector<Json> arguments;
  Json workDoneToken;  // integer | string when the client created the progress; else null
};
void fromJson(const Json& j, ExecuteCommandParams& out, const JsonPath& path);
void to_json(Json& j, const ExecuteCommandParams& p);

}  // namespace greenlight::protocol
