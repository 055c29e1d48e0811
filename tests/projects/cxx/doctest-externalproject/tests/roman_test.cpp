#include "doctest.h"

#include "roman/roman.hpp"

TEST_CASE("small numbers") {
  CHECK(roman::to_roman(1) == "I");
  CHECK(roman::to_roman(3) == "III");
  CHECK(roman::to_roman(8) == "VIII");
}

TEST_CASE("subtractive pairs") {
  CHECK(roman::to_roman(4) == "IV");
  CHECK(roman::to_roman(9) == "IX");
  CHECK(roman::to_roman(40) == "XL");
  CHECK(roman::to_roman(1994) == "MCMXCIV");
}

TEST_CASE("round trip") {
  for (int n = 1; n < 4000; ++n) REQUIRE(roman::from_roman(roman::to_roman(n)) == n);
}

TEST_CASE("out of range") {
  CHECK_THROWS_AS(roman::to_roman(0), std::out_of_range);
  CHECK_THROWS_AS(roman::to_roman(4000), std::out_of_range);
}
