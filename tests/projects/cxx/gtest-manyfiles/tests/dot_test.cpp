#include <gtest/gtest.h>

#include "geom/vec.hpp"

using geom::Vec2;

TEST(Dot, OfPerpendicularVectorsIsZero) {
  EXPECT_EQ(geom::dot(Vec2<int>{1, 0}, Vec2<int>{0, 7}), 0);
}

TEST(Dot, SumsProducts) {
  EXPECT_EQ(geom::dot(Vec2<int>{2, 3}, Vec2<int>{4, 5}), 23);
}

TEST(Cross, IsAntisymmetric) {
  const Vec2<int> a{2, 1}, b{1, 3};
  EXPECT_EQ(geom::cross(a, b), 5);
  EXPECT_EQ(geom::cross(b, a), -5);
}
