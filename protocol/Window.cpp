#include "protocol/Window.h"

namespace greenlight::protocol {
namespace {

Json readIdLike(const Json& j, const char* key, const JsonPath& path) {
  auto it = j.find(key);
  if (it == j.end()) throw JsonError(path.field(key), "missing required field");
  if (!it->is_string() && !it->is_number_integer())
    throw JsonError(path.field(key), "expected an integer or a string");
  return *it;
}

}  // namespace

void fromJson(const Json& j, LogMessageParams& out, const JsonPath& path) {
  requireObject(j, path);
  int type = 0;
  requiredField(j, "type", type, path);
  if (type < 1 || type > 5) throw JsonError(path.field("type"), "expected 1..5");
  out.type = static_cast<MessageType>(type == 5 ? 4 : type);  // 5 = Debug (3.18) -> Log
  requiredField(j, "message", out.message, path);
}
void to_json(Json& j, const LogMessageParams& p) {
  j = Json{{"type", static_cast<int>(p.type)}, {"message", p.message}};
}

void fromJson(const Json& j, MessageActionItem& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "title", out.title, path);
}
void to_json(Json& j, const MessageActionItem& a) { j = Json{{"title", a.title}}; }

void fromJson(const Json& j, ShowMessageRequestParams& out, const JsonPath& path) {
  requireObject(j, path);
  int type = 0;
  requiredField(j, "type", type, path);
  if (type < 1 || type > 5) throw JsonError(path.field("type"), "expected 1..5");
  out.type = static_cast<MessageType>(type == 5 ? 4 : type);
  requiredField(j, "message", out.message, path);
  optionalField(j, "actions", out.actions, path);
}
void to_json(Json& j, const ShowMessageRequestParams& p) {
  j = Json{{"type", static_cast<int>(p.type)}, {"message", p.message}};
  if (!p.actions.empty()) j["actions"] = p.actions;
}

void fromJson(const Json& j, ShowDocumentParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
  optionalField(j, "external", out.external, path);
  optionalField(j, "takeFocus", out.takeFocus, path);
}
void to_json(Json& j, const ShowDocumentParams& p) {
  j = Json{{"uri", p.uri}};
  if (p.external) j["external"] = *p.external;
  if (p.takeFocus) j["takeFocus"] = *p.takeFocus;
}

void fromJson(const Json& j, WorkDoneProgressCreateParams& out, const JsonPath& path) {
  requireObject(j, path);
  out.token = readIdLike(j, "token", path);
}
void to_json(Json& j, const WorkDoneProgressCreateParams& p) { j = Json{{"token", p.token}}; }

void fromJson(const Json& j, WorkDoneProgressCancelParams& out, const JsonPath& path) {
  requireObject(j, path);
  out.token = readIdLike(j, "token", path);
}
void to_json(Json& j, const WorkDoneProgressCancelParams& p) { j = Json{{"token", p.token}}; }

void to_json(Json& j, const WorkDoneProgressBegin& b) {
  j = Json{{"kind", "begin"}, {"title", b.title}, {"cancellable", b.cancellable}};
  if (b.message) j["message"] = *b.message;
  if (b.percentage) j["percentage"] = *b.percentage;
}
void to_json(Json& j, const WorkDoneProgressReport& r) {
  j = Json{{"kind", "report"}};
  if (r.cancellable) j["cancellable"] = *r.cancellable;
  if (r.message) j["message"] = *r.message;
  if (r.percentage) j["percentage"] = *r.percentage;
}
void to_json(Json& j, const WorkDoneProgressEnd& e) {
  j = Json{{"kind", "end"}};
  if (e.message) j["message"] = *e.message;
}

void fromJson(const Json& j, ProgressParams& out, const JsonPath& path) {
  requireObject(j, path);
  out.token = readIdLike(j, "token", path);
  requiredField(j, "value", out.value, path);
}
void to_json(Json& j, const ProgressParams& p) { j = Json{{"token", p.token}, {"value", p.value}}; }

void fromJson(const Json& j, CancelParams& out, const JsonPath& path) {
  requireObject(j, path);
  out.id = readIdLike(j, "id", path);
}
void to_json(Json& j, const CancelParams& p) { j = Json{{"id", p.id}}; }

}  // namespace greenlight::protocol
