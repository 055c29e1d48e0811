#include "mathutil.h"

long factorial(int n) {
  long r = 1;
  for (int i = 2; i <= n; ++i) r *= i;
  return r;
}

bool isPalindrome(long n) {
  if (n < 0) return false;
  long reversed = 0, rest = n;
  while (rest > 0) {
    reversed = reversed * 10 + rest % 10;
    rest /= 10;
  }
  return reversed == n;
}
