#include <catch2/catch.hpp>

#include <kvconf/kvconf.hpp>

#include <cstdint>
#include <stdexcept>

TEST_CASE("to_bool accepts the usual spellings", "[convert]") {
  for (const char* yes : {"true", "yes", "on", "1"}) CHECK(kvconf::to_bool(yes));
  for (const char* no : {"false", "no", "off", "0"}) CHECK_FALSE(kvconf::to_bool(no));
  CHECK_THROWS_WITH(kvconf::to_bool("maybe"), "not a boolean: maybe");
}

TEMPLATE_TEST_CASE("to_int reads integers of any width", "[convert]", int, long, std::int64_t) {
  CHECK(kvconf::to_int<TestType>("42") == TestType(42));
  CHECK(kvconf::to_int<TestType>("-7") == TestType(-7));
  CHECK_THROWS_AS(kvconf::to_int<TestType>("4x"), std::invalid_argument);
}
