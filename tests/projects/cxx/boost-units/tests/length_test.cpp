#include <boost/test/unit_test.hpp>

#include <stdexcept>

#include "units/convert.hpp"

BOOST_AUTO_TEST_SUITE(length)

BOOST_AUTO_TEST_CASE(inches) { BOOST_CHECK_CLOSE(units::inches_to_mm(2.0), 50.8, 1e-9); }

BOOST_AUTO_TEST_CASE(feet) { BOOST_CHECK_CLOSE(units::feet_to_mm(1.0), 304.8, 1e-9); }

BOOST_AUTO_TEST_CASE(parse_units) {
  BOOST_CHECK_EQUAL(units::parse_length("15mm"), 15.0);
  BOOST_CHECK_CLOSE(units::parse_length("1ft"), 304.8, 1e-9);
}

BOOST_AUTO_TEST_CASE(parse_rejects_unknown) { BOOST_CHECK_THROW(units::parse_length("3yd"), std::invalid_argument); }

BOOST_AUTO_TEST_SUITE_END()
