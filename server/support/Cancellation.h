// Cooperative cancellation shared by the LSP layer and the engine.
//
// A CancellationSource owns the state; the tokens it hands out are cheap shared handles that
// long steps check before they start (LLM call, sandbox run, refine round) and watch while they
// run: `fd()` becomes readable once cancelled, so a poll()/epoll/Asio loop can wait on it
// alongside child pipes or sockets, and `onCancel` callbacks fire exactly once.
//
// Thread-safety: all members may be called from any thread. Callbacks run on the thread that
// calls cancel() (or immediately on the registering thread if already cancelled); they must be
// short and must not call back into the same source.
#pragma once

#include <functional>
#include <memory>

namespace greenlight::support {

class CancellationState;

class CancellationToken {
 public:
  CancellationToken() = default;  // a token that is never cancelled
  bool isCancelled() const;
  // An eventfd that is readable once cancelled; -1 for the never-cancelled token.
  // The token's state owns it: do not close it.
  int fd() const;
  // Runs `fn` once when cancelled (now, if already cancelled). Returns a registration id.
  int onCancel(std::function<void()> fn) const;
  void removeCallback(int id) const;

 private:
  friend class CancellationSource;
  explicit CancellationToken(std::shared_ptr<CancellationState> s) : state_(std::move(s)) {}
  std::shared_ptr<CancellationState> state_;
};

class CancellationSource {
 public:
  CancellationSource();
  CancellationToken token() const;
  void cancel();
  bool isCancelled() const;

 private:
  std::shared_ptr<CancellationState> state_;
};

}  // namespace greenlight::support
