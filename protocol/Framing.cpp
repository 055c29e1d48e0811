#include "protocol/Framing.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace greenlight::protocol {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A printable excerpt of a bad header for error messages.
std::string excerpt(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (s.size() > 40) out += "...";
  return out;
}

constexpr std::string_view kContentLength = "content-length";
constexpr std::string_view kResyncMarker = "content-length:";

}  // namespace

void FrameDecoder::feed(std::string_view bytes) {
  compact();
  buffer_.append(bytes.data(), bytes.size());
}

void FrameDecoder::compact() {
  // Drop consumed bytes when they dominate the buffer, so a long session does not grow it.
  if (pos_ > 0 && (pos_ >= buffer_.size() || (pos_ > 4096 && pos_ * 2 > buffer_.size()))) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
}

FrameDecoder::Status FrameDecoder::fail(std::string message) {
  error_ = std::move(message);
  state_ = State::Resync;
  scanned_ = 0;
  return Status::Error;
}

bool FrameDecoder::resync() {
  const std::size_t m = kResyncMarker.size();
  std::size_t i = pos_;
  for (; i + m <= buffer_.size(); ++i) {
    if (lower(buffer_[i]) != 'c') continue;
    if (iequals(std::string_view(buffer_.data() + i, m), kResyncMarker)) {
      discarded_ += i - pos_;
      pos_ = i;
      state_ = State::Header;
      return true;
    }
  }
  // Not found: keep a tail that may be the start of a marker split across chunks.
  std::size_t keepFrom = std::max(pos_, buffer_.size() >= m ? buffer_.size() - (m - 1) : 0);
  discarded_ += keepFrom - pos_;
  pos_ = keepFrom;
  return false;
}

std::size_t FrameDecoder::findHeaderEnd() {
  std::size_t from = pos_ + scanned_;
  while (true) {
    std::size_t nl = buffer_.find('\n', from);
    if (nl == std::string::npos) {
      from = buffer_.size();
      break;
    }
    if (nl + 1 >= buffer_.size()) {
      from = nl;
      break;
    }
    if (buffer_[nl + 1] == '\n') return nl + 2;
    if (buffer_[nl + 1] == '\r') {
      if (nl + 2 >= buffer_.size()) {
        from = nl;
        break;
      }
      if (buffer_[nl + 2] == '\n') return nl + 3;
    }
    from = nl + 1;
  }
  scanned_ = from - pos_;  // resume here: everything before holds no header terminator
  return std::string::npos;
}

FrameDecoder::Status FrameDecoder::next() {
  body_.clear();
  if (state_ == State::Resync && !resync()) return Status::NeedMore;

  if (state_ == State::Header) {
    // Blank lines between messages are tolerated and skipped.
    while (pos_ < buffer_.size()) {
      if (buffer_[pos_] == '\n') {
        ++pos_;
      } else if (buffer_[pos_] == '\r' && pos_ + 1 < buffer_.size() && buffer_[pos_ + 1] == '\n') {
        pos_ += 2;
      } else {
        break;
      }
    }
    if (pos_ >= buffer_.size()) return Status::NeedMore;
    std::size_t end = findHeaderEnd();
    if (end == std::string::npos) {
      if (buffer_.size() - pos_ > kMaxHeaderBytes) {
        discarded_ += buffer_.size() - pos_;
        pos_ = buffer_.size();
        return fail("header section exceeds " + std::to_string(kMaxHeaderBytes) +
                    " bytes without an empty line");
      }
      return Status::NeedMore;
    }
    std::string_view header(buffer_.data() + pos_, end - pos_);
    pos_ = end;  // the header section is consumed whatever happens below
    scanned_ = 0;
    if (header.size() > kMaxHeaderBytes)
      return fail("header section exceeds " + std::to_string(kMaxHeaderBytes) + " bytes");

    std::optional<std::size_t> length;
    const std::size_t headerStart = end - header.size();
    while (!header.empty()) {
      std::size_t nl = header.find('\n');
      std::string_view line = header.substr(0, nl);
      header.remove_prefix(nl == std::string_view::npos ? header.size() : nl + 1);
      if (trim(line).empty()) continue;
      std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) {
        // Not a header at all: garbage in front of a message. Resume right after this line so
        // a Content-Length header that follows it is still found.
        pos_ = headerStart + static_cast<std::size_t>(line.data() - (buffer_.data() + headerStart)) + line.size();
        return fail("malformed header line '" + excerpt(trim(line)) + "' (expected 'Name: value')");
      }
      std::string_view name = trim(line.substr(0, colon));
      std::string_view value = trim(line.substr(colon + 1));
      if (!iequals(name, kContentLength)) continue;  // Content-Type and friends: ignored
      if (length) return fail("duplicate Content-Length header");
      if (value.empty()) return fail("Content-Length: empty value");
      if (value.front() == '-') return fail("Content-Length: negative value '" + excerpt(value) + "'");
      std::size_t v = 0;
      for (char c : value) {
        if (c < '0' || c > '9')
          return fail("Content-Length: not a decimal integer: '" + excerpt(value) + "'");
        // Saturates just past the limit: no overflow, and the value is rejected below.
        if (v <= kMaxContentLength) v = v * 10 + static_cast<std::size_t>(c - '0');
      }
      if (v > kMaxContentLength)
        return fail("Content-Length: value " + excerpt(value) + " exceeds the " +
                    std::to_string(kMaxContentLength) + "-byte limit");
      length = v;
    }
    if (!length) return fail("missing Content-Length header");
    bodyLength_ = *length;
    state_ = State::Body;
  }

  // State::Body: wait until the whole body arrived; nothing is reserved up front.
  if (buffer_.size() - pos_ < bodyLength_) return Status::NeedMore;
  body_.assign(buffer_.data() + pos_, bodyLength_);
  pos_ += bodyLength_;
  state_ = State::Header;
  return Status::Frame;
}

std::string encodeFrame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body.data(), body.size());
  return out;
}

}  // namespace greenlight::protocol
