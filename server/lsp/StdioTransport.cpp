#include "lsp/StdioTransport.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstring>

#include "support/Log.h"

namespace greenlight::lsp {
namespace asio = boost::asio;

namespace {

void setNonBlocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0 && !(flags & O_NONBLOCK)) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Assigns `fd` to `d`; false when epoll refuses it (regular files, /dev/null).
bool tryAssign(asio::posix::stream_descriptor& d, int fd, const char* name) {
  boost::system::error_code ec;
  d.assign(fd, ec);
  if (!ec) return true;
  GL_LOG(Debug, name << " (fd " << fd << ") cannot be polled (" << ec.message()
                      << "); using plain read/write on it");
  return false;
}

}  // namespace

StdioTransport::StdioTransport(asio::io_context& io, int inFd, int outFd)
    : io_(io), in_(io), out_(io), inFd_(inFd), outFd_(outFd) {
  inPolled_ = tryAssign(in_, inFd, "input");
  outPolled_ = tryAssign(out_, outFd, "output");
  if (inPolled_) setNonBlocking(inFd);
  if (outPolled_) setNonBlocking(outFd);
}

StdioTransport::~StdioTransport() {
  *alive_ = false;
  // The descriptors belong to the process: release, never close.
  if (in_.is_open()) in_.release();
  if (out_.is_open()) out_.release();
}

void StdioTransport::start(Callbacks callbacks) {
  callbacks_ = std::move(callbacks);
  reading_ = true;
  readSome();
}

void StdioTransport::readSome() {
  if (!reading_) return;
  if (inPolled_) {
    in_.async_read_some(asio::buffer(readBuffer_),
                        [this, alive = alive_](const boost::system::error_code& ec, std::size_t n) {
                          if (*alive) onRead(ec, n);
                        });
    return;
  }
  asio::post(io_, [this, alive = alive_] {
    if (!*alive || !reading_) return;
    ssize_t n = ::read(inFd_, readBuffer_.data(), readBuffer_.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return readSome();
    if (n < 0) return onRead(boost::system::error_code(errno, boost::system::system_category()), 0);
    if (n == 0) return onRead(asio::error::eof, 0);
    onRead({}, static_cast<std::size_t>(n));
  });
}

void StdioTransport::onRead(const boost::system::error_code& ec, std::size_t n) {
  if (!reading_) return;
  if (ec) {
    if (ec == asio::error::operation_aborted) return;
    if (ec == asio::error::eof) {
      closeInput(decoder_.atBoundary() ? "end of input"
                                       : "end of input inside a message (" +
                                             std::to_string(decoder_.bufferedBytes()) + " bytes unread)");
    } else {
      closeInput("read error: " + ec.message());
    }
    return;
  }
  decoder_.feed(std::string_view(readBuffer_.data(), n));
  while (reading_) {
    auto status = decoder_.next();
    if (status == protocol::FrameDecoder::Status::NeedMore) break;
    if (status == protocol::FrameDecoder::Status::Error) {
      if (callbacks_.onFramingError) callbacks_.onFramingError(decoder_.error());
      continue;
    }
    if (callbacks_.onMessage) callbacks_.onMessage(std::string(decoder_.body()));
  }
  readSome();
}

void StdioTransport::closeInput(const std::string& why) {
  if (inputClosed_) return;
  inputClosed_ = true;
  reading_ = false;
  if (callbacks_.onClosed) callbacks_.onClosed(why);
}

void StdioTransport::send(std::string body) {
  if (outputBroken_) return;
  queue_.push_back(protocol::encodeFrame(body));
  if (!writing_) writeNext();
}

void StdioTransport::writeNext() {
  if (queue_.empty() || outputBroken_) {
    writing_ = false;
    if (finishing_) completeFinish();
    return;
  }
  writing_ = true;
  if (outPolled_) {
    asio::async_write(out_, asio::buffer(queue_.front()),
                      [this, alive = alive_](const boost::system::error_code& ec, std::size_t) {
                        if (*alive) onWritten(ec);
                      });
    return;
  }
  // Regular file or /dev/null: write() completes without blocking.
  const std::string& front = queue_.front();
  std::size_t done = 0;
  boost::system::error_code ec;
  while (done < front.size()) {
    ssize_t n = ::write(outFd_, front.data() + done, front.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ec = boost::system::error_code(errno, boost::system::system_category());
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  asio::post(io_, [this, alive = alive_, ec] {
    if (*alive) onWritten(ec);
  });
}

void StdioTransport::onWritten(const boost::system::error_code& ec) {
  if (ec) {
    outputBroken_ = true;
    queue_.clear();
    writing_ = false;
    // Debug, not Warn: a Warn would be forwarded to window/logMessage on the broken output.
    GL_LOG(Debug, "write to the client failed: " << ec.message() << "; output disabled");
    if (finishing_) completeFinish();
    return;
  }
  queue_.pop_front();
  writeNext();
}

void StdioTransport::finish(std::function<void()> done) {
  if (done) finishCallbacks_.push_back(std::move(done));
  finishing_ = true;
  reading_ = false;
  if (inPolled_ && in_.is_open()) {
    boost::system::error_code ignored;
    in_.cancel(ignored);
  }
  if (!writing_) completeFinish();
}

void StdioTransport::completeFinish() {
  auto callbacks = std::move(finishCallbacks_);
  finishCallbacks_.clear();
  for (auto& cb : callbacks) asio::post(io_, std::move(cb));
}

}  // namespace greenlight::lsp
