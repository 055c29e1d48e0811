// Internal: the thread-safe path from anywhere (loop, thread-pool workers, destructors of
// Reply handles) to the transport, which only the loop thread may touch.
//
// Threading model: `send` on the loop thread writes at once (keeps replies in order with the
// messages that caused them); from any other thread it posts the write to the loop. After the
// server detaches (its destructor), every send is dropped: late replies from work that outlived
// the session have nobody to go to.
#pragma once

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "protocol/Json.h"

namespace greenlight::lsp::detail {

class Outbox : public std::enable_shared_from_this<Outbox> {
 public:
  using Sink = std::function<void(protocol::Json)>;
  Outbox(boost::asio::io_context& io, Sink sink) : io_(io), sink_(std::move(sink)) {}

  void setLoopThread(std::thread::id id);
  bool onLoopThread() const;
  void send(protocol::Json message);
  // Runs `fn` on the loop (now, if called there and `allowInline`). Dropped after detach().
  void post(std::function<void()> fn, bool allowInline = false);
  void detach();

 private:
  boost::asio::io_context& io_;
  mutable std::mutex mutex_;
  Sink sink_;  // empty after detach()
  std::thread::id loopThread_;
};

}  // namespace greenlight::lsp::detail
