// A fixed-size pool of worker threads for long work the LSP loop must not run itself (test
// runs, LLM calls, anything that waits on a process or a socket).
//
// Threading model: `post` enqueues a task from any thread; N workers take tasks in FIFO order.
// Tasks never run on the posting thread. A task reports back by posting to the event loop
// (lsp::Server::postToLoop) — the pool knows nothing about the loop.
//
// Shutdown: `shutdown()` (also run by the destructor) stops accepting tasks, DISCARDS queued
// tasks that have not started (their closures are destroyed on the calling thread, so RAII
// handles inside them — e.g. an LSP reply that answers an error when dropped — still fire), and
// joins the workers after their current task returns. Long tasks must therefore watch a
// support::CancellationToken: the LSP server cancels every in-flight request before it shuts
// the pool down.
//
// Thread-safety: all members may be called from any thread except that shutdown()/the
// destructor must not be called from a worker.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace greenlight::support {

class ThreadPool {
 public:
  // `threads` == 0 picks max(2, hardware_concurrency).
  explicit ThreadPool(std::size_t threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Returns false (and destroys `task` at once) after shutdown.
  bool post(std::function<void()> task);
  void shutdown();

  std::size_t threadCount() const { return workers_.size(); }
  // Tasks queued and not yet started.
  std::size_t pending() const;
  // Tasks running now.
  std::size_t active() const;
  // Blocks until no task is queued or running (tests).
  void waitIdle();

 private:
  void workerLoop();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> queue_;
  std::vector<std::thread> workers_;
  std::size_t active_ = 0;
  bool stopping_ = false;
};

}  // namespace greenlight::support
