#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

TEST_CASE("pad_left and pad_right fill to the width") {
  CHECK(strkit::pad_left("7", 3, '0') == "007");
  CHECK(strkit::pad_right("ab", 4) == "ab  ");
}

TEST_CASE("padding never shortens") {
  CHECK(strkit::pad_left("abcdef", 3) == "abcdef");
  CHECK(strkit::pad_right("abcdef", 3) == "abcdef");
}
