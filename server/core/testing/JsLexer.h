// A small JavaScript / TypeScript lexer: enough to see calls, strings, nesting and literals
// (the test scanner, the import scanner and the config readers of JsProject.cpp and
// JsResolve.cpp). Not a parser: a regular expression literal is told from a division by the
// token before it, as engines do for the common cases.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace greenlight::core::testing::js {

enum class Tok { Ident, String, Template, Punct, Number, Regex };

struct Token {
  Tok kind;
  std::string text;  // identifier / punctuation / the string's value (escapes resolved simply)
  int line;          // 1-based line of the token's start
  std::size_t pos;
  bool substitutions = false;  // a template literal with ${...}
  std::size_t next = 0;        // such a literal: the index of the first token after it (its
                               // substitutions' tokens come between)
};

// The tokens of `text`: comments and whitespace dropped, strings with their escapes resolved.
std::vector<Token> lex(const std::string& text);

// The index of the token that closes the bracket opened at `open`, or npos.
std::size_t matching(const std::vector<Token>& t, std::size_t open);

}  // namespace greenlight::core::testing::js
