#include <doctest/doctest.h>

#include "ringbuf/moving_stats.hpp"

using doctest::Approx;
using ringbuf::MovingStats;

TEST_CASE("moving stats over an empty window") {
  MovingStats s(3);
  CHECK(s.count() == 0);
  CHECK_FALSE(s.average().has_value());
  CHECK_FALSE(s.minimum().has_value());
  CHECK(s.trend() == 0);
}

TEST_CASE("moving average") {
  MovingStats s(3);
  s.add(1);
  s.add(2);
  REQUIRE(s.average().has_value());
  CHECK(*s.average() == Approx(1.5));

  SUBCASE("the oldest sample leaves the window") {
    s.add(3);
    s.add(10);
    CHECK(s.count() == 3);
    CHECK(*s.average() == Approx(5.0));
  }
  SUBCASE("fractions") {
    s.add(0.25);
    CHECK(*s.average() == Approx(3.25 / 3));
  }
}

TEST_CASE("moving minimum, maximum and trend") {
  MovingStats s(4);
  for (double x : {5.0, -2.0, 7.5, 1.0, 3.0}) s.add(x);
  CHECK(*s.minimum() == -2.0);
  CHECK(*s.maximum() == 7.5);
  CHECK(s.trend() == Approx(5.0));
}
