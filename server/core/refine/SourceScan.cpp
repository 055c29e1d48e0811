#include "core/refine/SourceScan.h"

#include <algorithm>
#include <cctype>

namespace greenlight::core::refine {

using testing::Language;

namespace {

// A table, not std::isalnum: the scanners call it for every character of the text.
struct IdentTable {
  bool table[256] = {};
  IdentTable() {
    for (int c = 0; c < 256; ++c) table[c] = std::isalnum(c) || c == '_' || c == '$';
  }
};
const IdentTable kIdent;

bool identChar(char c) { return kIdent.table[static_cast<unsigned char>(c)]; }
bool blankChar(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

ScannedSource::ScannedSource(std::string_view text, Language language)
    : text_(text), language_(language), classes_(text.size(), CharClass::Code) {
  if (language == Language::Python) scanPython();
  else if (language == Language::JavaScript || language == Language::Cxx) scanCLike(language == Language::JavaScript);
  indexLines();
}

void ScannedSource::scanPython() {
  const std::size_t n = text_.size();
  std::size_t i = 0;
  auto mark = [&](std::size_t from, std::size_t to, CharClass c) {
    for (std::size_t k = from; k < to && k < n; ++k) classes_[k] = c;
  };
  while (i < n) {
    char c = text_[i];
    if (c == '#') {
      std::size_t e = text_.find('\n', i);
      if (e == std::string_view::npos) e = n;
      mark(i, e, CharClass::Comment);
      i = e;
      continue;
    }
    if (c == '\'' || c == '"') {
      // String prefix letters (r, b, u, f and pairs) belong to the string.
      std::size_t start = i;
      bool raw = false;
      for (std::size_t k = 1; k <= 2 && i >= k; ++k) {
        char p = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[i - k])));
        if (p != 'r' && p != 'b' && p != 'u' && p != 'f') break;
        if (i - k > 0 && identChar(text_[i - k - 1]) && k == 2) break;
        bool before = i - k == 0 || !identChar(text_[i - k - 1]);
        if (before) {
          start = i - k;
          for (std::size_t q = start; q < i; ++q) raw = raw || std::tolower(static_cast<unsigned char>(text_[q])) == 'r';
          break;
        }
      }
      bool triple = i + 2 < n && text_[i + 1] == c && text_[i + 2] == c;
      std::size_t j = i + (triple ? 3 : 1);
      for (; j < n; ++j) {
        if (text_[j] == '\\') {
          ++j;  // raw strings too: a backslash keeps the next quote in the string
          continue;
        }
        if (!triple && text_[j] == '\n') break;  // unterminated: ends at the line
        if (text_[j] == c && (!triple || (j + 2 < n && text_[j + 1] == c && text_[j + 2] == c))) {
          j += triple ? 3 : 1;
          break;
        }
      }
      (void)raw;
      if (j > n) j = n;
      mark(start, j, CharClass::String);
      i = j;
      continue;
    }
    ++i;
  }
}

void ScannedSource::scanCLike(bool javascript) {
  const std::size_t n = text_.size();
  auto mark = [&](std::size_t from, std::size_t to, CharClass c) {
    for (std::size_t k = from; k < to && k < n; ++k) classes_[k] = c;
  };
  // JavaScript template literals: each open `${` pushes the brace depth at which it closes.
  std::vector<int> templateDepths;
  int braceDepth = 0;
  char lastSignificant = 0;       // last code character that is not whitespace
  std::string lastWord;           // last identifier in code (for the regex rule)
  std::size_t i = 0;

  // Scans a template literal's text from `j` (just after '`' or after a closing '}' of ${}):
  // returns the offset after its end, or the offset just after a '${'.
  auto scanTemplate = [&](std::size_t j, bool& openedExpr) {
    openedExpr = false;
    for (; j < n; ++j) {
      if (text_[j] == '\\') {
        ++j;
        continue;
      }
      if (text_[j] == '`') return j + 1;
      if (text_[j] == '$' && j + 1 < n && text_[j + 1] == '{') {
        openedExpr = true;
        return j + 2;
      }
    }
    return n;
  };

  while (i < n) {
    char c = text_[i];
    char next = i + 1 < n ? text_[i + 1] : '\0';
    if (c == '/' && next == '/') {
      std::size_t e = text_.find('\n', i);
      if (e == std::string_view::npos) e = n;
      mark(i, e, CharClass::Comment);
      i = e;
      continue;
    }
    if (c == '/' && next == '*') {
      std::size_t e = text_.find("*/", i + 2);
      e = e == std::string_view::npos ? n : e + 2;
      mark(i, e, CharClass::Comment);
      i = e;
      continue;
    }
    if (!javascript && c == 'R' && next == '"' && (i == 0 || !identChar(text_[i - 1]) ||
                                                   (i >= 1 && (text_[i - 1] == 'u' || text_[i - 1] == 'U' || text_[i - 1] == 'L' ||
                                                               (i >= 2 && text_[i - 1] == '8' && text_[i - 2] == 'u'))))) {
      // Raw string R"delim( ... )delim"
      std::size_t open = text_.find('(', i + 2);
      if (open != std::string_view::npos && open - (i + 2) <= 16) {
        std::string closer = ")" + std::string(text_.substr(i + 2, open - (i + 2))) + "\"";
        std::size_t e = text_.find(closer, open + 1);
        e = e == std::string_view::npos ? n : e + closer.size();
        mark(i, e, CharClass::String);
        i = e;
        lastSignificant = '"';
        continue;
      }
    }
    bool charLiteral = !javascript && c == '\'';
    if (charLiteral && i > 0 && std::isxdigit(static_cast<unsigned char>(text_[i - 1])) &&
        i + 1 < n && std::isxdigit(static_cast<unsigned char>(text_[i + 1]))) {
      // 1'000'000: a digit separator, not a char literal (when the word is a number).
      std::size_t w = i;
      while (w > 0 && (identChar(text_[w - 1]) || text_[w - 1] == '\'')) --w;
      if (std::isdigit(static_cast<unsigned char>(text_[w]))) charLiteral = false;
    }
    if (c == '"' || (javascript && c == '\'') || charLiteral) {
      std::size_t j = i + 1;
      for (; j < n; ++j) {
        if (text_[j] == '\\') {
          ++j;
          continue;
        }
        if (text_[j] == '\n') break;
        if (text_[j] == c) {
          ++j;
          break;
        }
      }
      if (j > n) j = n;
      mark(i, j, CharClass::String);
      i = j;
      lastSignificant = c;
      lastWord.clear();
      continue;
    }
    if (javascript && c == '`') {
      bool opened = false;
      std::size_t e = scanTemplate(i + 1, opened);
      mark(i, e, CharClass::String);
      if (opened) templateDepths.push_back(braceDepth);
      i = e;
      lastSignificant = opened ? '{' : '`';
      lastWord.clear();
      continue;
    }
    if (javascript && c == '}' && !templateDepths.empty() && templateDepths.back() == braceDepth) {
      templateDepths.pop_back();
      bool opened = false;
      std::size_t e = scanTemplate(i + 1, opened);
      mark(i, e, CharClass::String);
      if (opened) templateDepths.push_back(braceDepth);
      i = e;
      lastSignificant = opened ? '{' : '`';
      continue;
    }
    if (javascript && c == '/') {
      static const std::string kBefore = "(,=:[!&|?{};+-*%<>~^";
      static const char* kWords[] = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete",
                                     "void", "throw", "yield", "await", "instanceof"};
      bool regex = lastSignificant == 0 || kBefore.find(lastSignificant) != std::string::npos;
      if (!regex && !lastWord.empty() && identChar(lastSignificant)) {
        for (const char* w : kWords) regex = regex || lastWord == w;
      }
      if (regex) {
        std::size_t j = i + 1;
        bool inClass = false;
        for (; j < n && text_[j] != '\n'; ++j) {
          if (text_[j] == '\\') {
            ++j;
            continue;
          }
          if (text_[j] == '[') inClass = true;
          else if (text_[j] == ']') inClass = false;
          else if (text_[j] == '/' && !inClass) {
            ++j;
            break;
          }
        }
        while (j < n && identChar(text_[j])) ++j;  // flags
        mark(i, j, CharClass::String);
        i = j;
        lastSignificant = '/';
        lastWord.clear();
        continue;
      }
    }
    if (identChar(c)) {
      // A whole identifier (or number) at once: the last word for the regex rule.
      std::size_t e = i + 1;
      // (stopping before a raw string's R: `u8R"(…)"` is a prefix and a raw string)
      while (e < n && identChar(text_[e]) && !(!javascript && text_[e] == 'R' && e + 1 < n && text_[e + 1] == '"')) ++e;
      lastWord.assign(text_.data() + i, e - i);
      lastSignificant = text_[e - 1];
      i = e;
      continue;
    }
    if (c == '{') ++braceDepth;
    else if (c == '}') --braceDepth;
    if (!blankChar(c)) {
      lastWord.clear();
      lastSignificant = c;
    }
    ++i;
  }
}

void ScannedSource::indexLines() {
  const std::size_t n = text_.size();
  int depth = 0;
  lines_.reserve(static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')) + 1);
  for (std::size_t start = 0; start <= n;) {
    std::size_t i = text_.find('\n', start);
    if (i == std::string_view::npos) i = n;
    if (i == n && start == n && !lines_.empty()) break;  // a final '\n' starts no line
    ScannedLine l;
    l.begin = start;
    l.end = (i > start && text_[i - 1] == '\r') ? i - 1 : i;
    lines_.push_back(l);
    start = i + 1;
  }
  if (lines_.empty()) lines_.push_back(ScannedLine{});
  static const struct Brackets {
    signed char delta[256] = {};
    Brackets() {
      for (unsigned char c : std::string_view("([{")) delta[c] = 1;
      for (unsigned char c : std::string_view(")]}")) delta[c] = -1;
    }
  } kBrackets;
  for (auto& l : lines_) {
    l.depthAtStart = depth;
    // The '\n' before the line is inside a string or block comment exactly when the line
    // continues one (a '#' or '//' comment stops before its newline).
    l.startsInString = l.begin > 0 && l.begin <= n && classes_[l.begin - 1] != CharClass::Code;
    for (std::size_t k = l.begin; k < l.end; ++k) {
      const int d = kBrackets.delta[static_cast<unsigned char>(text_[k])];
      if (d == 0 || classes_[k] != CharClass::Code) continue;
      if (d > 0) ++depth;
      else if (depth > 0) --depth;
    }
  }
}

std::string_view ScannedSource::lineText(int n) const {
  if (n < 1 || n > lineCount()) return {};
  const auto& l = line(n);
  return text_.substr(l.begin, l.end - l.begin);
}

std::string ScannedSource::masked(std::size_t begin, std::size_t end) const {
  std::string out(text_.substr(begin, end - begin));
  for (std::size_t k = begin; k < end; ++k) {
    CharClass c = classes_[k];
    if (c == CharClass::Code || text_[k] == '\n') continue;
    bool quote = c == CharClass::String && (text_[k] == '"' || text_[k] == '\'' || text_[k] == '`');
    bool edge = quote && (k == 0 || classes_[k - 1] != CharClass::String || k + 1 >= classes_.size() ||
                          classes_[k + 1] != CharClass::String);
    out[k - begin] = edge ? text_[k] : ' ';
  }
  return out;
}

std::string ScannedSource::maskedLine(int n) const {
  if (n < 1 || n > lineCount()) return {};
  return masked(line(n).begin, line(n).end);
}

int ScannedSource::lineOf(std::size_t offset) const {
  int lo = 1, hi = lineCount();
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (line(mid).begin <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

bool ScannedSource::isBlank(int n) const {
  for (char c : lineText(n)) {
    if (!blankChar(c)) return false;
  }
  return true;
}

bool ScannedSource::hasCode(int n) const {
  const auto& l = line(n);
  for (std::size_t k = l.begin; k < l.end; ++k) {
    if (classes_[k] == CharClass::Code && !std::isspace(static_cast<unsigned char>(text_[k]))) return true;
  }
  return false;
}

bool ScannedSource::isCommentOnly(int n) const {
  const auto& l = line(n);
  bool comment = false;
  for (std::size_t k = l.begin; k < l.end; ++k) {
    if (blankChar(text_[k])) continue;
    if (classes_[k] != CharClass::Comment) return false;
    comment = true;
  }
  if (!comment) return false;
  // A line inside a multi-line /* */ comment counts; a line inside a string does not.
  return true;
}

std::string ScannedSource::indentOf(int n) const {
  std::string_view t = lineText(n);
  std::size_t k = 0;
  while (k < t.size() && (t[k] == ' ' || t[k] == '\t')) ++k;
  return std::string(t.substr(0, k));
}

int ScannedSource::indentWidth(int n) const {
  int w = 0;
  for (char c : lineText(n)) {
    if (c == ' ') ++w;
    else if (c == '\t') w += 8 - w % 8;
    else break;
  }
  return w;
}

std::size_t ScannedSource::matching(std::size_t open) const {
  if (open >= text_.size() || classes_[open] != CharClass::Code) return std::string_view::npos;
  char o = text_[open];
  char close = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '\0';
  if (!close) return std::string_view::npos;
  int depth = 0;
  for (std::size_t k = open; k < text_.size(); ++k) {
    if (classes_[k] != CharClass::Code) continue;
    char c = text_[k];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      --depth;
      if (depth == 0) return c == close ? k : std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

std::string ScannedSource::shape(std::size_t begin, std::size_t end) const {
  std::string out;
  for (std::size_t k = begin; k < end; ++k) {
    CharClass c = classes_[k];
    if (c == CharClass::Comment) continue;
    if (c == CharClass::String) {
      if (k == begin || classes_[k - 1] != CharClass::String) out += 'S';
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(text_[k]))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += text_[k];
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace greenlight::core::refine
