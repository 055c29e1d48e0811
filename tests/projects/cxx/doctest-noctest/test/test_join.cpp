#include <doctest/doctest.h>

#include <strkit/strkit.hpp>

#include <array>
#include <list>
#include <string>
#include <vector>

TEST_CASE_TEMPLATE("join any range of strings", Range, std::vector<std::string>, std::list<std::string>) {
  Range parts{"x", "y", "z"};
  CHECK(strkit::join(parts, ", ") == "x, y, z");
}

TEST_CASE("join of nothing is empty") {
  std::vector<std::string> none;
  CHECK(strkit::join(none, "-") == "");
}

TEST_CASE("split then join is the identity") {
  const std::string s = "one;two;;three";
  CHECK(strkit::join(strkit::split(s, ';'), ";") == s);
}
