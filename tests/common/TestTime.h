// Bounds on the waits of a test. A bound is never what a test checks (DEVELOPING.md: assert
// outcomes, never timings): it only ends a wait for an event that did not come, so it can be
// generous. Sanitizer builds run several times slower and CI shares two cores with other jobs,
// so every bound goes through scaled():
//   GL_TEST_TIME_SCALE          compile definition, 4 when GREENLIGHT_SANITIZE is on (tests/CMakeLists.txt)
//   GREENLIGHT_TEST_TIME_SCALE  environment, a further factor for an unusually slow machine
#pragma once

#include <chrono>
#include <cstdlib>

#ifndef GL_TEST_TIME_SCALE
#define GL_TEST_TIME_SCALE 1
#endif

namespace gltest {

inline double timeScale() {
  static const double scale = [] {
    double s = GL_TEST_TIME_SCALE;
    if (const char* env = std::getenv("GREENLIGHT_TEST_TIME_SCALE")) {
      double e = std::atof(env);
      if (e >= 1) s *= e;
    }
    return s;
  }();
  return scale;
}

template <class Rep, class Period>
std::chrono::milliseconds scaled(std::chrono::duration<Rep, Period> bound) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(bound);
  return std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(static_cast<double>(ms.count()) * timeScale()));
}

}  // namespace gltest
