#include <gtest/gtest.h>

#include "textwrap/wrap.hpp"

using textwrap::words;
using textwrap::wrap;

TEST(Words, SkipsRunsOfSpaces) { EXPECT_EQ(words("  a  bb c "), (std::vector<std::string>{"a", "bb", "c"})); }

TEST(Words, EmptyText) { EXPECT_TRUE(words("").empty()); }

TEST(Wrap, FillsLinesGreedily) {
  EXPECT_EQ(wrap("aa bb cc dd", 5), (std::vector<std::string>{"aa bb", "cc dd"}));
}

TEST(Wrap, LongWordOnItsOwnLine) { EXPECT_EQ(wrap("a abcdefgh b", 4), (std::vector<std::string>{"a", "abcdefgh", "b"})); }

TEST(Wrap, ExactFit) { EXPECT_EQ(wrap("abc de", 6).size(), 1u); }
