#include <catch2/catch.hpp>

#include <kvconf/kvconf.hpp>

TEST_CASE("lookup finds a key or nothing", "[lookup]") {
  const kvconf::Config c{{"a", "1"}};
  CHECK(kvconf::lookup(c, "a") == std::optional<std::string>("1"));
  CHECK_FALSE(kvconf::lookup(c, "b").has_value());
}

// Named as cxxopts names one of its cases: a listing that holds "Unrecognised" is still a listing.
TEST_CASE("Unrecognised keys are not found", "[lookup]") {
  const kvconf::Config c{{"a", "1"}};
  CHECK_FALSE(kvconf::lookup(c, "unknown").has_value());
}

TEST_CASE("value_or falls back", "[lookup]") {
  const kvconf::Config c{{"a", "1"}};
  CHECK(kvconf::value_or(c, "a", "x") == "1");
  CHECK(kvconf::value_or(c, "z", "x") == "x");
}

TEST_CASE("lookup of a huge file", "[.][slow]") {
  CHECK(kvconf::lookup(kvconf::Config{}, "k") == std::nullopt);
}
