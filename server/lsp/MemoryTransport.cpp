#include "lsp/MemoryTransport.h"

#include <boost/asio/post.hpp>

namespace greenlight::lsp {
namespace asio = boost::asio;

MemoryTransport::MemoryTransport(asio::io_context& io) : io_(io) {}

MemoryTransport::~MemoryTransport() { *alive_ = false; }

void MemoryTransport::push(std::string body) {
  input_.push_back({Input::Body, std::move(body)});
  schedule();
}

void MemoryTransport::pushBytes(std::string_view bytes) {
  input_.push_back({Input::Bytes, std::string(bytes)});
  schedule();
}

void MemoryTransport::close() {
  input_.push_back({Input::Eof, {}});
  schedule();
}

void MemoryTransport::start(Callbacks callbacks) {
  callbacks_ = std::move(callbacks);
  started_ = true;
  schedule();
}

void MemoryTransport::schedule() {
  if (!started_ || scheduled_ || input_.empty() || closed_ || finished_) return;
  scheduled_ = true;
  asio::post(io_, [this, alive = alive_] {
    if (!*alive) return;
    scheduled_ = false;
    deliverOne();
    schedule();
  });
}

void MemoryTransport::deliverOne() {
  if (input_.empty() || closed_ || finished_) return;
  Input in = std::move(input_.front());
  input_.pop_front();
  switch (in.kind) {
    case Input::Body:
      if (callbacks_.onMessage) callbacks_.onMessage(std::move(in.data));
      break;
    case Input::Bytes:
      decoder_.feed(in.data);
      while (!finished_) {
        auto status = decoder_.next();
        if (status == protocol::FrameDecoder::Status::NeedMore) break;
        if (status == protocol::FrameDecoder::Status::Error) {
          if (callbacks_.onFramingError) callbacks_.onFramingError(decoder_.error());
        } else if (callbacks_.onMessage) {
          callbacks_.onMessage(std::string(decoder_.body()));
        }
      }
      break;
    case Input::Eof:
      closed_ = true;
      if (callbacks_.onClosed) callbacks_.onClosed("end of input");
      break;
  }
}

void MemoryTransport::send(std::string body) {
  sent_.push_back(std::move(body));
  if (onSend) onSend(sent_.back());
}

void MemoryTransport::finish(std::function<void()> done) {
  finished_ = true;
  if (done) asio::post(io_, std::move(done));
}

std::vector<std::string> splitMessages(std::string_view script) {
  std::vector<std::string> out;
  std::string current;
  auto flush = [&] {
    bool blank = current.find_first_not_of(" \t\r\n") == std::string::npos;
    if (!blank) out.push_back(current);
    current.clear();
  };
  while (!script.empty()) {
    std::size_t nl = script.find('\n');
    std::string_view line = script.substr(0, nl);
    script.remove_prefix(nl == std::string_view::npos ? script.size() : nl + 1);
    std::string_view trimmed = line;
    while (!trimmed.empty() && (trimmed.back() == '\r' || trimmed.back() == ' ')) trimmed.remove_suffix(1);
    if (trimmed == "---") {
      flush();
      continue;
    }
    if (!trimmed.empty() && trimmed.front() == '#') continue;
    current.append(line.data(), line.size());
    current += '\n';
  }
  flush();
  return out;
}

}  // namespace greenlight::lsp
