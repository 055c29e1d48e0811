// Escapes for printing a field on one line.
#pragma once

#include <string>

namespace csv {

// "\n" -> "\\n", "\r" -> "\\r", "\\" -> "\\\\".
inline std::string escape_newlines(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out;
}

}  // namespace csv
