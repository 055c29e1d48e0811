// kvconf: "key = value" configuration text (header-only).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kvconf {

class parse_error : public std::runtime_error {
 public:
  parse_error(std::size_t line, const std::string& what)
      : std::runtime_error("line " + std::to_string(line) + ": " + what), line_(line) {}
  std::size_t line() const { return line_; }

 private:
  std::size_t line_;
};

inline std::string strip(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

using Config = std::map<std::string, std::string>;

// One "key = value" a line; blank lines and lines starting with '#' are skipped; a later key
// replaces an earlier one. A line without '=' or with an empty key is a parse_error.
inline Config parse(std::string_view text) {
  Config out;
  std::size_t lineNo = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++lineNo;
    const std::string line = strip(text.substr(start, end - start));
    start = end + 1;
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw parse_error(lineNo, "expected key = value");
    const std::string key = strip(std::string_view(line).substr(0, eq));
    if (key.empty()) throw parse_error(lineNo, "empty key");
    out[key] = strip(std::string_view(line).substr(eq + 1));
  }
  return out;
}

inline std::optional<std::string> lookup(const Config& c, const std::string& key) {
  auto it = c.find(key);
  if (it == c.end()) return std::nullopt;
  return it->second;
}

inline std::string value_or(const Config& c, const std::string& key, std::string fallback) {
  auto v = lookup(c, key);
  return v ? *v : fallback;
}

// "true"/"yes"/"on"/"1" and "false"/"no"/"off"/"0"; anything else throws.
inline bool to_bool(const std::string& v) {
  if (v == "true" || v == "yes" || v == "on" || v == "1") return true;
  if (v == "false" || v == "no" || v == "off" || v == "0") return false;
  throw std::invalid_argument("not a boolean: " + v);
}

template <typename Int>
Int to_int(const std::string& v) {
  std::size_t used = 0;
  const long long n = std::stoll(v, &used);
  if (used != v.size()) throw std::invalid_argument("not an integer: " + v);
  return static_cast<Int>(n);
}

}  // namespace kvconf
