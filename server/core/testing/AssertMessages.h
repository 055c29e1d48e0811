// How a failed C++ check reads, in the words the Python harness uses (python_harness.py's
// _gl_fail), for greenlight's own assert, Catch2 and GoogleTest alike:
//
//   left side is a call, ==   "f(x) returned 3, expected 2"         actual "3", expected "2"
//   left side is a call, <    "f(x) returned 3, expected < 2"       actual "3", expected "< 2"
//   otherwise                 "x + 1 == 2: 3 == 2 is false"          actual "3", expected "2"
//   a bare call               "is_prime(4) returned false"          actual "false"
//
// plus the C++ expression scanning those need (the one top-level comparison of an expression
// as written, whether a side is a call).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace greenlight::core::testing {

struct Comparison {
  std::string lhs, op, rhs;  // whitespace-normalized source text; op is "==", "!=", "<", ...
};

// The expression's one top-level comparison (outside parentheses, brackets, braces, string and
// character literals and template arguments; parentheses around the whole are ignored); nullopt
// when there is none or more than one, or when a looser operator (&&, ||, ?:, =, comma) is at the
// top level. `not_eq` reads as "!=".
std::optional<Comparison> splitComparison(std::string_view expression);

// A call of a name, a member or a qualified name, possibly with template arguments and a chain of
// calls before it: f(x), s.size(), std::max<int>(a, b), g(x).h(). Not: !f(x), f(x) + 1, (f)(x).
bool isCallExpression(std::string_view expression);

struct CheckDescription {
  std::string message, actual, expected;
};

// A failed `expression`, whose comparison `op` saw `actual` on the left and `expected` on the
// right. When `expression` does not split at `op`, it is shown whole.
CheckDescription describeComparison(std::string_view expression, std::string_view op, std::string_view actual,
                                    std::string_view expected);
// A failed `expression` whose value was `actual` (a bare call that returned a falsy value).
CheckDescription describeValue(std::string_view expression, std::string_view actual);

// Catch2: a failed check as written (<Original>) and its expansion (<Expanded>, "3 == 2", or
// "lhs\n==\nrhs" when a side is long). nullopt when the expansion cannot be split.
std::optional<CheckDescription> describeCatchExpansion(std::string_view original, std::string_view expanded);

// GoogleTest: a failure's text after its "file:line" line: EXPECT_EQ/STREQ/DOUBLE_EQ, NE/LT/LE/
// GT/GE, TRUE/FALSE and NEAR. nullopt for other texts.
std::optional<CheckDescription> describeGtestFailure(std::string_view text);

// Collapses whitespace runs to one space and trims (Python's " ".join(text.split())).
std::string normalizeSpace(std::string_view text);

}  // namespace greenlight::core::testing
