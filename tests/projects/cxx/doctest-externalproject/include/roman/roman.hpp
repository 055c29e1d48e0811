#pragma once
// Roman numerals for 1..3999.
#include <stdexcept>
#include <string>

namespace roman {

inline std::string to_roman(int n) {
  if (n < 1 || n > 3999) throw std::out_of_range("roman numerals cover 1..3999");
  static const int values[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
  static const char* symbols[] = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
  std::string out;
  for (int i = 0; i < 13; ++i) {
    while (n >= values[i]) {
      out += symbols[i];
      n -= values[i];
    }
  }
  return out;
}

inline int value_of(char c) {
  switch (c) {
    case 'I': return 1;
    case 'V': return 5;
    case 'X': return 10;
    case 'L': return 50;
    case 'C': return 100;
    case 'D': return 500;
    case 'M': return 1000;
  }
  throw std::invalid_argument(std::string("not a roman digit: ") + c);
}

inline int from_roman(const std::string& s) {
  int total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const int v = value_of(s[i]);
    if (i + 1 < s.size() && v < value_of(s[i + 1])) total -= v;
    else total += v;
  }
  return total;
}

}  // namespace roman
