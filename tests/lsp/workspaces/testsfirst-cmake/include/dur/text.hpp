#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

inline int word_count(const std::string& text) {
  std::istringstream in(text);
  int n = 0;
  for (std::string w; in >> w;) ++n;
  return n;
}

// parse_duration(text): "1h30m" -> 5400 seconds; "90s" -> 90; throws std::invalid_argument on junk
inline int parse_duration(const std::string& text) {
  throw 0;
}
