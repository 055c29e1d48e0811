#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
int divide(int a, int b) { if (b == 0) throw std::domain_error("division by zero"); return a / b; }
TEST_CASE("passes") { CHECK(divide(6, 3) == 2); }
TEST_CASE("long strings") { std::string a(30, 'a'); REQUIRE(a + "tail-of-a-long-string-xxxxxxxxxxxxxxxxxxxxxx" == std::string("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")); }
TEST_CASE("with info") { int n = 3; INFO("n is " << n); CAPTURE(n); CHECK(n * 2 == 7); }
TEST_CASE("throws outside a check") { int r = divide(1, 0); CHECK(r == 0); }
TEST_CASE("nested sections") {
  SECTION("outer") {
    SECTION("inner ok") { CHECK(1 == 1); }
    SECTION("inner bad") { CHECK(divide(9, 3) == 4); }
  }
}
TEST_CASE("may fail", "[!mayfail]") { CHECK(1 == 2); }
TEST_CASE("should fail", "[!shouldfail]") { CHECK(1 == 2); }
TEST_CASE("hidden", "[.]") { CHECK(false); }
TEST_CASE("prints") { std::cout << "to stdout\n"; std::cerr << "to stderr\n"; CHECK(1 == 0); }
TEST_CASE("segfault") { volatile int* p = nullptr; *p = 1; }
TEST_CASE("after segfault") { CHECK(true); }
