// Closed integer intervals [lo, hi] and the operations a scheduler needs on them.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

namespace interval {

struct Interval {
  int lo = 0;
  int hi = 0;
  bool operator==(const Interval& o) const { return lo == o.lo && hi == o.hi; }
};

inline int length(const Interval& i) { return i.hi - i.lo + 1; }

inline bool overlaps(const Interval& a, const Interval& b) { return a.lo <= b.hi && b.lo <= a.hi; }

inline std::optional<Interval> intersect(const Interval& a, const Interval& b) {
  if (!overlaps(a, b)) return std::nullopt;
  return Interval{std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
}

// Merges overlapping or touching intervals; the result is sorted by lo.
inline std::vector<Interval> merge(std::vector<Interval> xs) {
  std::sort(xs.begin(), xs.end(), [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
  std::vector<Interval> out;
  for (const auto& x : xs) {
    if (!out.empty() && x.lo <= out.back().hi + 1) {
      out.back().hi = std::max(out.back().hi, x.hi);
    } else {
      out.push_back(x);
    }
  }
  return out;
}

// Total number of integers covered by the intervals (overlaps counted once).
inline int covered(const std::vector<Interval>& xs) {
  int total = 0;
  for (const auto& x : merge(xs)) total += length(x);
  return total;
}

}  // namespace interval
