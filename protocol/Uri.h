// file:// URIs <-> absolute POSIX paths, with RFC 3986 percent-encoding both ways.
//
// uriFromPath encodes every byte outside the unreserved set (A-Z a-z 0-9 - . _ ~) and "/", as
// VS Code does, so "/a b/ü.py" -> "file:///a%20b/%C3%BC.py". pathFromUri accepts any
// encoding a client may choose (upper or lower case hex, encoded or literal reserved chars), an
// empty or "localhost" authority, and a case-insensitive scheme. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace greenlight::protocol {

std::string uriFromPath(std::string_view absolutePath);

// nullopt and `error` ("uri 'http://x': not a file: URI") for a non-file scheme, a remote
// host, a bad %-escape, an encoded NUL, or a relative path.
std::optional<std::string> pathFromUri(std::string_view uri, std::string* error = nullptr);

std::string percentEncode(std::string_view s);   // keeps unreserved and '/'
std::optional<std::string> percentDecode(std::string_view s);  // nullopt on a bad escape

}  // namespace greenlight::protocol
