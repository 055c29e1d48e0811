#include "src/mathx.h"

namespace mathx {

long lcm(long a, long b) {
  if (a == 0 || b == 0) return 0;
  return std::labs(a / gcd(a, b) * b);
}

}  // namespace mathx
