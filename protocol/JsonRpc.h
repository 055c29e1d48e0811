// JSON-RPC 2.0 as LSP uses it: message classification, error codes, and message builders.
//
// A body decoded by the framing codec is classified by `classify()` into a request (id +
// method), a notification (method, no id), or a response (id + result|error, no method).
// Anything else is an invalid message; `classify` then says why and, when it could read one,
// which id the -32600 answer must carry. Pure functions, no I/O.
#pragma once

#include <optional>
#include <string>

#include "protocol/Json.h"

namespace greenlight::protocol {

// Error codes: JSON-RPC's and the LSP-specific ones.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  UnknownErrorCode = -32001,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

struct ResponseError {
  ErrorCode code = ErrorCode::InternalError;
  std::string message;
  std::optional<Json> data;
};
void fromJson(const Json& j, ResponseError& out, const JsonPath& path);
void to_json(Json& j, const ResponseError& e);

// The id of a request: an integer or a string on the wire (null only in error responses to
// messages whose id could not be read). Kept as JSON so it is echoed back exactly as received.
using RequestId = Json;

struct Message {
  enum class Kind { Request, Notification, Response };
  Kind kind = Kind::Notification;
  RequestId id;          // Request and Response
  std::string method;    // Request and Notification
  Json params;           // Request and Notification; null when absent
  Json result;           // Response without error
  std::optional<ResponseError> error;  // Response with error
};

struct InvalidMessage {
  RequestId id;  // null when none could be read
  std::string reason;
};

// Classifies a decoded JSON body. Returns nullopt and fills `invalid` when the value is not a
// JSON-RPC 2.0 message (not an object, jsonrpc != "2.0", bad id type, method not a string,
// params not structured, response without result or error, batch arrays which LSP never uses).
std::optional<Message> classify(Json body, InvalidMessage* invalid);

// Builders producing complete message objects (with "jsonrpc": "2.0").
Json makeRequest(const RequestId& id, std::string_view method, Json params);
Json makeNotification(std::string_view method, Json params);
Json makeResult(const RequestId& id, Json result);
Json makeError(const RequestId& id, ErrorCode code, std::string message, std::optional<Json> data = std::nullopt);

// "42" or "\"abc\"", for logs.
std::string idToString(const RequestId& id);

}  // namespace greenlight::protocol
