#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "geom/polygon.hpp"

TEST(BoundingBox, HoldsEveryPoint) {
  const auto b = geom::bounding_box({{1, 5}, {-2, 3}, {4, -1}});
  EXPECT_EQ(b.min, (geom::Point{-2, -1}));
  EXPECT_EQ(b.max, (geom::Point{4, 5}));
}

TEST(BoundingBox, OfOnePointIsThePoint) {
  const auto b = geom::bounding_box({{3, 3}});
  EXPECT_EQ(b.min, b.max);
}

TEST(BoundingBox, OfNothingThrows) {
  EXPECT_THROW(geom::bounding_box({}), std::invalid_argument);
}

TEST(BoundingBox, NotOnThisPlatform) { GTEST_SKIP() << "needs a wider float type"; }
