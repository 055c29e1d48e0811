#include <gtest/gtest.h>

#include <vector>

#include "geom/polygon.hpp"

using geom::Point;

namespace {
const std::vector<Point> kSquare{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
const std::vector<Point> kTriangle{{0, 0}, {4, 0}, {0, 3}};
}  // namespace

class PolygonTest : public ::testing::Test {
 protected:
  std::vector<Point> clockwise{{0, 0}, {0, 2}, {2, 2}, {2, 0}};
};

TEST_F(PolygonTest, AreaOfASquare) { EXPECT_DOUBLE_EQ(geom::area(kSquare), 4.0); }

TEST_F(PolygonTest, AreaIgnoresOrientation) {
  EXPECT_DOUBLE_EQ(geom::area(clockwise), 4.0);
  EXPECT_LT(geom::signed_area2(clockwise), 0.0);
}

TEST_F(PolygonTest, PerimeterOfATriangle) { EXPECT_DOUBLE_EQ(geom::perimeter(kTriangle), 12.0); }

TEST(Polygon, EmptyHasNoArea) { EXPECT_EQ(geom::area({}), 0.0); }
