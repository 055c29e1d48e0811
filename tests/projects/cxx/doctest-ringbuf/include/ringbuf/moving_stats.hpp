// Statistics over the last N samples of a stream.
#pragma once

#include <cstddef>
#include <optional>

#include "ringbuf/ring_buffer.hpp"

namespace ringbuf {

class MovingStats {
 public:
  explicit MovingStats(std::size_t window);

  void add(double sample);
  std::size_t count() const { return samples_.size(); }
  // Over the samples in the window; nullopt before the first sample.
  std::optional<double> average() const;
  std::optional<double> minimum() const;
  std::optional<double> maximum() const;
  // The last sample minus the oldest one in the window (0 with one sample).
  double trend() const;

 private:
  RingBuffer<double> samples_;
  double sum_ = 0;
};

}  // namespace ringbuf
