// wordcount [N]: the N (default 10) most frequent content words of standard input.
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>

#include "textstat/stats.h"
#include "textstat/tokenize.h"

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? static_cast<std::size_t>(std::strtoul(argv[1], nullptr, 10)) : 10;
  const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  for (const auto& [word, count] : textstat::top_n(textstat::frequencies(textstat::content_words(text)), n))
    std::cout << count << ' ' << word << '\n';
  return 0;
}
