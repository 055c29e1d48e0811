#include "support/Cancellation.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

namespace greenlight::support {

class CancellationState {
 public:
  CancellationState() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}
  ~CancellationState() {
    if (fd_ >= 0) ::close(fd_);
  }
  CancellationState(const CancellationState&) = delete;
  CancellationState& operator=(const CancellationState&) = delete;

  bool cancelled() const { return cancelled_.load(std::memory_order_acquire); }
  int fd() const { return fd_; }

  void cancel() {
    std::map<int, std::function<void()>> run;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cancelled_.exchange(true, std::memory_order_acq_rel)) return;
      run.swap(callbacks_);
    }
    if (fd_ >= 0) {
      std::uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(fd_, &one, sizeof one);
    }
    for (auto& [id, fn] : run) fn();
  }

  int add(std::function<void()> fn) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!cancelled()) {
        int id = nextId_++;
        callbacks_.emplace(id, std::move(fn));
        return id;
      }
    }
    fn();
    return -1;
  }

  void remove(int id) {
    std::lock_guard<std::mutex> lock(mutex_);
    callbacks_.erase(id);
  }

 private:
  int fd_;
  std::atomic<bool> cancelled_{false};
  std::mutex mutex_;
  std::map<int, std::function<void()>> callbacks_;
  int nextId_ = 1;
};

bool CancellationToken::isCancelled() const { return state_ && state_->cancelled(); }
int CancellationToken::fd() const { return state_ ? state_->fd() : -1; }
int CancellationToken::onCancel(std::function<void()> fn) const {
  return state_ ? state_->add(std::move(fn)) : -1;
}
void CancellationToken::removeCallback(int id) const {
  if (state_ && id >= 0) state_->remove(id);
}

CancellationSource::CancellationSource() : state_(std::make_shared<CancellationState>()) {}
CancellationToken CancellationSource::token() const { return CancellationToken(state_); }
void CancellationSource::cancel() { state_->cancel(); }
bool CancellationSource::isCancelled() const { return state_->cancelled(); }

}  // namespace greenlight::support
