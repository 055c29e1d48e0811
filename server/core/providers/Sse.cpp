#include "core/providers/Sse.h"

namespace greenlight::core::providers {

bool SseParser::feed(std::string_view bytes, const Callback& onEvent) {
  if (!error_.empty()) return false;
  if (!sawBytes_ && !bytes.empty()) {
    // A BOM may only appear at the very start; it can itself arrive split.
    static constexpr std::string_view kBom = "\xEF\xBB\xBF";
    std::size_t have = line_.size();
    std::string probe = line_ + std::string(bytes.substr(0, kBom.size()));
    if (probe.size() < kBom.size() && kBom.substr(0, probe.size()) == probe) {
      line_ = probe;  // still ambiguous: keep collecting
      return true;
    }
    sawBytes_ = true;
    if (probe.compare(0, kBom.size(), kBom) == 0) {
      bytes.remove_prefix(kBom.size() - have);
      line_.clear();
    }
  }
  std::size_t i = 0;
  if (skipLf_ && !bytes.empty()) {
    if (bytes[0] == '\n') i = 1;
    skipLf_ = false;
  }
  while (i < bytes.size()) {
    std::size_t end = bytes.find_first_of("\r\n", i);
    if (end == std::string_view::npos) {
      if (line_.size() + (bytes.size() - i) > maxLine_) {
        error_ = "SSE line longer than " + std::to_string(maxLine_) + " bytes";
        return false;
      }
      line_.append(bytes.substr(i));
      break;
    }
    std::string_view line;
    if (line_.empty()) {
      line = bytes.substr(i, end - i);
    } else {
      line_.append(bytes.substr(i, end - i));
      line = line_;
    }
    if (line.size() > maxLine_) {
      error_ = "SSE line longer than " + std::to_string(maxLine_) + " bytes";
      return false;
    }
    i = end + 1;
    if (bytes[end] == '\r') {
      if (i < bytes.size()) {
        if (bytes[i] == '\n') ++i;
      } else {
        skipLf_ = true;
      }
    }
    bool go = processLine(line, onEvent);
    line_.clear();
    if (!go) return false;
  }
  return true;
}

bool SseParser::processLine(std::string_view line, const Callback& onEvent) {
  if (line.empty()) {
    pendingFields_ = false;
    if (!haveData_) {
      event_.clear();
      return true;
    }
    SseEvent ev{event_.empty() ? "message" : std::move(event_), std::move(data_), id_};
    data_.clear();
    event_.clear();
    haveData_ = false;
    ++dispatched_;
    return onEvent(ev);
  }
  if (line[0] == ':') return true;  // comment / keep-alive
  pendingFields_ = true;
  std::string_view field = line, value;
  if (auto colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (haveData_) data_.push_back('\n');
    data_.append(value);
    haveData_ = true;
  } else if (field == "event") {
    event_.assign(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) id_.assign(value);
  }
  // "retry" and unknown fields are ignored, as the spec says.
  return true;
}

bool SseParser::hasPartialEvent() const { return !line_.empty() || haveData_ || pendingFields_; }

}  // namespace greenlight::core::providers
