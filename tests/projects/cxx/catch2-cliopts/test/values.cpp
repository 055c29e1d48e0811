#include "catch.hpp"

#include <climits>

#include "cliopts/cliopts.hpp"

using cliopts::parse_bool;
using cliopts::parse_int;

TEST_CASE("parse_int reads decimal integers", "[values][int]") {
  CHECK(parse_int("0") == 0);
  CHECK(parse_int("42") == 42);
  CHECK(parse_int("-17") == -17);
  CHECK(parse_int("+8") == 8);
  CHECK(parse_int("2147483647") == INT_MAX);
}

TEST_CASE("parse_int rejects what is not a whole number", "[values][int]") {
  CHECK_THROWS_AS(parse_int(""), cliopts::parse_error);
  CHECK_THROWS_AS(parse_int("12abc"), cliopts::parse_error);
  CHECK_THROWS_AS(parse_int(" 1"), cliopts::parse_error);
  CHECK_THROWS_WITH(parse_int("99999999999"), "out of range: 99999999999");
}

TEST_CASE("parse_bool accepts the usual spellings", "[values][bool]") {
  auto spelling = GENERATE(as<std::string>{}, "true", "YES", "On", "1");
  CAPTURE(spelling);
  CHECK(parse_bool(spelling));
  CHECK_FALSE(parse_bool(spelling == "1" ? "0" : "no"));
  CHECK_THROWS_AS(parse_bool("maybe"), cliopts::parse_error);
}

TEST_CASE("split_key_value", "[values][kv]") {
  using P = std::pair<std::string, std::string>;
  SECTION("splits at the first separator") { CHECK(cliopts::split_key_value("a=b=c") == P{"a", "b=c"}); }
  SECTION("no separator: empty value") { CHECK(cliopts::split_key_value("key") == P{"key", ""}); }
  SECTION("a custom separator") { CHECK(cliopts::split_key_value("host:8080", ':') == P{"host", "8080"}); }
}
