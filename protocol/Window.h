// Window and progress messages: window/logMessage, $/progress, work-done progress creation and
// cancellation, and $/cancelRequest.
#pragma once

#include <optional>
#include <string>

#include "protocol/JsonRpc.h"

namespace greenlight::protocol {

enum class MessageType { Error = 1, Warning = 2, Info = 3, Log = 4 };

struct LogMessageParams {
  MessageType type = MessageType::Info;
  std::string message;
};
void fromJson(const Json& j, LogMessageParams& out, const JsonPath& path);
void to_json(Json& j, const LogMessageParams& p);

// window/showMessage (notification) has LogMessageParams' shape.

// window/showMessageRequest: a message with buttons; the result is the chosen action or null.
struct MessageActionItem {
  std::string title;
};
void fromJson(const Json& j, MessageActionItem& out, const JsonPath& path);
void to_json(Json& j, const MessageActionItem& a);

struct ShowMessageRequestParams {
  MessageType type = MessageType::Info;
  std::string message;
  std::vector<MessageActionItem> actions;
};
void fromJson(const Json& j, ShowMessageRequestParams& out, const JsonPath& path);
void to_json(Json& j, const ShowMessageRequestParams& p);

// window/showDocument (LSP 3.16): the client opens `uri`; the result says whether it did.
struct ShowDocumentParams {
  std::string uri;
  std::optional<bool> external;
  std::optional<bool> takeFocus;
};
void fromJson(const Json& j, ShowDocumentParams& out, const JsonPath& path);
void to_json(Json& j, const ShowDocumentParams& p);

// integer | string; kept as JSON so it is echoed exactly.
using ProgressToken = Json;

struct WorkDoneProgressCreateParams {
  ProgressToken token;
};
void fromJson(const Json& j, WorkDoneProgressCreateParams& out, const JsonPath& path);
void to_json(Json& j, const WorkDoneProgressCreateParams& p);

// window/workDoneProgress/cancel: the user pressed cancel on a cancellable progress.
struct WorkDoneProgressCancelParams {
  ProgressToken token;
};
void fromJson(const Json& j, WorkDoneProgressCancelParams& out, const JsonPath& path);
void to_json(Json& j, const WorkDoneProgressCancelParams& p);

struct WorkDoneProgressBegin {
  std::string title;
  bool cancellable = false;
  std::optional<std::string> message;
  std::optional<int> percentage;  // 0..100
};
void to_json(Json& j, const WorkDoneProgressBegin& b);  // adds "kind": "begin"

struct WorkDoneProgressReport {
  std::optional<bool> cancellable;
  std::optional<std::string> message;
  std::optional<int> percentage;
};
void to_json(Json& j, const WorkDoneProgressReport& r);  // adds "kind": "report"

struct WorkDoneProgressEnd {
  std::optional<std::string> message;
};
void to_json(Json& j, const WorkDoneProgressEnd& e);  // adds "kind": "end"

struct ProgressParams {
  ProgressToken token;
  Json value;  // one of the three above, already serialised
};
void fromJson(const Json& j, ProgressParams& out, const JsonPath& path);
void to_json(Json& j, const ProgressParams& p);

struct CancelParams {
  RequestId id;  // integer | string
};
void fromJson(const Json& j, CancelParams& out, const JsonPath& path);
void to_json(Json& j, const CancelParams& p);

}  // namespace greenlight::protocol
