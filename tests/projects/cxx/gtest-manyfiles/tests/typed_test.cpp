#include <gtest/gtest.h>

#include "geom/vec.hpp"

template <typename T>
class VecTyped : public ::testing::Test {};

using Scalars = ::testing::Types<int, long, double>;
TYPED_TEST_SUITE(VecTyped, Scalars);

TYPED_TEST(VecTyped, AddThenSubIsIdentity) {
  const geom::Vec2<TypeParam> a{TypeParam(3), TypeParam(-2)}, b{TypeParam(5), TypeParam(7)};
  EXPECT_EQ(geom::sub(geom::add(a, b), b), a);
}

TYPED_TEST(VecTyped, DotWithItselfIsSquaredLength) {
  const geom::Vec2<TypeParam> a{TypeParam(3), TypeParam(4)};
  EXPECT_EQ(geom::dot(a, a), TypeParam(25));
}
