#include "protocol/JsonRpc.h"

namespace greenlight::protocol {

void fromJson(const Json& j, ResponseError& out, const JsonPath& path) {
  requireObject(j, path);
  int code = 0;
  requiredField(j, "code", code, path);
  out.code = static_cast<ErrorCode>(code);
  requiredField(j, "message", out.message, path);
  if (auto it = j.find("data"); it != j.end()) out.data = *it;
}

void to_json(Json& j, const ResponseError& e) {
  j = Json{{"code", static_cast<int>(e.code)}, {"message", e.message}};
  if (e.data) j["data"] = *e.data;
}

static bool validId(const Json& id) { return id.is_string() || id.is_number_integer(); }

std::optional<Message> classify(Json body, InvalidMessage* invalid) {
  auto fail = [&](RequestId id, std::string reason) -> std::optional<Message> {
    if (invalid) *invalid = InvalidMessage{std::move(id), std::move(reason)};
    return std::nullopt;
  };
  if (body.is_array()) return fail(nullptr, "batch messages are not supported by LSP");
  if (!body.is_object()) return fail(nullptr, "message: expected an object");

  RequestId id = nullptr;
  bool hasId = false;
  if (auto it = body.find("id"); it != body.end() && !it->is_null()) {
    if (!validId(*it)) return fail(nullptr, "id: expected an integer or a string");
    id = *it;
    hasId = true;
  }
  auto version = body.find("jsonrpc");
  if (version == body.end() || !version->is_string() || version->get_ref<const std::string&>() != "2.0")
    return fail(id, "jsonrpc: expected \"2.0\"");

  Message m;
  auto method = body.find("method");
  if (method != body.end()) {
    if (!method->is_string()) return fail(id, "method: expected a string");
    m.method = method->get<std::string>();
    if (auto p = body.find("params"); p != body.end() && !p->is_null()) {
      if (!p->is_object() && !p->is_array()) return fail(id, "params: expected an object or an array");
      m.params = std::move(*p);
    }
    m.kind = hasId ? Message::Kind::Request : Message::Kind::Notification;
    m.id = std::move(id);
    return m;
  }
  // A response: the id may be null when the peer could not read ours.
  auto result = body.find("result");
  auto error = body.find("error");
  if (result == body.end() && error == body.end())
    return fail(id, "message: has neither method nor result/error");
  m.kind = Message::Kind::Response;
  m.id = std::move(id);
  if (error != body.end() && !error->is_null()) {
    std::string why;
    auto e = tryParse<ResponseError>(*error, &why);
    if (!e) return fail(m.id, "error." + why);
    m.error = std::move(*e);
  } else if (result != body.end()) {
    m.result = std::move(*result);
  }
  return m;
}

Json makeRequest(const RequestId& id, std::string_view method, Json params) {
  Json j{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) j["params"] = std::move(params);
  return j;
}

Json makeNotification(std::string_view method, Json params) {
  Json j{{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) j["params"] = std::move(params);
  return j;
}

Json makeResult(const RequestId& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json makeError(const RequestId& id, ErrorCode code, std::string message, std::optional<Json> data) {
  Json err{{"code", static_cast<int>(code)}, {"message", std::move(message)}};
  if (data) err["data"] = std::move(*data);
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(err)}};
}

std::string idToString(const RequestId& id) { return id.dump(); }

}  // namespace greenlight::protocol
