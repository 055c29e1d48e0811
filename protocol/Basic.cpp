#include "protocol/Basic.h"

namespace greenlight::protocol {

void fromJson(const Json& j, Position& out, const JsonPath& path) {
  requireObject(j, path);
  auto line = j.find("line");
  if (line == j.end()) throw JsonError(path.field("line"), "missing required field");
  fromJsonUnsigned(*line, out.line, path.field("line"));
  auto character = j.find("character");
  if (character == j.end()) throw JsonError(path.field("character"), "missing required field");
  fromJsonUnsigned(*character, out.character, path.field("character"));
}
void to_json(Json& j, const Position& p) { j = Json{{"line", p.line}, {"character", p.character}}; }

void fromJson(const Json& j, Range& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "start", out.start, path);
  requiredField(j, "end", out.end, path);
}
void to_json(Json& j, const Range& r) { j = Json{{"start", r.start}, {"end", r.end}}; }

void fromJson(const Json& j, Location& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
  requiredField(j, "range", out.range, path);
}
void to_json(Json& j, const Location& l) { j = Json{{"uri", l.uri}, {"range", l.range}}; }

void fromJson(const Json& j, TextDocumentIdentifier& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
}
void to_json(Json& j, const TextDocumentIdentifier& t) { j = Json{{"uri", t.uri}}; }

void fromJson(const Json& j, VersionedTextDocumentIdentifier& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
  requiredField(j, "version", out.version, path);
}
void to_json(Json& j, const VersionedTextDocumentIdentifier& t) {
  j = Json{{"uri", t.uri}, {"version", t.version}};
}

void fromJson(const Json& j, OptionalVersionedTextDocumentIdentifier& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
  optionalField(j, "version", out.version, path);
}
void to_json(Json& j, const OptionalVersionedTextDocumentIdentifier& t) {
  j = Json{{"uri", t.uri}, {"version", t.version ? Json(*t.version) : Json(nullptr)}};
}

void fromJson(const Json& j, TextDocumentItem& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
  requiredField(j, "languageId", out.languageId, path);
  requiredField(j, "version", out.version, path);
  requiredField(j, "text", out.text, path);
}
void to_json(Json& j, const TextDocumentItem& t) {
  j = Json{{"uri", t.uri}, {"languageId", t.languageId}, {"version", t.version}, {"text", t.text}};
}

void fromJson(const Json& j, TextEdit& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "range", out.range, path);
  requiredField(j, "newText", out.newText, path);
  optionalField(j, "annotationId", out.annotationId, path);
}
void to_json(Json& j, const TextEdit& e) {
  j = Json{{"range", e.range}, {"newText", e.newText}};
  if (e.annotationId) j["annotationId"] = *e.annotationId;
}

}  // namespace greenlight::protocol
