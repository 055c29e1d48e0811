#pragma once
// FNV-1a, 64 bits: the cheap, stable (across runs and machines) hash the runners name cache
// entries and scratch copies by. Not for anything an attacker chooses collisions for.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace greenlight::core::testing {

inline std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// 16 lowercase hex digits.
inline std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace greenlight::core::testing
