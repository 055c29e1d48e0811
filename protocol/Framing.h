// LSP base protocol framing ("Content-Length: N\r\n\r\n" + N bytes) as a pure codec over byte
// buffers. No I/O: the transport feeds whatever chunks read() returned and pulls whole bodies.
//
// Decoding rules (what a demanding client or a broken one can rely on):
// - Header names are case-insensitive; whitespace around names and values is ignored; a header
//   line may end in CRLF or a bare LF. Content-Type (and any other header) is accepted and
//   ignored. The header section ends at an empty line.
// - Content-Length must be present, appear once, and be a decimal integer in 0 .. 64 MiB. A
//   missing, non-numeric, negative, overflowing or too-large length is a FramingError. The
//   decoder never allocates from the announced length: the body is collected from bytes that
//   actually arrived, so "Content-Length: 999999999999" costs nothing.
// - A header section longer than 64 KiB without its terminating empty line is an error (a
//   stream of garbage must not grow the buffer without bound).
//
// Error recovery (decided here, documented for the server and its tests): after a FramingError
// the decoder RESYNCHRONISES: it consumes the offending header section, then drops input up to
// the next occurrence of "Content-Length:" (case-insensitive, anywhere: a JSON body is usually
// followed by the next header without a newline) and resumes decoding there. The caller reports the error
// (the server logs it and shows it via window/logMessage; there is no id to answer) and keeps
// serving. A caller that prefers to stop simply stops feeding. Bytes dropped while resyncing
// are counted in `discardedBytes()` and not reported again.
//
// Thread-safety: a FrameDecoder is a plain value; use it from one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace greenlight::protocol {

inline constexpr std::size_t kMaxContentLength = 64u * 1024 * 1024;
inline constexpr std::size_t kMaxHeaderBytes = 64u * 1024;

class FrameDecoder {
 public:
  enum class Status {
    NeedMore,  // no complete frame buffered; feed more bytes
    Frame,     // `body()` holds the next message body
    Error,     // a framing error; `error()` says what; the decoder has started resyncing
  };

  // Appends bytes. Cheap; decoding happens in next().
  void feed(std::string_view bytes);
  // Decodes the next frame from what was fed. Call repeatedly until NeedMore.
  Status next();
  // After Frame: the body (valid until the next call to feed() or next()).
  std::string_view body() const { return body_; }
  // After Error: "Content-Length: value 999999999999 exceeds the 67108864-byte limit".
  const std::string& error() const { return error_; }

  // Bytes currently buffered (header in progress, partial body, or unscanned input).
  std::size_t bufferedBytes() const { return buffer_.size() - pos_; }
  std::uint64_t discardedBytes() const { return discarded_; }
  // True when the buffered input is at a frame boundary (nothing half-read): EOF here is clean.
  bool atBoundary() const { return state_ == State::Header && bufferedBytes() == 0; }

 private:
  enum class State { Header, Body, Resync };
  Status fail(std::string message);
  bool resync();  // true once positioned at a "Content-Length:"
  void compact();
  std::size_t findHeaderEnd();  // offset just past the blank line, or npos

  std::string buffer_;
  std::size_t pos_ = 0;          // start of undecoded input in buffer_
  State state_ = State::Header;
  std::size_t bodyLength_ = 0;   // valid in State::Body
  std::size_t scanned_ = 0;      // header bytes after pos_ already searched for the blank line
  std::string body_;
  std::string error_;
  std::uint64_t discarded_ = 0;
};

// Frames one body: "Content-Length: N\r\n\r\n" + body.
std::string encodeFrame(std::string_view body);

}  // namespace greenlight::protocol
