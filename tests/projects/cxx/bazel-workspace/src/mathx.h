// Integer helpers: gcd in the header, lcm in src/mathx.cc.
#pragma once

#include <cstdlib>

namespace mathx {

inline long gcd(long a, long b) {
  a = std::labs(a);
  b = std::labs(b);
  while (b != 0) {
    const long r = a % b;
    a = b;
    b = r;
  }
  return a;
}

long lcm(long a, long b);

}  // namespace mathx
