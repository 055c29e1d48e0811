// An example program: prints its positional arguments wrapped at --width columns.
#include <iostream>

#include "cliopts/cliopts.hpp"

int main(int argc, char** argv) {
  cliopts::Parser parser;
  parser.flag("help", 'h', "show this help").flag("verbose", 'v', "print the settings").option("width", 'w', "40", "line width");
  try {
    const auto args = parser.parse(argc, argv);
    if (args.has("help")) {
      std::cout << parser.usage("example");
      return 0;
    }
    const int width = args.get_int("width");
    if (args.count("verbose") > 0) std::cerr << "width=" << width << '\n';
    int column = 0;
    for (const auto& word : args.positional()) {
      if (column > 0 && column + 1 + static_cast<int>(word.size()) > width) {
        std::cout << '\n';
        column = 0;
      }
      std::cout << (column > 0 ? " " : "") << word;
      column += (column > 0 ? 1 : 0) + static_cast<int>(word.size());
    }
    std::cout << '\n';
  } catch (const cliopts::parse_error& e) {
    std::cerr << "example: " << e.what() << '\n' << parser.usage("example");
    return 2;
  }
  return 0;
}
