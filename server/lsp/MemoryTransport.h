// An in-process transport: the "client" pushes bodies (or raw bytes) in and reads what the
// server sent. Used by the unit tests' in-process client, the golden transcripts and the fuzzer.
//
// Delivery is asynchronous and ordered: each pushed input is delivered from its own posted
// handler, one per loop turn, so work the server posts in between (thread-pool results, replies)
// interleaves as it would with a real client. `close()` delivers EOF after the pending input.
//
// Threading: loop thread only, like every Transport; push()/close() may also be called before
// the loop runs.
#pragma once

#include <boost/asio/io_context.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lsp/Transport.h"
#include "protocol/Framing.h"

namespace greenlight::lsp {

class MemoryTransport : public Transport {
 public:
  explicit MemoryTransport(boost::asio::io_context& io);
  ~MemoryTransport() override;

  // Client side.
  void push(std::string body);              // one whole body
  void pushBytes(std::string_view bytes);   // raw bytes through the real framing codec
  void close();                             // EOF once the queue drains
  // Every body the server sent, in order.
  const std::vector<std::string>& sent() const { return sent_; }
  // Called for each body the server sends (after it is recorded).
  std::function<void(const std::string&)> onSend;
  bool finished() const { return finished_; }
  std::size_t pendingInput() const { return input_.size(); }

  // Server side (Transport).
  void start(Callbacks callbacks) override;
  void send(std::string body) override;
  void finish(std::function<void()> done) override;

 private:
  struct Input {
    enum Kind { Body, Bytes, Eof } kind;
    std::string data;
  };
  void schedule();
  void deliverOne();

  boost::asio::io_context& io_;
  Callbacks callbacks_;
  std::deque<Input> input_;
  protocol::FrameDecoder decoder_;
  std::vector<std::string> sent_;
  bool started_ = false;
  bool scheduled_ = false;
  bool closed_ = false;
  bool finished_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// Splits a transcript/script text into message bodies: messages are separated by lines that
// consist of "---"; lines starting with "#" are comments. Empty chunks are skipped.
std::vector<std::string> splitMessages(std::string_view script);

}  // namespace greenlight::lsp
