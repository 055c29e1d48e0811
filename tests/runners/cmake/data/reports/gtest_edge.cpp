#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>
#include <cstring>

int divide(int a, int b) { if (b == 0) throw std::domain_error("division by zero"); return a / b; }

TEST(Edge, Passes) { EXPECT_EQ(divide(6, 3), 2); }
TEST(Edge, StrEq) { EXPECT_STREQ(std::string("abc").c_str(), "abd"); }
TEST(Edge, BoolFalse) { EXPECT_TRUE(std::string("x").empty()) << "should be empty"; }
TEST(Edge, LessThan) { int n = 7; EXPECT_LT(n, 3); }
TEST(Edge, Throws) { EXPECT_EQ(divide(1, 0), 0); }
TEST(Edge, ThrowsNothing) { EXPECT_THROW(divide(4, 2), std::domain_error); }
TEST(Edge, TwoFailures) { EXPECT_EQ(1 + 1, 3); EXPECT_EQ(std::string("a"), std::string("b")); }
TEST(Edge, SkippedWithReason) { GTEST_SKIP() << "needs a network"; }
TEST(Edge, PrintsThenFails) { std::cout << "some output\n"; ADD_FAILURE() << "custom failure"; }
class Fixture : public ::testing::Test { protected: void SetUp() override { ASSERT_EQ(setup_value(), 1) << "setup"; } static int setup_value() { return 2; } };
TEST_F(Fixture, FailsInSetUp) { SUCCEED(); }
TEST(Edge, DISABLED_Off) {}
TEST(Edge, Segfault) { volatile int* p = nullptr; std::printf("before crash\n"); std::fflush(stdout); *p = 1; }
TEST(Edge, AfterCrash) { EXPECT_EQ(1, 1); }
