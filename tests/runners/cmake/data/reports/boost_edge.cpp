// Boost.Test 1.81 edge cases for tests/runners/cmake/BoostTestReportTest.cpp: built with
// g++ -g -DBOOST_TEST_DYN_LINK -o t boost_edge.cpp -lboost_unit_test_framework (the file named t.cpp),
// boost-edge.xml = ./t --log_format=XML --log_level=all --report_level=no,
// boost-filtered.xml = the same with --run_test='arith/adds:tmpl*'. (The logs' line numbers are those
// of the file before these 5 comment lines.)
#define BOOST_TEST_MODULE calc
#include <boost/test/unit_test.hpp>
#include <boost/mpl/list.hpp>
#include <stdexcept>
#include <iostream>
int add(int a, int b) { return a + b + (a == 2); }
BOOST_AUTO_TEST_SUITE(arith)
BOOST_AUTO_TEST_CASE(adds) { BOOST_CHECK_EQUAL(add(2, 2), 4); BOOST_TEST(add(1,1) == 2); }
BOOST_AUTO_TEST_CASE(adds_more) { std::cout << "hello out\n"; BOOST_TEST(add(2, 3) == 5); BOOST_REQUIRE_EQUAL(add(2,2), 4); }
BOOST_AUTO_TEST_CASE(throws) { throw std::runtime_error("boom"); }
BOOST_AUTO_TEST_CASE(skipme, * boost::unit_test::disabled()) { BOOST_TEST(false); }
BOOST_AUTO_TEST_SUITE_END()
typedef boost::mpl::list<int, long> types;
BOOST_AUTO_TEST_CASE_TEMPLATE(tmpl, T, types) { BOOST_TEST(sizeof(T) >= 4); }
BOOST_AUTO_TEST_CASE(closeness) { BOOST_CHECK_CLOSE(1.0, 1.1, 0.001); }
BOOST_AUTO_TEST_CASE(crash) { int* p = nullptr; *p = 1; }
