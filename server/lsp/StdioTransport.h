// The LSP transport on file descriptors (stdin/stdout by default) through Boost.Asio.
//
// Both descriptors are switched to O_NONBLOCK and driven by posix::stream_descriptor, so the
// loop never blocks: reads are async_read_some into a fixed 64 KiB buffer fed to the framing
// codec (protocol/Framing.h), writes go through a queue drained by one async_write at a time.
// A slow client therefore grows the write queue, never stalls the loop.
//
// Descriptors that epoll cannot watch (a regular file or /dev/null redirected to stdin/stdout,
// as in `greenlight lsp < session.txt`) fall back to plain read()/write() from posted
// handlers: such files never block, and one chunk per loop turn keeps the loop responsive.
//
// EOF on input calls onClosed once. A write error (EPIPE: the client went away) drops the
// queue, logs once, and completes pending finish() callbacks.
//
// Threading: loop thread only (see Transport.h). The descriptors are NOT closed on destruction
// (they belong to the process).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "lsp/Transport.h"
#include "protocol/Framing.h"

namespace greenlight::lsp {

class StdioTransport : public Transport {
 public:
  StdioTransport(boost::asio::io_context& io, int inFd = 0, int outFd = 1);
  ~StdioTransport() override;

  void start(Callbacks callbacks) override;
  void send(std::string body) override;
  void finish(std::function<void()> done) override;

 private:
  void readSome();
  void onRead(const boost::system::error_code& ec, std::size_t n);
  void writeNext();
  void onWritten(const boost::system::error_code& ec);
  void closeInput(const std::string& why);
  void completeFinish();

  boost::asio::io_context& io_;
  boost::asio::posix::stream_descriptor in_;
  boost::asio::posix::stream_descriptor out_;
  int inFd_, outFd_;
  bool inPolled_ = true;   // false: regular-file fallback
  bool outPolled_ = true;
  Callbacks callbacks_;
  protocol::FrameDecoder decoder_;
  std::array<char, 64 * 1024> readBuffer_{};
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool outputBroken_ = false;
  bool reading_ = false;
  bool inputClosed_ = false;
  std::vector<std::function<void()>> finishCallbacks_;
  bool finishing_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace greenlight::lsp
