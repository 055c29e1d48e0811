// See Watchdog.h for the rule. StepWatchdog's thread wakes at least every kTickMs to ask the
// rule again: a `start` may arm it at any moment, and a wake-up a few times a second costs
// nothing next to a test run (and lets a fake clock drive it).
#include "core/testing/Watchdog.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace greenlight::core::testing {

namespace {

constexpr int kTickMs = 250;

class SteadyClock final : public WatchdogClock {
 public:
  double now() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
};

std::string text(const nlohmann::json& e, const char* key) {
  auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void signal(int fd) {
  std::uint64_t one = 1;
  while (::write(fd, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

}  // namespace

std::shared_ptr<WatchdogClock> steadyWatchdogClock() {
  static const auto clock = std::make_shared<SteadyClock>();
  return clock;
}

void HangWatchdog::observe(const nlohmann::json& event, double now) {
  const std::string ev = text(event, "ev");
  const std::string id = text(event, "id"), name = text(event, "name");
  // The same identity rule as foldEvents: ids when both sides have one, else names.
  auto same = [&](const Running& r) { return r.id.empty() || id.empty() ? r.name == name : r.id == id; };
  if (ev == "start" || ev == "begin") {
    Running r{id, name, text(event, "file"), 0, now};
    if (auto it = event.find("line"); it != event.end() && it->is_number_integer()) r.line = it->get<int>();
    running_.push_back(std::move(r));
  } else if (ev == "result" || ev == "loaded" || ev == "timeout" || ev == "end") {
    // A result without a start (a skip, a collection error) is progress too.
    lastFinish_ = now;
    if (auto it = std::find_if(running_.begin(), running_.end(), same); it != running_.end()) running_.erase(it);
  }
}

const HangWatchdog::Running* HangWatchdog::oldest() const {
  return running_.empty() ? nullptr : &running_.front();
}

double HangWatchdog::secondsUntilHang(double now) const {
  const Running* r = oldest();
  if (!r || hangSeconds_ <= 0) return std::numeric_limits<double>::infinity();
  return std::max(0.0, std::max(r->since, lastFinish_) + hangSeconds_ - now);
}

std::optional<HungTest> HangWatchdog::hung(double now) const {
  const Running* r = oldest();
  if (!r || hangSeconds_ <= 0 || secondsUntilHang(now) > 0) return std::nullopt;
  return HungTest{r->id, r->name, r->file, r->line, now - std::max(r->since, lastFinish_)};
}

namespace {

class CpuWaitDiscountedClock final : public WatchdogClock {
 public:
  CpuWaitDiscountedClock(std::shared_ptr<WatchdogClock> base, std::shared_ptr<const std::atomic<std::int64_t>> waitNs)
      : base_(std::move(base)), waitNs_(std::move(waitNs)) {}
  double now() override { return base_->now() - static_cast<double>(waitNs_->load()) / 1e9; }

 private:
  std::shared_ptr<WatchdogClock> base_;
  std::shared_ptr<const std::atomic<std::int64_t>> waitNs_;
};

}  // namespace

std::shared_ptr<WatchdogClock> cpuWaitDiscountedClock(std::shared_ptr<WatchdogClock> base,
                                                      std::shared_ptr<const std::atomic<std::int64_t>> waitNs) {
  return std::make_shared<CpuWaitDiscountedClock>(base ? std::move(base) : steadyWatchdogClock(), std::move(waitNs));
}

StepWatchdog::StepWatchdog(double hangSeconds, std::shared_ptr<WatchdogClock> clock, int callerCancelFd)
    : clock_(clock ? std::move(clock) : steadyWatchdogClock()), callerCancelFd_(callerCancelFd), dog_(hangSeconds) {
  stopFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  wakeFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stopFd_ < 0 || wakeFd_ < 0) {
    if (stopFd_ >= 0) ::close(stopFd_);
    if (wakeFd_ >= 0) ::close(wakeFd_);
    throw std::runtime_error("hang watchdog: eventfd failed");
  }
  thread_ = std::thread([this] { loop(); });
}

StepWatchdog::~StepWatchdog() {
  finish();
  ::close(stopFd_);
  ::close(wakeFd_);
}

void StepWatchdog::observe(const nlohmann::json& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  dog_.observe(event, clock_->now());
}

std::optional<HungTest> StepWatchdog::finish() {
  if (thread_.joinable()) {
    signal(wakeFd_);
    thread_.join();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return fired_;
}

void StepWatchdog::loop() {
  for (;;) {
    double wait;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const double now = clock_->now();
      if (auto h = dog_.hung(now)) {
        fired_ = std::move(h);
        signal(stopFd_);
        return;
      }
      wait = dog_.secondsUntilHang(now);
    }
    const int timeout = std::isinf(wait) ? kTickMs : std::clamp(static_cast<int>(std::ceil(wait * 1000)), 1, kTickMs);
    pollfd fds[2] = {{wakeFd_, POLLIN, 0}, {callerCancelFd_, POLLIN, 0}};
    const int r = ::poll(fds, callerCancelFd_ >= 0 ? 2 : 1, timeout);
    if (r < 0 && errno != EINTR) return;  // nothing to watch with; the sandbox's own limit stays
    if (r <= 0) continue;
    if (fds[0].revents) return;
    if (callerCancelFd_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      signal(stopFd_);  // the caller's cancellation: the verdict stays `cancelled`
      return;
    }
  }
}

}  // namespace greenlight::core::testing
