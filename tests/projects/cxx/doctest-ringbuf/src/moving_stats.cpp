#include "ringbuf/moving_stats.hpp"

#include <algorithm>

namespace ringbuf {

MovingStats::MovingStats(std::size_t window) : samples_(window) {}

void MovingStats::add(double sample) {
  if (samples_.full()) sum_ -= samples_.front();
  samples_.push(sample);
  sum_ += sample;
}

std::optional<double> MovingStats::average() const {
  if (samples_.empty()) return std::nullopt;
  return sum_ / static_cast<double>(samples_.size());
}

std::optional<double> MovingStats::minimum() const {
  if (samples_.empty()) return std::nullopt;
  const auto all = samples_.to_vector();
  return *std::min_element(all.begin(), all.end());
}

std::optional<double> MovingStats::maximum() const {
  if (samples_.empty()) return std::nullopt;
  const auto all = samples_.to_vector();
  return *std::max_element(all.begin(), all.end());
}

double MovingStats::trend() const {
  if (samples_.empty()) return 0;
  return samples_.back() - samples_.front();
}

}  // namespace ringbuf
