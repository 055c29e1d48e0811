#include "core/testing/JsLexer.h"

#include <cctype>
#include <set>
#include <utility>

namespace greenlight::core::testing::js {

namespace {

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    // Open template literals: for each, the brace depth at which its ${ began and its token.
    std::vector<std::pair<int, std::size_t>> templates;
    int braces = 0;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
        continue;
      }
      if (c == '/' && peek(1) == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '/' && peek(1) == '*') {
        i_ += 2;
        while (i_ < s_.size() && !(s_[i_] == '*' && peek(1) == '/')) {
          if (s_[i_] == '\n') ++line_;
          ++i_;
        }
        i_ += 2;
        continue;
      }
      const std::size_t start = i_;
      const int startLine = line_;
      if (c == '\'' || c == '"') {
        std::string v = quoted(c);
        out.push_back({Tok::String, std::move(v), startLine, start});
        continue;
      }
      if (c == '`') {
        ++i_;
        bool subst = false;
        std::string v = templatePart(&subst);
        if (subst) templates.emplace_back(braces, out.size());
        out.push_back({Tok::Template, std::move(v), startLine, start, subst});
        continue;
      }
      if (c == '}' && !templates.empty() && templates.back().first == braces) {
        // The end of a ${...}: the template literal goes on, folded into its token.
        const std::size_t idx = templates.back().second;
        templates.pop_back();
        ++i_;
        bool subst = false;
        std::string v = templatePart(&subst);
        out[idx].text += "${}" + v;
        if (subst) templates.emplace_back(braces, idx);
        else out[idx].next = out.size();
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80) {
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '$' ||
                                  static_cast<unsigned char>(s_[i_]) >= 0x80))
          ++i_;
        out.push_back({Tok::Ident, s_.substr(start, i_ - start), startLine, start});
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == '_')) ++i_;
        out.push_back({Tok::Number, s_.substr(start, i_ - start), startLine, start});
        continue;
      }
      if (c == '/' && regexAllowed(out)) {
        ++i_;
        bool cls = false;
        while (i_ < s_.size() && s_[i_] != '\n') {
          if (s_[i_] == '\\') {
            i_ += 2;
            continue;
          }
          if (s_[i_] == '[') cls = true;
          else if (s_[i_] == ']') cls = false;
          else if (s_[i_] == '/' && !cls) break;
          ++i_;
        }
        ++i_;
        while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
        out.push_back({Tok::Regex, s_.substr(start, i_ - start), startLine, start});
        continue;
      }
      if (c == '{') ++braces;
      if (c == '}') --braces;
      // `=>` and `...` as one token; everything else one character.
      if (c == '=' && peek(1) == '>') {
        i_ += 2;
        out.push_back({Tok::Punct, "=>", startLine, start});
        continue;
      }
      ++i_;
      out.push_back({Tok::Punct, std::string(1, c), startLine, start});
    }
    return out;
  }

 private:
  char peek(std::size_t n) const { return i_ + n < s_.size() ? s_[i_ + n] : '\0'; }

  std::string quoted(char q) {
    std::string v;
    ++i_;
    while (i_ < s_.size() && s_[i_] != q && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        char e = s_[i_ + 1];
        switch (e) {
          case 'n': v += '\n'; break;
          case 't': v += '\t'; break;
          case '\n': ++line_; break;
          default: v += e;
        }
        i_ += 2;
        continue;
      }
      v += s_[i_++];
    }
    ++i_;
    return v;
  }

  // From after ` (or the } of a substitution) to the closing ` or the next ${.
  std::string templatePart(bool* subst) {
    std::string v;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\\' && i_ + 1 < s_.size()) {
        v += s_[i_ + 1];
        i_ += 2;
        continue;
      }
      if (c == '`') {
        ++i_;
        return v;
      }
      if (c == '$' && peek(1) == '{') {
        i_ += 2;
        *subst = true;
        return v;
      }
      if (c == '\n') ++line_;
      v += c;
      ++i_;
    }
    return v;
  }

  static bool regexAllowed(const std::vector<Token>& out) {
    if (out.empty()) return true;
    const Token& t = out.back();
    switch (t.kind) {
      case Tok::Number:
      case Tok::String:
      case Tok::Template:
      case Tok::Regex: return false;
      case Tok::Ident: {
        static const std::set<std::string> kw = {"return", "typeof", "case", "do", "else", "in", "of", "new",
                                                 "delete", "void", "throw", "instanceof", "yield", "await"};
        return kw.count(t.text) > 0;
      }
      case Tok::Punct: return t.text != ")" && t.text != "]" && t.text != "}";
    }
    return true;
  }

  const std::string& s_;
  std::size_t i_ = 0;
  int line_ = 1;
};

}  // namespace

std::vector<Token> lex(const std::string& text) { return Lexer(text).run(); }

std::size_t matching(const std::vector<Token>& t, std::size_t open) {
  const std::string o = t[open].text;
  const std::string c = o == "(" ? ")" : o == "[" ? "]" : "}";
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].kind != Tok::Punct) continue;
    if (t[i].text == "(" || t[i].text == "[" || t[i].text == "{") ++depth;
    else if (t[i].text == ")" || t[i].text == "]" || t[i].text == "}") {
      if (--depth == 0) return t[i].text == c ? i : std::string::npos;
    }
  }
  return std::string::npos;
}

}  // namespace greenlight::core::testing::js
