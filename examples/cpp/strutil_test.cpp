#include <cassert>
#include <string>

int countVowels(const std::string& s);

int main() {
  assert(countVowels("banana") == 3);
  assert(countVowels("tutu") == 2);
  return 0;
}
