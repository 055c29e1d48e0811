#include <catch2/catch.hpp>

#include "core/providers/Redact.h"
#include "core/providers/Retry.h"

using namespace greenlight::core::providers;
using namespace std::chrono_literals;

namespace {
const auto kNow = std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
std::optional<Millis> ra(std::map<std::string, std::string> h) { return parseRetryAfter(h, kNow); }
}  // namespace

TEST_CASE("retry-after: seconds milliseconds HTTP dates garbage caps", "[providers][retry]") {
  CHECK(ra({{"retry-after", "2"}}) == 2000ms);
  CHECK(ra({{"retry-after", " 1.5 "}}) == 1500ms);
  CHECK(ra({{"retry-after", "0"}}) == 0ms);
  CHECK(ra({{"retry-after-ms", "250"}}) == 250ms);
  CHECK(ra({{"retry-after-ms", "12.2"}, {"retry-after", "9"}}) == 13ms);  // ms wins
  CHECK(ra({{"retry-after-ms", "soon"}, {"retry-after", "3"}}) == 3000ms);
  CHECK(ra({{"retry-after", "Sun, 06 Nov 1994 08:49:47 GMT"}}) == 10000ms);
  CHECK(ra({{"retry-after", "Sunday, 06-Nov-94 08:49:40 GMT"}}) == 3000ms);
  CHECK(ra({{"retry-after", "Sun Nov  6 08:49:42 1994"}}) == 5000ms);
  CHECK(ra({{"retry-after", "Sun, 06 Nov 1994 08:00:00 GMT"}}) == 0ms);  // in the past
  CHECK(ra({{"retry-after", "86400"}}) == kMaxServerDelay);
  CHECK(ra({{"retry-after", "Mon, 07 Nov 1994 08:49:37 GMT"}}) == kMaxServerDelay);
  CHECK_FALSE(ra({{"retry-after", "-1"}}));
  CHECK_FALSE(ra({{"retry-after", "tomorrow"}}));
  CHECK_FALSE(ra({{"retry-after", "Sun, 06 Nov 1994 08:49:37 PST"}}));
  CHECK_FALSE(ra({{"retry-after", "Sun, 32 Nov 1994 08:49:37 GMT"}}));
  CHECK_FALSE(ra({{"retry-after", ""}}));
  CHECK_FALSE(ra({}));
}

TEST_CASE("backoff doubles from 500 ms caps at 8 s jitter shortens by up to a quarter", "[providers][retry]") {
  CHECK(backoffDelay(0, 0) == 500ms);
  CHECK(backoffDelay(1, 0) == 1000ms);
  CHECK(backoffDelay(2, 0) == 2000ms);
  CHECK(backoffDelay(10, 0) == 8000ms);
  CHECK(backoffDelay(0, 0.5) == 437ms);
  CHECK(backoffDelay(0, 1.0) == 375ms);
  CHECK(backoffDelay(-3, 0) == 500ms);
  CHECK(retryDelay({{"retry-after", "4"}}, 0, 0.5, kNow) == 4000ms);
  CHECK(retryDelay({}, 1, 0, kNow) == 1000ms);
}

TEST_CASE("retryable statuses", "[providers][retry]") {
  for (int s : {408, 409, 429, 500, 502, 503, 504, 529}) CHECK(isRetryableStatus(s));
  for (int s : {200, 400, 401, 403, 404, 422}) CHECK_FALSE(isRetryableStatus(s));
}

TEST_CASE("redaction of headers and secrets", "[providers][redact]") {
  CHECK(redactHeaderLine("Authorization: Bearer sk-abc") == "Authorization: [redacted]");
  CHECK(redactHeaderLine("x-api-key: sk-ant-123") == "x-api-key: [redacted]");
  CHECK(redactHeaderLine("X-Api-Key:sk") == "X-Api-Key: [redacted]");
  CHECK(redactHeaderLine("anthropic-version: 2023-06-01") == "anthropic-version: 2023-06-01");
  CHECK(redactHeaderLine("Content-Type: application/json") == "Content-Type: application/json");
  CHECK(isSecretHeader("Proxy-Authorization"));
  CHECK_FALSE(isSecretHeader("authorization-hint"));
  CHECK(redactSecrets("key sk-12345 and sk-12345 again", {"sk-12345"}) == "key [redacted] and [redacted] again");
  CHECK(redactSecrets("short ab", {"ab"}) == "short ab");  // too short to be a key
  CHECK(redactSecrets("sent Bearer abc.def-ghi to x", {}) == "sent Bearer [redacted] to x");
  CHECK(redactSecrets("\"Bearer tok\"", {}) == "\"Bearer [redacted]\"");
}
