#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "textstat/stats.h"
#include "textstat/tokenize.h"

TEST(Mean, OfIntegers) { EXPECT_DOUBLE_EQ(textstat::mean(std::vector<int>{1, 2, 3, 4}), 2.5); }

TEST(Mean, ThrowsOnEmpty) { EXPECT_THROW(textstat::mean(std::vector<int>{}), std::invalid_argument); }

TEST(Median, OddCountIsTheMiddleValue) { EXPECT_EQ(textstat::median(std::vector<int>{9, 1, 5}), 5.0); }

TEST(Median, EvenCountAveragesTheMiddlePair) { EXPECT_EQ(textstat::median(std::vector<int>{4, 1, 3, 2}), 2.5); }

TEST(Stddev, OfAConstantIsZero) { EXPECT_NEAR(textstat::stddev(std::vector<double>{7, 7, 7}), 0.0, 1e-12); }

TEST(Stddev, PopulationFormula) { EXPECT_NEAR(textstat::stddev(std::vector<int>{2, 4, 4, 4, 5, 5, 7, 9}), 2.0, 1e-9); }

// Nearest-rank percentiles of 15, 20, 35, 40, 50.
class PercentileTest : public ::testing::TestWithParam<std::tuple<double, int>> {
 protected:
  std::vector<int> values_{50, 15, 40, 20, 35};
};

TEST_P(PercentileTest, ReturnsNearestRank) {
  const auto [p, expected] = GetParam();
  EXPECT_EQ(textstat::percentile(values_, p), expected) << "p = " << p;
}

INSTANTIATE_TEST_SUITE_P(NearestRank, PercentileTest,
                         ::testing::Values(std::make_tuple(0.0, 15), std::make_tuple(5.0, 15), std::make_tuple(30.0, 20),
                                           std::make_tuple(40.0, 20), std::make_tuple(50.0, 35),
                                           std::make_tuple(100.0, 50)));

TEST(Percentile, RejectsOutOfRange) { EXPECT_THROW(textstat::percentile(std::vector<int>{1}, 101), std::out_of_range); }

TEST(TopN, OrdersByCountThenAlphabetically) {
  const auto top = textstat::top_n(textstat::frequencies({"b", "a", "c", "a", "b", "d"}), 3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0].first, "a");
  EXPECT_EQ(top[0].second, 2);
  EXPECT_EQ(top[1].first, "b");
  EXPECT_EQ(top[2].first, "c");
}

TEST(TopN, FewerWordsThanAsked) {
  EXPECT_EQ(textstat::top_n(textstat::frequencies({"x"}), 5).size(), 1u);
}

TEST(Corpus, LargeCorpusStatistics) {
  const char* path = std::getenv("TEXTSTAT_LARGE_CORPUS");
  if (path == nullptr) GTEST_SKIP() << "set TEXTSTAT_LARGE_CORPUS to a text file to run";
  EXPECT_FALSE(textstat::content_words(path).empty());
}

// Too slow for every build; run with --gtest_also_run_disabled_tests.
TEST(Corpus, DISABLED_MillionWords) {
  std::vector<std::string> words(1000000, "word");
  EXPECT_EQ(textstat::frequencies(words).at("word"), 1000000);
}
