#include "core/providers/Redact.h"

#include <algorithm>
#include <cctype>

namespace greenlight::core::providers {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

bool isSecretHeader(std::string_view name) {
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  for (std::string_view s : {"authorization", "proxy-authorization", "x-api-key", "api-key",
                             "cookie", "set-cookie", "x-goog-api-key"})
    if (iequals(name, s)) return true;
  return false;
}

std::string redactHeaderLine(std::string_view line) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos || !isSecretHeader(line.substr(0, colon))) return std::string(line);
  return std::string(line.substr(0, colon)) + ": [redacted]";
}

std::string redactSecrets(std::string_view text, const std::vector<std::string>& secrets) {
  std::string out(text);
  for (const auto& secret : secrets) {
    if (secret.size() < 4) continue;
    for (std::size_t pos = 0; (pos = out.find(secret, pos)) != std::string::npos;) {
      out.replace(pos, secret.size(), "[redacted]");
      pos += 10;
    }
  }
  // Any bearer token, whatever its source.
  static constexpr std::string_view kBearer = "Bearer ";
  for (std::size_t pos = 0; (pos = out.find(kBearer, pos)) != std::string::npos;) {
    std::size_t start = pos + kBearer.size(), end = start;
    while (end < out.size() && !std::isspace(static_cast<unsigned char>(out[end])) && out[end] != '"' &&
           out[end] != '\'')
      ++end;
    if (end > start && out.compare(start, end - start, "[redacted]") != 0)
      out.replace(start, end - start, "[redacted]");
    pos = start + 10;
  }
  return out;
}

}  // namespace greenlight::core::providers
