#include <gtest/gtest.h>

#include "geom/vec.hpp"

using geom::Vec2;

TEST(Vec, AddsComponentwise) {
  EXPECT_EQ(geom::add(Vec2<int>{1, 2}, Vec2<int>{3, 4}), (Vec2<int>{4, 6}));
}

TEST(Vec, SubtractsComponentwise) {
  EXPECT_EQ(geom::sub(Vec2<int>{5, 5}, Vec2<int>{2, 3}), (Vec2<int>{3, 2}));
}

TEST(Vec, Scales) {
  const auto v = geom::scale(Vec2<int>{2, -3}, 4);
  EXPECT_EQ(v.x, 8);
  EXPECT_EQ(v.y, -12);
}
