#include <gtest/gtest.h>

#include "geom/vec.hpp"

TEST(Length, OfThreeFourIsFive) {
  EXPECT_DOUBLE_EQ(geom::length(geom::Vec2<int>{3, 4}), 5.0);
}

TEST(Length, OfZeroIsZero) {
  EXPECT_DOUBLE_EQ(geom::length(geom::Vec2<double>{}), 0.0);
}

TEST(Length, DISABLED_OfHugeVectorsDoesNotOverflow) {
  EXPECT_GT(geom::length(geom::Vec2<int>{1 << 30, 1 << 30}), 0.0);
}
