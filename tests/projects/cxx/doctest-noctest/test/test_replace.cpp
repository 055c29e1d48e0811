#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

#include <stdexcept>

TEST_CASE("replace_all replaces every occurrence") {
  CHECK(strkit::replace_all("a-b-c", "-", "+") == "a+b+c");
  CHECK(strkit::replace_all("aaa", "a", "aa") == "aaaaaa");
}

TEST_CASE("replace_all with a longer pattern") {
  CHECK(strkit::replace_all("one two one", "one", "1") == "1 two 1");
}

TEST_CASE("replace_all refuses an empty pattern") {
  CHECK_THROWS_AS(strkit::replace_all("abc", "", "x"), std::invalid_argument);
}
