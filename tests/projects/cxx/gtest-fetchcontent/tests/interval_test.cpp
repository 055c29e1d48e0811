#include <gtest/gtest.h>

#include "interval/interval.hpp"

using interval::Interval;

TEST(Length, CountsBothEnds) {
  EXPECT_EQ(interval::length({3, 7}), 5);
  EXPECT_EQ(interval::length({4, 4}), 1);
}

TEST(Overlaps, SharedEndpoint) { EXPECT_TRUE(interval::overlaps({1, 3}, {3, 5})); }

TEST(Overlaps, Disjoint) { EXPECT_FALSE(interval::overlaps({1, 2}, {4, 5})); }

TEST(Intersect, Inner) { EXPECT_EQ(interval::intersect({1, 10}, {4, 6}), (Interval{4, 6})); }

TEST(Intersect, NoneWhenDisjoint) { EXPECT_FALSE(interval::intersect({1, 2}, {5, 6}).has_value()); }

TEST(Merge, JoinsTouching) {
  auto m = interval::merge({{5, 6}, {1, 2}, {3, 4}});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], (Interval{1, 6}));
}

TEST(Merge, KeepsGaps) { EXPECT_EQ(interval::merge({{1, 2}, {5, 6}}).size(), 2u); }

TEST(Covered, CountsOverlapOnce) { EXPECT_EQ(interval::covered({{1, 5}, {3, 8}}), 8); }
