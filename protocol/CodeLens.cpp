#include "protocol/CodeLens.h"

namespace greenlight::protocol {

void fromJson(const Json& j, CodeLensParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "textDocument", out.textDocument, path);
}
void to_json(Json& j, const CodeLensParams& p) { j = Json{{"textDocument", p.textDocument}}; }

void fromJson(const Json& j, CodeLens& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "range", out.range, path);
  optionalField(j, "command", out.command, path);
  if (auto it = j.find("data"); it != j.end()) out.data = *it;
}
void to_json(Json& j, const CodeLens& l) {
  j = Json{{"range", l.range}};
  if (l.command) j["command"] = *l.command;
  if (!l.data.is_null()) j["data"] = l.data;
}

}  // namespace greenlight::protocol
