#include <catch2/catch.hpp>

#include "protocol/Uri.h"

using namespace greenlight::protocol;

TEST_CASE("paths become percent-encoded file URIs") {
  REQUIRE(uriFromPath("/home/user/a.py") == "file:///home/user/a.py");
  REQUIRE(uriFromPath("/a b/c#d?e%f") == "file:///a%20b/c%23d%3Fe%25f");
  REQUIRE(uriFromPath("/\xC3\xBC.py") == "file:///%C3%BC.py");
}

TEST_CASE("file URIs become paths") {
  REQUIRE(pathFromUri("file:///home/user/a.py") == "/home/user/a.py");
  REQUIRE(pathFromUri("file:///a%20b/%c3%bc.py") == "/a b/\xC3\xBC.py");
  REQUIRE(pathFromUri("FILE://localhost/x") == "/x");
  REQUIRE(pathFromUri("file:///c%3A/x") == "/c:/x");
}

TEST_CASE("round trip through URI and back preserves odd paths") {
  for (std::string p : {"/tmp/with space/and%percent", "/tmp/emoji\xF0\x9F\x98\x80/\xE4\xB8\xAD.py", "/a+b/c=d;e"}) {
    REQUIRE(pathFromUri(uriFromPath(p)) == p);
  }
}

TEST_CASE("bad URIs are rejected with a reason") {
  std::string error;
  REQUIRE_FALSE(pathFromUri("untitled:Untitled-1", &error));
  REQUIRE_THAT(error, Catch::Contains("not a file: URI"));
  REQUIRE_FALSE(pathFromUri("file://server/share/x", &error));
  REQUIRE_THAT(error, Catch::Contains("remote host"));
  REQUIRE_FALSE(pathFromUri("file:///a%zz", &error));
  REQUIRE_THAT(error, Catch::Contains("percent-escape"));
  REQUIRE_FALSE(pathFromUri("file:///a%2", &error));
  REQUIRE_FALSE(pathFromUri("file:///a%00b", &error));
  REQUIRE_THAT(error, Catch::Contains("NUL"));
  REQUIRE_FALSE(pathFromUri("nocolon", &error));
}
