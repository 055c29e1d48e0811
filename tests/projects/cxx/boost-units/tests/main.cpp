#define BOOST_TEST_MODULE units
#include <boost/test/unit_test.hpp>
