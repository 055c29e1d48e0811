#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "units/convert.hpp"

BOOST_AUTO_TEST_SUITE(temperature)

BOOST_AUTO_TEST_CASE(boiling) { BOOST_CHECK_EQUAL(units::celsius_to_fahrenheit(100.0), 212.0); }

BOOST_AUTO_TEST_CASE(round_trip) { BOOST_TEST(units::fahrenheit_to_celsius(units::celsius_to_fahrenheit(37.0)) == 37.0); }

#if UNITS_GAS_MARK
BOOST_AUTO_TEST_CASE(gas_marks) {
  BOOST_CHECK_EQUAL(units::gas_mark(140), 1);
  BOOST_CHECK_EQUAL(units::gas_mark(180), 4);
  BOOST_CHECK_EQUAL(units::gas_mark(220), 7);
}

BOOST_AUTO_TEST_CASE(too_cool_for_gas, *boost::unit_test::disabled()) { BOOST_CHECK_EQUAL(units::gas_mark(100), 0); }
#endif

BOOST_AUTO_TEST_SUITE_END()

typedef boost::mpl::list<float, double> floats;
BOOST_AUTO_TEST_CASE_TEMPLATE(freezing, T, floats) { BOOST_TEST(units::celsius_to_fahrenheit(T(0)) == 32.0); }
