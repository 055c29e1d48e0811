#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

TEST_CASE("parse_int reads signed decimals") {
  CHECK(strkit::parse_int("42").value() == 42);
  CHECK(strkit::parse_int("-17").value() == -17);
  CHECK(strkit::parse_int(" +8 ").value() == 8);
}

TEST_CASE("parse_int refuses what is not a number") {
  CHECK_FALSE(strkit::parse_int("").has_value());
  CHECK_FALSE(strkit::parse_int("-").has_value());
  CHECK_FALSE(strkit::parse_int("12a").has_value());
}
