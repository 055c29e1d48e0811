// The real HttpTransport: libcurl's multi interface driven by one I/O thread. See the essay at
// the top of CurlTransport.cpp for the threading model.
//
// Thread-safety: every public member may be called from any thread, including from inside a
// callback. Callbacks (HttpHandlers, timer functions, post()ed functions) run on the I/O thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/providers/Clock.h"
#include "core/providers/Http.h"

namespace greenlight::core::providers {

class CurlTransport final : public HttpTransport {
 public:
  CurlTransport();
  // Stops the I/O thread. Transfers still running end with Cancelled; pending timers run first
  // (so their owners see the shutdown through the Cancelled transfers they start).
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  std::uint64_t start(HttpRequest request, HttpHandlers handlers) override;
  void cancel(std::uint64_t id) override;
  void post(std::function<void()> fn) override;
  bool onIoThread() const override;

  // Timers on the I/O thread (used by SystemClock for backoff waits).
  std::uint64_t after(std::chrono::milliseconds delay, std::function<void()> fn);
  bool cancelTimer(std::uint64_t id);

  // Transfers currently in flight (for tests and doctor).
  std::size_t activeTransfers() const;

  struct Transfer;  // internal; public only so curl's C callbacks can name it

 private:
  struct Command;
  void loop();
  void wake();
  void drainCommands(bool stopping);
  void startTransfer(std::uint64_t id, HttpRequest request, HttpHandlers handlers);
  void finish(Transfer& t, HttpOutcome outcome);
  void finishById(std::uint64_t id, HttpOutcome outcome);
  int runDueTimers();  // returns ms until the next timer (or -1)
  int checkStalls();   // finishes stalled transfers; returns ms until the next stall deadline

  mutable std::mutex mutex_;
  std::deque<Command> commands_;
  std::multimap<std::chrono::steady_clock::time_point, std::uint64_t> timerQueue_;
  std::map<std::uint64_t, std::function<void()>> timers_;
  std::uint64_t nextId_ = 1;
  bool stop_ = false;
  int wakeFd_ = -1;

  // Owned by the I/O thread.
  std::map<std::uint64_t, std::unique_ptr<Transfer>> transfers_;
  std::size_t activeCount_ = 0;  // mirrored under mutex_ for activeTransfers()
  void* multi_ = nullptr;
  std::string loadError_;

  std::thread::id ioThreadId_;
  std::thread thread_;
};

// The real Clock: system time, a random jitter, and timers on a CurlTransport's I/O thread.
class SystemClock final : public Clock {
 public:
  // Holds the transport weakly: calls hold the clock, and the transport's timers hold calls.
  explicit SystemClock(std::weak_ptr<CurlTransport> transport) : transport_(std::move(transport)) {}
  std::chrono::system_clock::time_point now() override { return std::chrono::system_clock::now(); }
  double jitter() override;
  // After the transport is gone the function never runs (returns 0).
  std::uint64_t after(std::chrono::milliseconds delay, std::function<void()> fn) override {
    auto t = transport_.lock();
    return t ? t->after(delay, std::move(fn)) : 0;
  }
  bool cancelTimer(std::uint64_t id) override {
    auto t = transport_.lock();
    return t && t->cancelTimer(id);
  }

 private:
  std::weak_ptr<CurlTransport> transport_;
};

}  // namespace greenlight::core::providers
