#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

TEST_SUITE("trim") {
  TEST_CASE("trim removes spaces on both sides") {
    CHECK(strkit::trim("  a b  ") == "a b");
    CHECK(strkit::trim("\t\nx\r\n") == "x");
  }

  TEST_CASE("trim of blanks only is empty") {
    CHECK(strkit::trim("   ") == "");
    CHECK(strkit::trim("") == "");
  }

  TEST_CASE("trim_left and trim_right keep the other side") {
    SUBCASE("left") { CHECK(strkit::trim_left("  a  ") == "a  "); }
    SUBCASE("right") { CHECK(strkit::trim_right("  a  ") == "  a"); }
  }
}
