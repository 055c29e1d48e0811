// Keeping API keys out of logs, traces and error messages.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace greenlight::core::providers {

// True for headers that carry credentials (Authorization, x-api-key, api-key, Cookie, ...).
bool isSecretHeader(std::string_view name);

// "Name: value" with the value replaced by "[redacted]" when the header carries credentials.
std::string redactHeaderLine(std::string_view headerLine);

// `text` with every occurrence of each secret (at least 4 characters long) replaced by
// "[redacted]", and any "Bearer <token>" replaced too.
std::string redactSecrets(std::string_view text, const std::vector<std::string>& secrets);

}  // namespace greenlight::core::providers
