// Time as the retry logic sees it: the wall clock (for HTTP dates), jitter, and timers for the
// backoff waits. Behind an interface so tests can record the waits instead of sleeping them.
//
// Thread-safety: all members may be called from any thread. Timer callbacks run on the provider
// I/O thread for the real clock (see CurlTransport).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace greenlight::core::providers {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point now() = 0;
  // Uniform in [0, 1).
  virtual double jitter() = 0;
  // Runs `fn` once after `delay`; returns an id for cancelTimer().
  virtual std::uint64_t after(std::chrono::milliseconds delay, std::function<void()> fn) = 0;
  // True when the timer was removed before it ran.
  virtual bool cancelTimer(std::uint64_t id) = 0;
};

}  // namespace greenlight::core::providers
