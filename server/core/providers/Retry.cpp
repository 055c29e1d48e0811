#include "core/providers/Retry.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace greenlight::core::providers {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A non-negative decimal number ("2", "1.5", "250.0"); nullopt for anything else.
std::optional<double> parseNumber(std::string_view s) {
  s = trim(s);
  if (s.empty() || s.size() > 32) return std::nullopt;
  bool dot = false;
  for (char c : s) {
    if (c == '.' && !dot) dot = true;
    else if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  if (s == ".") return std::nullopt;
  return std::strtod(std::string(s).c_str(), nullptr);
}

int monthIndex(std::string_view m) {
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int i = 0; i < 12; ++i)
    if (m.size() == 3 && std::equal(m.begin(), m.end(), kMonths[i],
                                    [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      return i;
  return -1;
}

Millis clampServer(double ms) {
  if (!(ms > 0)) return Millis{0};
  if (ms > static_cast<double>(kMaxServerDelay.count())) return kMaxServerDelay;
  return Millis{static_cast<long long>(std::ceil(ms))};
}

}  // namespace

bool isRetryableStatus(int status) {
  return status == 408 || status == 409 || status == 429 || (status >= 500 && status <= 599) ||
         status == 529;
}

std::optional<std::chrono::system_clock::time_point> parseHttpDate(std::string_view text) {
  std::string s(trim(text));
  std::tm tm{};
  char wday[16] = {}, mon[8] = {}, zone[8] = {};
  int day = 0, year = 0, h = 0, m = 0, sec = 0;
  int n = 0;
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  if (std::sscanf(s.c_str(), "%15[A-Za-z], %d %3s %d %d:%d:%d %7s%n", wday, &day, mon, &year, &h,
                  &m, &sec, zone, &n) == 8 && static_cast<std::size_t>(n) == s.size()) {
  } else if (n = 0; std::sscanf(s.c_str(), "%15[A-Za-z], %d-%3s-%d %d:%d:%d %7s%n", wday, &day,
                                mon, &year, &h, &m, &sec, zone, &n) == 8 &&
                    static_cast<std::size_t>(n) == s.size()) {
    // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT (two-digit year: the nearest century)
    if (year < 100) year += year < 70 ? 2000 : 1900;
  } else if (n = 0; std::sscanf(s.c_str(), "%15s %3s %d %d:%d:%d %d%n", wday, mon, &day, &h, &m,
                                &sec, &year, &n) == 7 &&
                    static_cast<std::size_t>(n) == s.size()) {
    std::snprintf(zone, sizeof zone, "GMT");  // asctime: Sun Nov  6 08:49:37 1994
  } else {
    return std::nullopt;
  }
  std::string z(zone);
  if (z != "GMT" && z != "UTC") return std::nullopt;
  int mi = monthIndex(mon);
  if (mi < 0 || day < 1 || day > 31 || h > 23 || m > 59 || sec > 60 || year < 1970 || h < 0 ||
      m < 0 || sec < 0)
    return std::nullopt;
  tm.tm_year = year - 1900;
  tm.tm_mon = mi;
  tm.tm_mday = day;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = sec;
  std::time_t t = ::timegm(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return std::chrono::system_clock::from_time_t(t);
}

std::optional<Millis> parseRetryAfter(const std::map<std::string, std::string>& headers,
                                      std::chrono::system_clock::time_point now) {
  if (auto it = headers.find("retry-after-ms"); it != headers.end())
    if (auto ms = parseNumber(it->second)) return clampServer(*ms);
  auto it = headers.find("retry-after");
  if (it == headers.end()) return std::nullopt;
  if (auto secs = parseNumber(it->second)) return clampServer(*secs * 1000.0);
  if (auto when = parseHttpDate(it->second)) {
    auto ms = std::chrono::duration_cast<Millis>(*when - now).count();
    return clampServer(static_cast<double>(ms));
  }
  return std::nullopt;
}

Millis backoffDelay(int retry, double jitter) {
  retry = std::clamp(retry, 0, 20);
  double base = static_cast<double>(kBaseDelay.count()) * std::pow(2.0, retry);
  base = std::min(base, static_cast<double>(kMaxBackoff.count()));
  jitter = std::clamp(jitter, 0.0, 1.0);
  return Millis{static_cast<long long>(base * (1.0 - 0.25 * jitter))};
}

Millis retryDelay(const std::map<std::string, std::string>& headers, int retry, double jitter,
                  std::chrono::system_clock::time_point now) {
  if (auto server = parseRetryAfter(headers, now)) return *server;
  return backoffDelay(retry, jitter);
}

}  // namespace greenlight::core::providers
