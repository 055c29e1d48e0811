#include <cassert>

#include "mathutil.h"

int main() {
  assert(factorial(0) == 1);
  assert(factorial(5) == 120);
  assert(isPalindrome(12321));
  assert(!isPalindrome(123));
  return 0;
}
