#include <doctest/doctest.h>

#include "csv.hpp"

TEST_CASE("plain text is not quoted") { CHECK(csv::quote("abc") == "abc"); }

TEST_CASE("commas are quoted") { CHECK(csv::quote("a,b") == "\"a,b\""); }

TEST_CASE("inner quotes are doubled") { CHECK(csv::quote("x\"y") == "\"x\"\"y\""); }

TEST_CASE("leading space needs quotes") {
  CHECK(csv::needs_quotes(" a"));
  CHECK_FALSE(csv::needs_quotes("a b"));
}
