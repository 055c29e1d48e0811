// String helpers (the failing C++ example: countVowels forgets 'u').
#include <string>

int countVowels(const std::string& s) {
  int n = 0;
  for (char c : s) {
    if (c == 'a' || c == 'e' || c == 'i' || c == 'o') ++n;
  }
  return n;
}
