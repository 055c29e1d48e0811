#include "core/testing/AssertMessages.h"
#include "support/Regex.h"

#include <array>
#include <cctype>
#include <sstream>
#include <vector>

namespace greenlight::core::testing {
namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

enum class TokenType { End, Ident, Literal, Punct };

struct Token {
  TokenType type = TokenType::End;
  std::size_t begin = 0, end = 0;
};

// A small C++ tokenizer: enough to tell operators from literals and names (the same rules as the
// compile-time scan in cxx_assert.h.inc).
class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Token next(std::size_t i) const {
    while (i < s_.size() && std::isspace(static_cast<unsigned char>(s_[i]))) ++i;
    Token t;
    t.begin = i;
    if (i >= s_.size()) {
      t.end = s_.size();
      return t;
    }
    const char c = s_[i];
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i + 1])))) {
      ++i;
      while (i < s_.size()) {
        const char d = s_[i];
        if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') && i + 1 < s_.size() && (s_[i + 1] == '+' || s_[i + 1] == '-'))
          i += 2;
        else if (identChar(d) || d == '.')
          ++i;
        else if (d == '\'' && i + 1 < s_.size() && identChar(s_[i + 1]))
          i += 2;
        else
          break;
      }
      return {TokenType::Literal, t.begin, i};
    }
    if (identStart(c)) {
      std::size_t j = i;
      while (j < s_.size() && identChar(s_[j])) ++j;
      if (j < s_.size() && (s_[j] == '"' || s_[j] == '\'')) {
        std::string_view prefix = s_.substr(i, j - i);
        if (s_[j] == '"' && (prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR"))
          return {TokenType::Literal, t.begin, skipRaw(j)};
        if (prefix == "u8" || prefix == "u" || prefix == "U" || prefix == "L") return {TokenType::Literal, t.begin, skipQuoted(j)};
      }
      return {TokenType::Ident, t.begin, j};
    }
    if (c == '"' || c == '\'') return {TokenType::Literal, t.begin, skipQuoted(i)};
    static constexpr std::array<std::string_view, 26> kPuncts = {"->*", "<=>", "<<=", ">>=", "...", "->", "<<", ">>", "<=",
                                                                 ">=",  "==",  "!=",  "&&",  "||",  "::", "++", "--", "+=",
                                                                 "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", ".*"};
    for (auto p : kPuncts) {
      if (s_.substr(i, p.size()) == p) return {TokenType::Punct, t.begin, i + p.size()};
    }
    return {TokenType::Punct, t.begin, i + 1};
  }

  std::string_view text(const Token& t) const { return s_.substr(t.begin, t.end - t.begin); }
  bool is(const Token& t, std::string_view p) const { return t.type == TokenType::Punct && text(t) == p; }
  bool isWord(const Token& t, std::string_view w) const { return t.type == TokenType::Ident && text(t) == w; }

  // The end of template arguments opened at `open`, or 0 when `<` is a comparison.
  std::size_t templateClose(std::size_t open) const {
    int angles = 1, nest = 0;
    std::size_t i = open + 1;
    while (true) {
      Token t = next(i);
      if (t.type == TokenType::End) return 0;
      i = t.end;
      if (t.type != TokenType::Punct) continue;
      if (is(t, "(") || is(t, "[") || is(t, "{")) {
        ++nest;
      } else if (is(t, ")") || is(t, "]") || is(t, "}")) {
        if (--nest < 0) return 0;
      } else if (nest == 0) {
        if (is(t, "&&") || is(t, "||") || is(t, ";") || is(t, "?")) return 0;
        if (is(t, "<")) ++angles;
        if (is(t, ">")) --angles;
        if (is(t, ">>")) angles -= 2;
        if (angles <= 0) {
          if (angles < 0) return 0;
          Token after = next(i);
          if (after.type == TokenType::End || is(after, "(") || is(after, "::") || is(after, "{") || is(after, ")") ||
              is(after, ">") || is(after, ">>"))
            return i;
          return 0;
        }
      }
    }
  }

 private:
  std::size_t skipQuoted(std::size_t i) const {
    const char q = s_[i++];
    while (i < s_.size() && s_[i] != q) i += s_[i] == '\\' ? 2 : 1;
    return i < s_.size() ? i + 1 : s_.size();
  }
  std::size_t skipRaw(std::size_t quote) const {
    std::size_t open = s_.find('(', quote);
    if (open == std::string_view::npos) return s_.size();
    std::string close = ")" + std::string(s_.substr(quote + 1, open - quote - 1)) + "\"";
    std::size_t end = s_.find(close, open + 1);
    return end == std::string_view::npos ? s_.size() : end + close.size();
  }

  std::string_view s_;
};

bool isComparison(const Lexer& lx, const Token& t) {
  return lx.is(t, "==") || lx.is(t, "!=") || lx.is(t, "<") || lx.is(t, ">") || lx.is(t, "<=") || lx.is(t, ">=") ||
         lx.isWord(t, "not_eq");
}

bool isLooser(const Lexer& lx, const Token& t) {
  static constexpr std::array<std::string_view, 20> kOps = {"&&", "||", "?", ":",  "=",  ",",  "|",   "^",   "+=",  "-=",
                                                            "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ";",   "&"};
  for (auto op : kOps) {
    if (lx.is(t, op)) return true;
  }
  for (std::string_view w : {"and", "or", "bitand", "bitor", "xor", "and_eq", "or_eq", "xor_eq", "throw"}) {
    if (lx.isWord(t, w)) return true;
  }
  return false;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return std::string(s);
}

// Catch2's expansion of a comparison: "lhs OP rhs", or "lhs\nOP\nrhs" when a side is long or
// has lines. The operator is the one of the original expression; a value may itself contain
// " OP ": the split is the first one whose left part has balanced quotes and brackets.
struct CatchValues {
  std::string lhs, op, rhs;
};

bool balanced(std::string_view text) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
  }
  return depth == 0 && !quote;
}

std::optional<CatchValues> splitCatchExpansion(std::string_view original, std::string_view expanded) {
  auto cmp = splitComparison(original);
  if (!cmp) return std::nullopt;
  for (const std::string& sep : {"\n" + cmp->op + "\n", " " + cmp->op + " "}) {
    for (std::size_t pos = expanded.find(sep); pos != std::string_view::npos; pos = expanded.find(sep, pos + 1)) {
      std::string_view lhs = expanded.substr(0, pos);
      if (!balanced(lhs)) continue;
      return CatchValues{std::string(lhs), cmp->op, std::string(expanded.substr(pos + sep.size()))};
    }
  }
  return std::nullopt;
}

// Drops parentheses around the whole expression ("((a == b))" -> "a == b"), as Python's ast
// ignores them; "(a) == (b)" keeps its own.
std::string_view withoutOuterParens(std::string_view e) {
  while (true) {
    while (!e.empty() && std::isspace(static_cast<unsigned char>(e.front()))) e.remove_prefix(1);
    while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back()))) e.remove_suffix(1);
    if (e.size() < 2 || e.front() != '(' || e.back() != ')') return e;
    Lexer lx(e);
    int depth = 0;
    std::size_t close = 0;
    for (std::size_t i = 0;;) {
      Token t = lx.next(i);
      if (t.type == TokenType::End) break;
      i = t.end;
      if (lx.is(t, "(") || lx.is(t, "[") || lx.is(t, "{")) ++depth;
      if (lx.is(t, ")") || lx.is(t, "]") || lx.is(t, "}")) {
        if (--depth == 0) {
          close = t.begin;
          break;
        }
      }
    }
    if (close != e.size() - 1) return e;
    e = e.substr(1, e.size() - 2);
  }
}

}  // namespace

std::optional<CheckDescription> describeCatchExpansion(std::string_view original, std::string_view expanded) {
  if (auto values = splitCatchExpansion(original, expanded)) return describeComparison(original, values->op, values->lhs, values->rhs);
  if (isCallExpression(original) && !expanded.empty() && normalizeSpace(expanded) != normalizeSpace(original))
    return describeValue(original, expanded);
  return std::nullopt;
}

// GoogleTest's failure texts: EXPECT_EQ/STREQ/DOUBLE_EQ ("Expected equality of these values:"),
// EXPECT_NE/LT/LE/GT/GE ("Expected: (a) < (b), actual: 4 vs 2"), EXPECT_TRUE/FALSE ("Value of:"),
// EXPECT_NEAR ("The difference between a and b is ..., where a evaluates to ...").
std::optional<CheckDescription> describeGtestFailure(std::string_view text) {
  std::vector<std::string> lines;
  {
    std::istringstream in{std::string(text)};
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  auto after = [](const std::string& line, const std::string& prefix) -> std::optional<std::string> {
    std::string t = trimmed(line);
    if (t.rfind(prefix, 0) != 0) return std::nullopt;
    return t.substr(prefix.size());
  };
  if (!lines.empty() && trimmed(lines[0]) == "Expected equality of these values:" && lines.size() >= 3) {
    std::size_t i = 1;
    std::string lhs = trimmed(lines[i++]), lhsValue = lhs;
    if (i < lines.size()) {
      if (auto v = after(lines[i], "Which is: ")) {
        lhsValue = *v;
        ++i;
      }
    }
    if (i >= lines.size()) return std::nullopt;
    std::string rhs = trimmed(lines[i++]), rhsValue = rhs;
    bool rhsComputed = false;
    if (i < lines.size()) {
      if (auto v = after(lines[i], "Which is: ")) {
        rhsValue = *v;
        rhsComputed = true;
      }
    }
    // GoogleTest's own convention (its samples, its docs before 1.10): EXPECT_EQ(expected, actual),
    // e.g. EXPECT_EQ(1, Factorial(1)). GoogleTest prints "Which is:" only under an expression whose
    // text differs from its value: a literal on the left with a computed value on the right is the
    // expected value, the right side the actual one.
    if (lhsValue == lhs && rhsComputed) return describeComparison(rhs + " == " + lhs, "==", rhsValue, lhsValue);
    return describeComparison(lhs + " == " + rhs, "==", lhsValue, rhsValue);
  }
  static const std::regex binary = support::regex(R"(^Expected: \((.*)\) (==|!=|<|<=|>|>=) \((.*)\), actual: (.*) vs (.*)$)");
  std::smatch m;
  if (!lines.empty() && std::regex_match(lines[0], m, binary)) {
    return describeComparison(m[1].str() + " " + m[2].str() + " " + m[3].str(), m[2].str(), m[4].str(), m[5].str());
  }
  if (lines.size() >= 3) {
    auto value = after(lines[0], "Value of: ");
    auto actual = after(lines[1], "Actual: ");
    auto expected = after(lines[2], "Expected: ");
    if (value && actual && expected) {
      CheckDescription d = describeValue(*value, *actual);
      d.expected = *expected;
      return d;
    }
  }
  static const std::regex near = support::regex(R"(^The difference between (.*) and (.*) is (.*), which exceeds (.*), where$)");
  if (!lines.empty() && std::regex_match(lines[0], m, near) && lines.size() >= 3) {
    auto a = after(lines[1], m[1].str() + " evaluates to ");
    auto b = after(lines[2], m[2].str() + " evaluates to ");
    if (a && b) {
      if (!a->empty() && a->back() == ',') a->pop_back();
      if (b->size() >= 5 && b->compare(b->size() - 5, 5, ", and") == 0) b->resize(b->size() - 5);
      CheckDescription d;
      d.actual = *a;
      d.expected = *b;
      d.message = trimmed(lines[0].substr(0, lines[0].size() - 7)) + " (" + m[1].str() + " is " + *a + ", " + m[2].str() + " is " + *b + ")";
      return d;
    }
  }
  return std::nullopt;
}

std::string normalizeSpace(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::optional<Comparison> splitComparison(std::string_view expression) {
  expression = withoutOuterParens(expression);
  Lexer lx(expression);
  int depth = 0;
  std::vector<Token> found;
  Token prev;
  bool operandBefore = false;
  for (std::size_t i = 0;;) {
    Token t = lx.next(i);
    if (t.type == TokenType::End) break;
    i = t.end;
    if (lx.is(t, "(") || lx.is(t, "[") || lx.is(t, "{")) {
      ++depth;
    } else if (lx.is(t, ")") || lx.is(t, "]") || lx.is(t, "}")) {
      if (--depth < 0) return std::nullopt;
      if (depth == 0) operandBefore = true;
    } else if (depth == 0) {
      const bool wasOperand = operandBefore;
      operandBefore = t.type == TokenType::Ident || t.type == TokenType::Literal;
      if (lx.isWord(t, "operator")) {
        Token sym = lx.next(i);
        i = sym.end;
        if (lx.is(sym, "(") || lx.is(sym, "[")) i = lx.next(i).end;
        operandBefore = true;
      } else if (lx.is(t, "<") && (prev.type == TokenType::Ident || lx.is(prev, "]"))) {
        if (std::size_t close = lx.templateClose(t.begin)) {
          i = close;
          operandBefore = true;
        } else {
          found.push_back(t);
        }
      } else if (isComparison(lx, t)) {
        found.push_back(t);
        operandBefore = false;
      } else if (lx.is(t, "&")) {
        if (wasOperand || lx.is(prev, "++") || lx.is(prev, "--")) return std::nullopt;
      } else if (isLooser(lx, t)) {
        return std::nullopt;
      }
    }
    prev = t;
  }
  if (depth != 0 || found.size() != 1) return std::nullopt;
  const Token& op = found.front();
  Comparison c;
  c.lhs = normalizeSpace(expression.substr(0, op.begin));
  c.rhs = normalizeSpace(expression.substr(op.end));
  c.op = lx.isWord(op, "not_eq") ? "!=" : std::string(lx.text(op));
  if (c.lhs.empty() || c.rhs.empty()) return std::nullopt;
  return c;
}

bool isCallExpression(std::string_view expression) {
  expression = withoutOuterParens(expression);
  Lexer lx(expression);
  std::size_t i = 0;
  Token t = lx.next(i);
  if (lx.is(t, "::")) t = lx.next(t.end);
  if (t.type != TokenType::Ident) return false;
  for (std::string_view w : {"new", "delete", "sizeof", "alignof", "not", "compl", "throw", "co_await", "typeid", "noexcept"}) {
    if (lx.isWord(t, w)) return false;
  }
  i = t.end;
  bool lastWasCall = false;
  Token prev = t;
  while (true) {
    Token u = lx.next(i);
    if (u.type == TokenType::End) return lastWasCall;
    lastWasCall = false;
    if (lx.is(u, "(") || lx.is(u, "[")) {
      // A balanced group: a call's arguments or a subscript.
      int depth = 0;
      std::size_t j = u.begin;
      Token v;
      do {
        v = lx.next(j);
        if (v.type == TokenType::End) return false;
        j = v.end;
        if (lx.is(v, "(") || lx.is(v, "[") || lx.is(v, "{")) ++depth;
        if (lx.is(v, ")") || lx.is(v, "]") || lx.is(v, "}")) --depth;
      } while (depth > 0);
      lastWasCall = lx.is(u, "(");
      i = j;
      prev = v;
      continue;
    }
    if (lx.is(u, "<") && prev.type == TokenType::Ident) {
      std::size_t close = lx.templateClose(u.begin);
      if (!close) return false;
      i = close;
      prev = Token{TokenType::Ident, u.begin, close};
      continue;
    }
    if (lx.is(u, "::") || lx.is(u, ".") || lx.is(u, "->")) {
      Token name = lx.next(u.end);
      if (lx.is(name, "~")) name = lx.next(name.end);
      if (lx.isWord(name, "template")) name = lx.next(name.end);
      if (name.type != TokenType::Ident) return false;
      i = name.end;
      prev = name;
      continue;
    }
    return false;
  }
}

CheckDescription describeComparison(std::string_view expression, std::string_view op, std::string_view actual,
                                    std::string_view expected) {
  CheckDescription d;
  d.actual = std::string(actual);
  d.expected = op == "==" ? std::string(expected) : std::string(op) + " " + std::string(expected);
  auto split = splitComparison(expression);
  if (split && split->op == op) {
    if (isCallExpression(split->lhs)) {
      d.message = split->lhs + " returned " + d.actual + ", expected " + d.expected;
    } else {
      d.message = split->lhs + " " + split->op + " " + split->rhs + ": " + d.actual + " " + split->op + " " +
                  std::string(expected) + " is false";
    }
  } else {
    d.message = normalizeSpace(expression) + ": " + d.actual + " " + std::string(op) + " " + std::string(expected) + " is false";
  }
  return d;
}

CheckDescription describeValue(std::string_view expression, std::string_view actual) {
  CheckDescription d;
  d.actual = std::string(actual);
  const std::string shown = normalizeSpace(withoutOuterParens(expression));
  d.message = isCallExpression(shown) ? shown + " returned " + d.actual : shown + ": got " + d.actual;
  return d;
}

}  // namespace greenlight::core::testing
