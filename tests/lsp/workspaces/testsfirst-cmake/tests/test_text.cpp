#include <doctest/doctest.h>

#include "dur/text.hpp"

TEST_CASE("word_count counts words") {
  CHECK(word_count("a b  c") == 3);
}
