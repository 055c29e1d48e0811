// Server-Sent Events parsing (WHATWG "event stream interpretation"), incremental.
//
// Bytes arrive in whatever pieces the network delivers; feed() takes each piece and calls back
// once per complete event. Handles lines split across pieces, LF / CRLF / CR line ends (also a
// CRLF split between two pieces), multi-line data: fields (joined with "\n"), comments and
// keep-alives (lines starting with ':'), event: names, id:, and a leading UTF-8 BOM.
//
// Thread-safety: one parser per stream, used by one thread at a time.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace greenlight::core::providers {

struct SseEvent {
  std::string event;  // "message" when the stream gave no event: name
  std::string data;
  std::string id;
};

class SseParser {
 public:
  // Returning false from the callback stops parsing (feed returns false too).
  using Callback = std::function<bool(const SseEvent&)>;

  // A line longer than maxLineBytes is an error (a broken or hostile stream must not grow
  // memory without bound).
  explicit SseParser(std::size_t maxLineBytes = 8u << 20) : maxLine_(maxLineBytes) {}

  // Parses `bytes`; returns false on an over-long line (error() says so) or when the callback
  // asked to stop.
  bool feed(std::string_view bytes, const Callback& onEvent);
  // End of stream: dispatches nothing (an unterminated event is discarded, as the spec says)
  // and reports whether bytes of an incomplete event were pending.
  bool hasPartialEvent() const;
  const std::string& error() const { return error_; }
  std::size_t eventsDispatched() const { return dispatched_; }

 private:
  bool processLine(std::string_view line, const Callback& onEvent);

  std::size_t maxLine_;
  std::string line_;
  std::string data_, event_, id_;
  bool haveData_ = false;
  bool pendingFields_ = false;
  bool skipLf_ = false;     // the previous piece ended in CR: a leading LF belongs to it
  bool sawBytes_ = false;   // BOM check done
  std::size_t dispatched_ = 0;
  std::string error_;
};

}  // namespace greenlight::core::providers
