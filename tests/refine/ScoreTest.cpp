// Best-of-N ordering (DESIGN.md "Rounds and candidates"): all pass; else most tests passed,
// then fewest errors, then shortest; never-run candidates last.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "core/refine/Score.h"

using namespace greenlight::core::refine;

namespace {

Score ran(int passed, int failed, int errors, std::size_t length) {
  Score s;
  s.ran = true;
  s.passed = passed;
  s.failed = failed;
  s.errors = errors;
  s.allPassed = passed > 0 && failed == 0 && errors == 0;
  s.length = length;
  return s;
}

Score notRun(std::size_t length) {
  Score s;
  s.length = length;
  return s;
}

}  // namespace

TEST_CASE("score: each rule decides in its order", "[refine][score]") {
  // All pass beats more tests passed (a longer all-pass run beats nothing).
  CHECK(better(ran(3, 0, 0, 900), ran(6, 1, 0, 10)));
  // More passed beats fewer errors and shorter code.
  CHECK(better(ran(5, 0, 2, 900), ran(4, 3, 0, 10)));
  // Equal passed: fewer errors wins, whatever the length.
  CHECK(better(ran(4, 3, 0, 900), ran(4, 1, 2, 10)));
  // Equal passed and errors: shorter wins.
  CHECK(better(ran(4, 3, 0, 10), ran(4, 3, 0, 11)));
  // Anything that ran beats what never ran (rejected, no code), even with 0 passed.
  CHECK(better(ran(0, 0, 5, 9000), notRun(1)));
  CHECK(better(notRun(1), notRun(2)));
}

TEST_CASE("score: a strict weak order (irreflexive, asymmetric), sorting picks the best", "[refine][score]") {
  std::vector<Score> all = {notRun(50), ran(2, 5, 0, 100), ran(7, 0, 0, 300), ran(2, 3, 2, 80),
                            ran(2, 5, 0, 90), ran(0, 0, 1, 10), ran(7, 0, 0, 200), notRun(5)};
  for (const auto& a : all) {
    CHECK_FALSE(better(a, a));
    for (const auto& b : all) CHECK_FALSE((better(a, b) && better(b, a)));
  }
  std::sort(all.begin(), all.end(), better);
  CHECK(all[0].allPassed);
  CHECK(all[0].length == 200);
  CHECK(all[1].length == 300);
  CHECK((all[2].passed == 2 && all[2].errors == 0 && all[2].length == 90));
  CHECK((all[3].passed == 2 && all[3].errors == 0 && all[3].length == 100));
  CHECK((all[4].passed == 2 && all[4].errors == 2));
  CHECK(all[5].passed == 0);
  CHECK((!all[6].ran && all[6].length == 5));
  CHECK((!all[7].ran && all[7].length == 50));
}

TEST_CASE("score: among candidates that pass, the one whose new lines all ran wins, whatever its length",
          "[refine][score][coverage]") {
  Score full = ran(3, 0, 0, 900), gappy = ran(3, 0, 0, 10);
  gappy.allRun = false;
  CHECK(better(full, gappy));
  CHECK_FALSE(better(gappy, full));
  // Coverage never lifts a failing candidate over a passing one, nor decides between failing ones.
  Score failingFull = ran(2, 1, 0, 900);
  CHECK(better(gappy, failingFull));
  Score failingGappy = ran(2, 1, 0, 10);
  failingGappy.allRun = false;
  CHECK(better(failingGappy, failingFull));  // shorter: coverage is not a rule there
}
