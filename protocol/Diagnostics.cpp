#include "protocol/Diagnostics.h"

namespace greenlight::protocol {

void fromJson(const Json& j, DiagnosticRelatedInformation& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "location", out.location, path);
  requiredField(j, "message", out.message, path);
}
void to_json(Json& j, const DiagnosticRelatedInformation& r) {
  j = Json{{"location", r.location}, {"message", r.message}};
}

void fromJson(const Json& j, Diagnostic& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "range", out.range, path);
  if (auto it = j.find("severity"); it != j.end() && !it->is_null()) {
    int s = 0;
    fromJson(*it, s, path.field("severity"));
    if (s < 1 || s > 4) throw JsonError(path.field("severity"), "expected 1..4");
    out.severity = static_cast<DiagnosticSeverity>(s);
  }
  if (auto it = j.find("code"); it != j.end()) {
    if (!it->is_null() && !it->is_string() && !it->is_number_integer())
      throw JsonError(path.field("code"), "expected an integer or a string");
    out.code = *it;
  }
  optionalField(j, "source", out.source, path);
  requiredField(j, "message", out.message, path);
  optionalField(j, "relatedInformation", out.relatedInformation, path);
  if (auto it = j.find("data"); it != j.end()) out.data = *it;
}

void to_json(Json& j, const Diagnostic& d) {
  j = Json{{"range", d.range}, {"message", d.message}};
  if (d.severity) j["severity"] = static_cast<int>(*d.severity);
  if (!d.code.is_null()) j["code"] = d.code;
  if (d.source) j["source"] = *d.source;
  if (!d.relatedInformation.empty()) j["relatedInformation"] = d.relatedInformation;
  if (!d.data.is_null()) j["data"] = d.data;
}

void fromJson(const Json& j, PublishDiagnosticsParams& out, const JsonPath& path) {
  requireObject(j, path);
  requiredField(j, "uri", out.uri, path);
  optionalField(j, "version", out.version, path);
  requiredField(j, "diagnostics", out.diagnostics, path);
}
void to_json(Json& j, const PublishDiagnosticsParams& p) {
  j = Json{{"uri", p.uri}, {"diagnostics", p.diagnostics}};
  if (p.version) j["version"] = *p.version;
}

}  // namespace greenlight::protocol
