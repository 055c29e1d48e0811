// Placeholder until the owning issue lands; replaced wholesale by its implementation.
#include <cstdio>

#include "cli/Commands.h"

namespace greenlight::cli {

int sandboxCommand(const Args&) {
  std::fputs("greenlight sandbox: not built yet\n", stderr);
  return 2;
}

}  // namespace greenlight::cli
