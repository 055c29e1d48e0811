#include <doctest/doctest.h>

#include "csv.hpp"

TEST_SUITE("split") {
  TEST_CASE("plain fields") { CHECK(csv::split("a,b,c") == std::vector<std::string>{"a", "b", "c"}); }

  TEST_CASE("empty fields are kept") { CHECK(csv::split(",x,").size() == 3); }

  TEST_CASE("quoted comma") {
    const auto f = csv::split("\"a,b\",c");
    REQUIRE(f.size() == 2);
    CHECK(f[0] == "a,b");
  }

  TEST_CASE("doubled quotes") { CHECK(csv::split("\"say \"\"hi\"\"\"")[0] == "say \"hi\""); }
}

TEST_CASE("join round-trips") {
  const std::vector<std::string> fields{"plain", "with,comma", "with \"quote\"", " padded"};
  CHECK(csv::split(csv::join(fields)) == fields);
}
