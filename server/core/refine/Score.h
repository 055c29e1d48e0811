// Best-of-N (DESIGN.md "Rounds and candidates"): a candidate that passes every test beats all
// others, and among those one whose new lines all ran (issue 35: the tests judged all of it)
// beats one with lines no test ran; else more tests passed, then fewer errors (crashes, timeouts, compile failures count as
// errors), then shorter code. Candidates that were never run (rejected, no code) rank last.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstddef>

namespace greenlight::core::refine {

struct Score {
  bool ran = false;          // the tests were run on it
  bool allPassed = false;    // ran, at least one test, none failed or errored
  int passed = 0, failed = 0, errors = 0;
  std::size_t length = 0;    // bytes of code
  bool allRun = true;        // every new line ran (or nothing was measured)
};

// True when `a` is strictly better than `b`.
inline bool better(const Score& a, const Score& b) {
  if (a.ran != b.ran) return a.ran;
  if (a.allPassed != b.allPassed) return a.allPassed;
  if (a.allPassed && a.allRun != b.allRun) return a.allRun;
  if (a.passed != b.passed) return a.passed > b.passed;
  if (a.errors != b.errors) return a.errors < b.errors;
  return a.length < b.length;
}

}  // namespace greenlight::core::refine
