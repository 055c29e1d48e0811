#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

TEST_CASE("starts_with") {
  CHECK(strkit::starts_with("prefix-rest", "prefix"));
  CHECK_FALSE(strkit::starts_with("pre", "prefix"));
  CHECK(strkit::starts_with("anything", ""));
}

TEST_CASE("ends_with") {
  CHECK(strkit::ends_with("file.txt", ".txt"));
  CHECK_FALSE(strkit::ends_with("txt", ".txt"));
}

TEST_CASE("an affix check that is not finished yet" * doctest::skip()) {
  CHECK(strkit::starts_with("", "x"));
}
