#include "protocol/TextSync.h"

namespace greenlight::protocol {

void fromJson(const Json& j, DidOpenTextDocumentParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "textDocument", out.textDocument, path);
}
void to_json(Json& j, const DidOpenTextDocumentParams& p) { j = Json{{"textDocument", p.textDocument}}; }

void fromJson(const Json& j, TextDocumentContentChangeEvent& out, const JsonPath& path) {
  requireObject(j, path);
  optionalField(j, "range", out.range, path);
  optionalField(j, "rangeLength", out.rangeLength, path);
  requiredField(j, "text", out.text, path);
}
void to_json(Json& j, const TextDocumentContentChangeEvent& c) {
  j = Json{{"text", c.text}};
  if (c.range) j["range"] = *c.range;
}

void fromJson(const Json& j, DidChangeTextDocumentParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "textDocument", out.textDocument, path);
  requiredField(j, "contentChanges", out.contentChanges, path);
}
void to_json(Json& j, const DidChangeTextDocumentParams& p) {
  j = Json{{"textDocument", p.textDocument}, {"contentChanges", p.contentChanges}};
}

void fromJson(const Json& j, DidSaveTextDocumentParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "textDocument", out.textDocument, path);
  optionalField(j, "text", out.text, path);
}
void to_json(Json& j, const DidSaveTextDocumentParams& p) {
  j = Json{{"textDocument", p.textDocument}};
  if (p.text) j["text"] = *p.text;
}

void fromJson(const Json& j, DidCloseTextDocumentParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "textDocument", out.textDocument, path);
}
void to_json(Json& j, const DidCloseTextDocumentParams& p) { j = Json{{"textDocument", p.textDocument}}; }

}  // namespace greenlight::protocol
