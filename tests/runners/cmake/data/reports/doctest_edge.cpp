#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <stdexcept>
#include <string>
#include <iostream>
int divide(int a, int b) { if (b == 0) throw std::domain_error("division by zero"); return a / b; }
TEST_CASE("passes") { CHECK(divide(6, 3) == 2); }
TEST_CASE("require stops") { REQUIRE(divide(7, 2) == 4); CHECK(false); }
TEST_CASE("with info") { int n = 3; INFO("n is ", n); CAPTURE(n); CHECK(n * 2 == 7); }
TEST_CASE("throws outside a check") { int r = divide(1, 0); CHECK(r == 0); }
TEST_CASE("check throws") { CHECK(divide(1, 0) == 0); }
TEST_CASE("strings") { std::string s = "abc"; CHECK(s == "abd"); CHECK_EQ(s.size(), 4); }
TEST_CASE("approx") { CHECK(0.1 + 0.2 == doctest::Approx(0.4)); }
TEST_CASE("nested subcases") {
  SUBCASE("outer") {
    SUBCASE("inner ok") { CHECK(1 == 1); }
    SUBCASE("inner bad") { CHECK(divide(9, 3) == 4); }
  }
}
TEST_CASE("may fail" * doctest::may_fail()) { CHECK(1 == 2); }
TEST_CASE("should fail" * doctest::should_fail()) { CHECK(1 == 2); }
TEST_CASE("skipped" * doctest::skip()) { CHECK(false); }
TEST_CASE("message and fail") { MESSAGE("a message"); FAIL_CHECK("custom failure"); }
TEST_CASE("prints") { std::cout << "to stdout\n"; CHECK(1 == 0); }
TEST_CASE("segfault") { volatile int* p = nullptr; *p = 1; }
TEST_CASE("after segfault") { CHECK(true); }
