#include "lsp/Outbox.h"

#include <boost/asio/post.hpp>

namespace greenlight::lsp::detail {

void Outbox::setLoopThread(std::thread::id id) {
  std::lock_guard<std::mutex> lock(mutex_);
  loopThread_ = id;
}

bool Outbox::onLoopThread() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return loopThread_ == std::this_thread::get_id();
}

void Outbox::send(protocol::Json message) {
  post([self = shared_from_this(), m = std::move(message)]() mutable {
    Sink sink;
    {
      std::lock_guard<std::mutex> lock(self->mutex_);
      sink = self->sink_;
    }
    if (sink) sink(std::move(m));
  }, /*allowInline=*/true);
}

void Outbox::post(std::function<void()> fn, bool allowInline) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!sink_) return;
    if (allowInline && loopThread_ == std::this_thread::get_id()) {
      // fall through to run inline below, outside the lock
    } else {
      boost::asio::post(io_, [self = shared_from_this(), fn = std::move(fn)] {
        bool live;
        {
          std::lock_guard<std::mutex> lock(self->mutex_);
          live = static_cast<bool>(self->sink_);
        }
        if (live) fn();
      });
      return;
    }
  }
  fn();
}

void Outbox::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = nullptr;
}

}  // namespace greenlight::lsp::detail

