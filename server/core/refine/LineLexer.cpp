#include "core/refine/LineLexer.h"

#include <cctype>

namespace greenlight::core::refine {

namespace {

bool endsWithBackslash(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return !line.empty() && line.back() == '\\';
}

// Past a one-line string that opens at `i` with `q`; the end of the line when unterminated.
std::size_t skipShortString(std::string_view line, std::size_t i, char q) {
  ++i;
  while (i < line.size() && line[i] != q) i += line[i] == '\\' ? 2 : 1;
  return i + 1;
}

}  // namespace

void LineLexer::feed(std::string_view line) {
  if (language_ == testing::Language::Python) feedPython(line);
  else feedCLike(line);
}

namespace {

// The characters that can change the Python state outside a string.
struct PythonSpecials {
  bool table[256] = {};
  PythonSpecials() {
    for (unsigned char c : std::string_view("#'\"()[]{}")) table[c] = true;
  }
};
const PythonSpecials kPythonSpecials;

}  // namespace

void LineLexer::feedPython(std::string_view line) {
  const std::size_t n = line.size();
  std::size_t i = 0;
  bool comment = false;
  while (i < n) {
    if (!inString_) {
      while (i < n && !kPythonSpecials.table[static_cast<unsigned char>(line[i])]) ++i;
      if (i >= n) break;
    }
    if (inString_) {
      if (line[i] == '\\') {
        i += 2;
      } else if (line[i] == quote_ && i + 2 < n && line[i + 1] == quote_ && line[i + 2] == quote_) {
        inString_ = false;
        i += 3;
      } else {
        ++i;
      }
      continue;
    }
    const char c = line[i];
    if (c == '#') {
      comment = true;
      break;
    }
    if (c == '\'' || c == '"') {
      if (i + 2 < n && line[i + 1] == c && line[i + 2] == c) {
        inString_ = true;
        quote_ = c;
        i += 3;
      } else {
        i = skipShortString(line, i, c);
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth_;
    else if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
    ++i;
  }
  continued_ = !inString_ && !comment && endsWithBackslash(line);
}

void LineLexer::feedCLike(std::string_view line) {
  const bool js = language_ == testing::Language::JavaScript;
  const std::size_t n = line.size();
  std::size_t i = 0;
  while (i < n) {
    if (inComment_) {
      std::size_t end = line.find("*/", i);
      if (end == std::string_view::npos) {
        i = n;
        break;
      }
      inComment_ = false;
      i = end + 2;
      continue;
    }
    if (inString_) {
      if (!rawDelimiter_.empty()) {
        std::size_t end = line.find(rawDelimiter_, i);
        if (end == std::string_view::npos) {
          i = n;
          break;
        }
        inString_ = false;
        i = end + rawDelimiter_.size();
        rawDelimiter_.clear();
        continue;
      }
      // A JavaScript template literal.
      if (line[i] == '\\') {
        i += 2;
      } else if (line[i] == '`') {
        inString_ = false;
        ++i;
      } else if (line[i] == '$' && i + 1 < n && line[i + 1] == '{') {
        templateDepths_.push_back(depth_);
        ++depth_;
        inString_ = false;
        i += 2;
      } else {
        ++i;
      }
      continue;
    }
    const char c = line[i];
    const char next = i + 1 < n ? line[i + 1] : '\0';
    if (c == '/' && next == '/') break;
    if (c == '/' && next == '*') {
      inComment_ = true;
      i += 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      const bool prevAlnum = i > 0 && std::isalnum(static_cast<unsigned char>(line[i - 1]));
      if (!js && c == '\'' && prevAlnum && i > 0 && std::isxdigit(static_cast<unsigned char>(line[i - 1]))) {
        ++i;  // a digit separator (1'000)
        continue;
      }
      if (!js && c == '"' && i > 0 && line[i - 1] == 'R') {
        std::size_t open = line.find('(', i + 1);
        if (open != std::string_view::npos && open - i - 1 <= 16) {
          rawDelimiter_ = ")" + std::string(line.substr(i + 1, open - i - 1)) + "\"";
          inString_ = true;
          i = open + 1;
          continue;
        }
      }
      i = skipShortString(line, i, c);
      continue;
    }
    if (js && c == '`') {
      inString_ = true;
      ++i;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      ++depth_;
    } else if (c == '}' && js && !templateDepths_.empty() && templateDepths_.back() == depth_ - 1) {
      --depth_;
      templateDepths_.pop_back();
      inString_ = true;  // back inside the template literal
    } else if ((c == '}' || c == ')' || c == ']') && depth_ > 0) {
      --depth_;
    }
    ++i;
  }
  continued_ = !inString_ && !inComment_ && endsWithBackslash(line);
}

}  // namespace greenlight::core::refine
