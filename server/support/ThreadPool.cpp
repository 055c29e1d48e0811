#include "support/ThreadPool.h"

#include <algorithm>
#include <exception>

#include "support/Log.h"

namespace greenlight::support {

ThreadPool::ThreadPool(std::size_t threads) {
  if (threads == 0) threads = std::max<std::size_t>(2, std::thread::hardware_concurrency());
  workers_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() { shutdown(); }

bool ThreadPool::post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      queue_.push_back(std::move(task));
      wake_.notify_one();
      return true;
    }
  }
  task = nullptr;  // destroy outside the lock
  return false;
}

void ThreadPool::shutdown() {
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && workers_.empty()) return;
    stopping_ = true;
    dropped.swap(queue_);
    wake_.notify_all();
  }
  dropped.clear();  // runs destructors of the captured state outside the lock
  for (auto& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
  idle_.notify_all();
}

std::size_t ThreadPool::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

std::size_t ThreadPool::active() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return active_;
}

void ThreadPool::waitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return (queue_.empty() && active_ == 0) || stopping_; });
}

void ThreadPool::workerLoop() {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      task = std::move(queue_.front());
      queue_.pop_front();
      ++active_;
    }
    try {
      task();
    } catch (const std::exception& e) {
      GL_LOG(Error, "thread pool task threw: " << e.what());
    } catch (...) {
      GL_LOG(Error, "thread pool task threw a non-standard exception");
    }
    task = nullptr;  // destroy captures before reporting idle
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --active_;
      if (queue_.empty() && active_ == 0) idle_.notify_all();
    }
  }
}

}  // namespace greenlight::support
