#include "protocol/Uri.h"

#include <cctype>

namespace greenlight::protocol {
namespace {

bool unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 80)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (s.size() > 80) out += "...";
  return out;
}

}  // namespace

std::string percentEncode(std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (unreserved(c) || c == '/') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::optional<std::string> percentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int hi = hexValue(s[i + 1]), lo = hexValue(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::string uriFromPath(std::string_view absolutePath) { return "file://" + percentEncode(absolutePath); }

std::optional<std::string> pathFromUri(std::string_view uri, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<std::string> {
    if (error) *error = "uri '" + printable(uri) + "': " + why;
    return std::nullopt;
  };
  std::size_t colon = uri.find(':');
  if (colon == std::string_view::npos) return fail("no scheme");
  std::string scheme(uri.substr(0, colon));
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "file") return fail("not a file: URI");
  std::string_view rest = uri.substr(colon + 1);
  if (rest.substr(0, 2) != "//") return fail("expected file:// followed by an absolute path");
  rest.remove_prefix(2);
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (!authority.empty() && authority != "localhost") return fail("remote host '" + printable(authority) + "' is not supported");
  if (slash == std::string_view::npos) return fail("expected an absolute path");
  std::string_view encoded = rest.substr(slash);
  if (std::size_t q = encoded.find_first_of("?#"); q != std::string_view::npos) encoded = encoded.substr(0, q);
  auto path = percentDecode(encoded);
  if (!path) return fail("bad percent-escape");
  if (path->find('\0') != std::string::npos) return fail("encoded NUL in path");
  return path;
}

}  // namespace greenlight::protocol
