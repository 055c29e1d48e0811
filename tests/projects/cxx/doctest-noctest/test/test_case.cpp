#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

TEST_CASE("to_upper and to_lower") {
  CHECK(strkit::to_upper("Hello, World") == "HELLO, WORLD");
  CHECK(strkit::to_lower("Hello, World") == "hello, world");
}

TEST_CASE("case conversion leaves digits alone") {
  CHECK(strkit::to_upper("a1b2") == "A1B2");
}
