#include <catch2/catch.hpp>

#include <kvconf/kvconf.hpp>

TEST_CASE("parse reads key = value lines", "[parse]") {
  const auto c = kvconf::parse("name = demo\nport=8080\n");
  REQUIRE(c.size() == 2);
  CHECK(c.at("name") == "demo");
  CHECK(c.at("port") == "8080");
}

TEST_CASE("parse skips comments and blank lines", "[parse]") {
  const auto c = kvconf::parse("# a comment\n\n  \nkey = v\n");
  CHECK(c.size() == 1);
}

TEST_CASE("parse errors name the line", "[parse]") {
  SECTION("a line without '='") {
    try {
      kvconf::parse("a = 1\nbroken\n");
      FAIL("no parse_error");
    } catch (const kvconf::parse_error& e) {
      CHECK(e.line() == 2);
    }
  }
  SECTION("an empty key") { CHECK_THROWS_AS(kvconf::parse(" = 3"), kvconf::parse_error); }
}

TEST_CASE("a later key replaces an earlier one", "[parse]") {
  CHECK(kvconf::parse("k = 1\nk = 2").at("k") == "2");
}

#include <cstdlib>
#include <fstream>
#include <sstream>

TEST_CASE("parse reads the sample file", "[parse]") {
  const char* path = std::getenv("KVCONF_SAMPLE");
  REQUIRE(path != nullptr);  // set by the CTest registration
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const auto c = kvconf::parse(text.str());
  CHECK(c.at("name") == "sample");
  CHECK(kvconf::to_int<int>(c.at("retries")) == 3);
}
