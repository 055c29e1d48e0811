// csvtool: prints each field of each stdin line on its own line.
#include <iostream>
#include <string>

#include "csv.hpp"

int main() {
  for (std::string line; std::getline(std::cin, line);)
    for (const auto& f : csv::split(line)) std::cout << f << "\n";
}
