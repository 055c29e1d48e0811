#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

#include <string>
#include <vector>

using Parts = std::vector<std::string>;

TEST_CASE("split at a separator") {
  CHECK(strkit::split("a,b,c", ',') == Parts{"a", "b", "c"});
}

TEST_CASE("split keeps empty pieces") {
  CHECK(strkit::split("a,,b", ',') == Parts{"a", "", "b"});
  CHECK(strkit::split(",", ',') == Parts{"", ""});
}

TEST_CASE("split of an empty string is one empty piece") {
  CHECK(strkit::split("", ',').size() == 1);
}
