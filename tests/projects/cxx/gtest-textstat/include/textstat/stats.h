// Descriptive statistics over numbers and word counts. Header-only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace textstat {

template <typename T>
double mean(const std::vector<T>& xs) {
  if (xs.empty()) throw std::invalid_argument("mean of an empty sequence");
  double sum = 0;
  for (const auto& x : xs) sum += static_cast<double>(x);
  return sum / static_cast<double>(xs.size());
}

template <typename T>
double median(std::vector<T> xs) {
  if (xs.empty()) throw std::invalid_argument("median of an empty sequence");
  std::sort(xs.begin(), xs.end());
  const std::size_t mid = xs.size() / 2;
  if (xs.size() % 2 == 1) return static_cast<double>(xs[mid]);
  return (static_cast<double>(xs[mid - 1]) + static_cast<double>(xs[mid])) / 2.0;
}

// Nearest-rank percentile: the smallest value with at least p% of the values at or below it.
template <typename T>
T percentile(std::vector<T> xs, double p) {
  if (xs.empty()) throw std::invalid_argument("percentile of an empty sequence");
  if (p < 0 || p > 100) throw std::out_of_range("percentile outside [0, 100]");
  std::sort(xs.begin(), xs.end());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(xs.size())));
  if (rank == 0) rank = 1;
  return xs[rank - 1];
}

// Population standard deviation.
template <typename T>
double stddev(const std::vector<T>& xs) {
  const double m = mean(xs);
  double sq = 0;
  for (const auto& x : xs) sq += (static_cast<double>(x) - m) * (static_cast<double>(x) - m);
  return std::sqrt(sq / static_cast<double>(xs.size()));
}

inline std::map<std::string, int> frequencies(const std::vector<std::string>& words) {
  std::map<std::string, int> counts;
  for (const auto& w : words) ++counts[w];
  return counts;
}

// The n most frequent words, most frequent first; ties in alphabetical order.
inline std::vector<std::pair<std::string, int>> top_n(const std::map<std::string, int>& counts, std::size_t n) {
  std::vector<std::pair<std::string, int>> all(counts.begin(), counts.end());
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (all.size() > n) all.resize(n);
  return all;
}

}  // namespace textstat
