// Wraps $WRAP_INPUT at the width given as the first argument and checks every line fits;
// reads expected.txt from its working directory when present. Exit 0: all good.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "textwrap/wrap.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const int width = std::atoi(argv[1]);
  if (width <= 0) {
    std::fprintf(stderr, "width must be positive\n");
    return 1;
  }
  const char* input = std::getenv("WRAP_INPUT");
  if (!input) {
    std::fprintf(stderr, "WRAP_INPUT is not set\n");
    return 3;
  }
  const auto lines = textwrap::wrap(input, static_cast<std::size_t>(width));
  for (const auto& l : lines) {
    if (l.size() > static_cast<std::size_t>(width)) {
      std::fprintf(stderr, "line too long: '%s'\n", l.c_str());
      return 1;
    }
  }
  std::ifstream expected("expected_lines.txt");
  std::size_t n = 0;
  if (expected >> n && n != lines.size()) {
    std::fprintf(stderr, "%zu lines, expected %zu\n", lines.size(), n);
    return 1;
  }
  return 0;
}
