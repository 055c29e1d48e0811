#include <gtest/gtest.h>

#include "textwrap/wrap.hpp"

TEST(Justify, SpreadsSpaces) { EXPECT_EQ(textwrap::justify({"a", "b", "c"}, 7), "a  b  c"); }

TEST(Justify, LeftGapsGetTheExtra) { EXPECT_EQ(textwrap::justify({"a", "b", "c"}, 8), "a   b  c"); }

TEST(Justify, OneWordIsLeftAligned) { EXPECT_EQ(textwrap::justify({"word"}, 6), "word  "); }

TEST(Justify, ExactWidth) { EXPECT_EQ(textwrap::justify({"ab", "cd"}, 5), "ab cd"); }

TEST(Justify, EmptyLine) { EXPECT_EQ(textwrap::justify({}, 3), "   "); }
