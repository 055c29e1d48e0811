#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "textstat/tokenize.h"

using textstat::split_words;
using Words = std::vector<std::string>;

TEST(SplitWords, SeparatesOnPunctuationAndSpace) {
  EXPECT_EQ(split_words("Hello, world!  Again."), (Words{"Hello", "world", "Again"}));
}

TEST(SplitWords, KeepsInnerApostrophes) {
  EXPECT_EQ(split_words("don't 'quoted' it's"), (Words{"don't", "quoted", "it's"}));
}

TEST(SplitWords, EmptyAndBlankTextHaveNoWords) {
  EXPECT_TRUE(split_words("").empty());
  EXPECT_TRUE(split_words(" \t\n--").empty());
}

TEST(SplitWords, CountsDigitsAsWordCharacters) {
  const auto words = split_words("route 66 and 3rd street");
  ASSERT_EQ(words.size(), 5u);
  EXPECT_EQ(words[1], "66");
  EXPECT_EQ(words[3], "3rd");
}

TEST(ToLower, LowersAsciiOnly) {
  EXPECT_EQ(textstat::to_lower("MiXeD Case 42"), "mixed case 42");
  EXPECT_STREQ(textstat::to_lower("\xC3\x84").c_str(), "\xC3\x84");
}

TEST(Stopwords, KnowsCommonEnglishWords) {
  EXPECT_TRUE(textstat::is_stopword("the"));
  EXPECT_TRUE(textstat::is_stopword("and"));
  EXPECT_FALSE(textstat::is_stopword("theory"));
}

TEST(ContentWords, DropsStopwordsAndLowers) {
  EXPECT_EQ(textstat::content_words("The Cat and the Hat"), (Words{"cat", "hat"}));
}

class StopwordFilterTest : public ::testing::Test {
 protected:
  void SetUp() override { filter_ = textstat::StopwordFilter({"lorem", "Ipsum"}); }
  textstat::StopwordFilter filter_;
};

TEST_F(StopwordFilterTest, StartsWithTheGivenWords) { EXPECT_EQ(filter_.size(), 2u); }

TEST_F(StopwordFilterTest, MatchesCaseInsensitively) {
  EXPECT_TRUE(filter_.contains("LOREM"));
  EXPECT_TRUE(filter_.contains("ipsum"));
  EXPECT_FALSE(filter_.contains("dolor"));
}

TEST_F(StopwordFilterTest, AddIgnoresDuplicates) {
  filter_.add("dolor");
  filter_.add("DOLOR");
  EXPECT_EQ(filter_.size(), 3u);
}

TEST_F(StopwordFilterTest, ApplyKeepsOrderOfTheRest) {
  EXPECT_EQ(filter_.apply({"Lorem", "ipsum", "dolor", "sit", "amet"}), (Words{"dolor", "sit", "amet"}));
}
