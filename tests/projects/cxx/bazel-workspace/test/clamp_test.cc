#include "doctest.h"
#include "src/clamp.h"

TEST_CASE("clamp below") { CHECK(mathx::clamp(-3, 0, 10) == 0); }

TEST_CASE("clamp above") { CHECK(mathx::clamp(15, 0, 10) == 10); }

TEST_CASE("clamp inside") { CHECK(mathx::clamp(4, 0, 10) == 4); }
