// When and how long to wait before trying a request again.
//
// Retryable: 408, 409, 429, 5xx and 529 (Anthropic "overloaded"). The wait is the server's
// (retry-after-ms, else retry-after in seconds or as an HTTP date) when it gives one, capped at
// kMaxServerDelay, else exponential backoff from kBaseDelay doubling up to kMaxBackoff, with
// jitter that shortens each wait by up to a quarter so that many clients do not retry in step.
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace greenlight::core::providers {

using Millis = std::chrono::milliseconds;

inline constexpr Millis kBaseDelay{500};
inline constexpr Millis kMaxBackoff{8000};
inline constexpr Millis kMaxServerDelay{60000};

bool isRetryableStatus(int status);

// Parses an HTTP date (IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", RFC 850 and asctime forms).
std::optional<std::chrono::system_clock::time_point> parseHttpDate(std::string_view text);

// The server's requested delay from lower-cased response headers, or nullopt when it gave none
// (or gave garbage). Negative and past values become 0; values above kMaxServerDelay are capped.
std::optional<Millis> parseRetryAfter(const std::map<std::string, std::string>& headers,
                                      std::chrono::system_clock::time_point now);

// The wait before retry number `retry` (0 for the first retry). `jitter` in [0,1).
Millis backoffDelay(int retry, double jitter);

// The delay to use: the server's if given, else backoffDelay().
Millis retryDelay(const std::map<std::string, std::string>& headers, int retry, double jitter,
                  std::chrono::system_clock::time_point now);

}  // namespace greenlight::core::providers
