// One CSV line (RFC 4180 quoting) split into fields and written back.
#pragma once

#include <string>
#include <vector>

namespace csv {

// Splits one line; quoted fields may hold commas and doubled quotes ("a ""b""").
std::vector<std::string> split(const std::string& line);

// Whether a field must be quoted when written: it holds a comma, a quote or a line break, or
// starts or ends with a space.
inline bool needs_quotes(const std::string& field) {
  if (field.find_first_of(",\"\n\r") != std::string::npos) return true;
  return !field.empty() && (field.front() == ' ' || field.back() == ' ');
}

// The field as written in a line: quoted (inner quotes doubled) when it needs it.
inline std::string quote(const std::string& field) {
  if (!needs_quotes(field)) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string join(const std::vector<std::string>& fields);

}  // namespace csv
