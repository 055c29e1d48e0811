#include <gtest/gtest.h>

#include <tuple>

#include "geom/vec.hpp"

class CrossSign : public ::testing::TestWithParam<std::tuple<int, int, int, int, int>> {};

TEST_P(CrossSign, MatchesTheTurn) {
  const auto [ax, ay, bx, by, sign] = GetParam();
  const int c = geom::cross(geom::Vec2<int>{ax, ay}, geom::Vec2<int>{bx, by});
  EXPECT_EQ((c > 0) - (c < 0), sign);
}

INSTANTIATE_TEST_SUITE_P(Turns, CrossSign,
                         ::testing::Values(std::make_tuple(1, 0, 0, 1, 1), std::make_tuple(0, 1, 1, 0, -1),
                                           std::make_tuple(2, 2, 1, 1, 0)));
