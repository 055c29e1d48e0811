// The wording of failed C++ checks (AssertMessages.h): the expression scanning behind it, and
// Catch2's and GoogleTest's texts turned into the same words.
#include <catch2/catch.hpp>

#include "core/testing/AssertMessages.h"

using namespace greenlight::core::testing;

namespace {

std::string split(std::string_view e) {
  auto c = splitComparison(e);
  return c ? c->lhs + " | " + c->op + " | " + c->rhs : "-";
}

}  // namespace

TEST_CASE("splitComparison finds the one top-level comparison") {
  CHECK(split("f(x) == 3") == "f(x) | == | 3");
  CHECK(split("  a\n <  b ") == "a | < | b");
  CHECK(split("v.size() >= 2") == "v.size() | >= | 2");
  CHECK(split("x != y") == "x | != | y");
  CHECK(split("x <= y") == "x | <= | y");
  CHECK(split("x > y") == "x | > | y");
  CHECK(split("a not_eq b") == "a | != | b");
  // Template arguments and casts are not comparisons.
  CHECK(split("std::max<int>(a, b) == 1") == "std::max<int>(a, b) | == | 1");
  CHECK(split("static_cast<int>(v.size()) < n") == "static_cast<int>(v.size()) | < | n");
  CHECK(split("std::vector<std::vector<int>>{} == v") == "std::vector<std::vector<int>>{} | == | v");
  CHECK(split("a->b(c) == d") == "a->b(c) | == | d");
  CHECK(split("x >> 1 == y << 2") == "x >> 1 | == | y << 2");
  CHECK(split("(a <=> b) < 0") == "(a <=> b) | < | 0");
  // Literals hide their contents.
  CHECK(split(R"(s == "a == b")") == R"(s | == | "a == b")");
  CHECK(split("c == '<'") == "c | == | '<'");
  CHECK(split(R"(s == R"x(a == b)x")") == R"(s | == | R"x(a == b)x")");
  CHECK(split("n == 1'000'000") == "n | == | 1'000'000");
  CHECK(split("&x == p") == "&x | == | p");
  // Nothing to split, or more than one place, or something looser.
  CHECK(split("f(x)") == "-");
  CHECK(split("a == b == c") == "-");
  CHECK(split("x > 0 && y == 1") == "-");
  CHECK(split("x == 1 || y") == "-");
  CHECK(split("a & b == c") == "-");
  CHECK(split("x = y == z") == "-");
  CHECK(split("c ? a == b : d") == "-");
  CHECK(split("x.operator==(y)") == "-");
  // Parentheses around the whole expression do not count; around an operand they stay.
  CHECK(split("(a == b)") == "a | == | b");
  CHECK(split(" ((f(x) == \"s\")) ") == "f(x) | == | \"s\"");
  CHECK(split("(a) == (b)") == "(a) | == | (b)");
  CHECK(split("(a, b) == c") == "(a, b) | == | c");
}

TEST_CASE("isCallExpression: a named call, the shape Python's harness says 'returned' for") {
  for (const char* yes : {"f(x)", "(f(x))", "s.size()", "std::max<int>(a, b)", "g(x).h()", "a->b(c)", "::f()", "ns::C::make(1, {2, 3})",
                          "obj.template get<0>()", "v[0].f()"}) {
    INFO(yes);
    CHECK(isCallExpression(yes));
  }
  for (const char* no : {"!f(x)", "f(x) + 1", "(f)(x)", "x", "new T(x)", "f(x)[0]", "f(x).y", "sizeof(x)", "-f(x)", "42", "\"s\""}) {
    INFO(no);
    CHECK_FALSE(isCallExpression(no));
  }
}

TEST_CASE("describeComparison: Python's words for calls, the expansion for the rest") {
  auto d = describeComparison("fizz_buzz(50) == 0", "==", "987654", "0");
  CHECK(d.message == "fizz_buzz(50) returned 987654, expected 0");
  CHECK(d.actual == "987654");
  CHECK(d.expected == "0");
  d = describeComparison("abs(f(x) - 0.5) < 1e-4", "<", "3.5", "0.0001");
  CHECK(d.message == "abs(f(x) - 0.5) returned 3.5, expected < 0.0001");
  CHECK(d.expected == "< 0.0001");
  d = describeComparison("x + 1 == y", "==", "3", "2");
  CHECK(d.message == "x + 1 == y: 3 == 2 is false");
  CHECK(d.expected == "2");
  d = describeComparison("v != w", "!=", "{1, 2}", "{1, 2}");
  CHECK(d.message == "v != w: {1, 2} != {1, 2} is false");
  CHECK(d.expected == "!= {1, 2}");
  // A macro that hid the comparison: shown whole.
  d = describeComparison("EQUAL(a, b)", "==", "1", "2");
  CHECK(d.message == "EQUAL(a, b): 1 == 2 is false");
}

TEST_CASE("describeValue: a bare call returned a falsy value") {
  auto d = describeValue("is_prime(4)", "false");
  CHECK(d.message == "is_prime(4) returned false");
  CHECK(d.actual == "false");
  CHECK(d.expected.empty());
  CHECK(describeValue("LOOKS_FINE", "0").message == "LOOKS_FINE: got 0");
}

TEST_CASE("Catch2 expansions become actual/expected for every comparison") {
  auto d = describeCatchExpansion("sq(3) == 9", "10 == 9");
  REQUIRE(d);
  CHECK(d->message == "sq(3) returned 10, expected 9");
  CHECK(d->actual == "10");
  CHECK(d->expected == "9");
  d = describeCatchExpansion("f(2) < 3", "4 < 3");
  REQUIRE(d);
  CHECK(d->expected == "< 3");
  d = describeCatchExpansion("name == \"a == b\"", "\"x == y\" == \"a == b\"");
  REQUIRE(d);
  CHECK(d->actual == "\"x == y\"");
  CHECK(d->expected == "\"a == b\"");
  d = describeCatchExpansion("v == w", "{ 1, 2, 3 }\n==\n{ 1, 2 }");
  REQUIRE(d);
  CHECK(d->actual == "{ 1, 2, 3 }");
  CHECK(d->expected == "{ 1, 2 }");
  CHECK(d->message == "v == w: { 1, 2, 3 } == { 1, 2 } is false");
  d = describeCatchExpansion("is_ok(3)", "false");
  REQUIRE(d);
  CHECK(d->message == "is_ok(3) returned false");
  CHECK_FALSE(describeCatchExpansion("x", "x"));
}

TEST_CASE("GoogleTest failure texts become actual/expected") {
  auto d = describeGtestFailure("Expected equality of these values:\n  add(2, 3)\n    Which is: -1\n  5");
  REQUIRE(d);
  CHECK(d->message == "add(2, 3) returned -1, expected 5");
  CHECK(d->actual == "-1");
  CHECK(d->expected == "5");
  d = describeGtestFailure("Expected equality of these values:\n  std::string(\"ab\\ncd\")\n    Which is: \"ab\\ncd\"\n  \"x\"\nWith diff:\n@@ -1,2 +1,1 @@\n-ab\n-cd\n+x\n");
  REQUIRE(d);
  CHECK(d->actual == "\"ab\\ncd\"");
  CHECK(d->expected == "\"x\"");
  // GoogleTest's own order, EXPECT_EQ(expected, actual), as its samples write it: the literal on
  // the left is the expected value (sample1_unittest.cc: EXPECT_EQ(1, Factorial(1)) with a bug).
  d = describeGtestFailure("Expected equality of these values:\n  1\n  Factorial(1)\n    Which is: 2");
  REQUIRE(d);
  CHECK(d->message == "Factorial(1) returned 2, expected 1");
  CHECK(d->actual == "2");
  CHECK(d->expected == "1");
  // Both sides computed: the left one stays the actual value.
  d = describeGtestFailure("Expected equality of these values:\n  a\n    Which is: 1\n  b\n    Which is: 2");
  REQUIRE(d);
  CHECK(d->actual == "1");
  CHECK(d->expected == "2");
  d = describeGtestFailure("Expected: (add(5, 1)) < (2), actual: 4 vs 2");
  REQUIRE(d);
  CHECK(d->message == "add(5, 1) returned 4, expected < 2");
  CHECK(d->expected == "< 2");
  d = describeGtestFailure("Value of: yes()\n  Actual: false\nExpected: true");
  REQUIRE(d);
  CHECK(d->message == "yes() returned false");
  CHECK(d->actual == "false");
  CHECK(d->expected == "true");
  d = describeGtestFailure("The difference between 1.0 and 2.0 is 1, which exceeds 0.5, where\n1.0 evaluates to 1,\n2.0 evaluates to 2, and\n0.5 evaluates to 0.5.");
  REQUIRE(d);
  CHECK(d->actual == "1");
  CHECK(d->expected == "2");
  CHECK(d->message == "The difference between 1.0 and 2.0 is 1, which exceeds 0.5 (1.0 is 1, 2.0 is 2)");
  CHECK_FALSE(describeGtestFailure("Failed\nsomething else"));
}
