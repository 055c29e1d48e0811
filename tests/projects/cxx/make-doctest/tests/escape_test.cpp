#include <doctest/doctest.h>

#include "escape.hpp"

TEST_CASE("newlines are escaped") { CHECK(csv::escape_newlines("a\nb") == "a\\nb"); }

TEST_CASE("backslashes are doubled") { CHECK(csv::escape_newlines("a\\b").size() == 4); }
