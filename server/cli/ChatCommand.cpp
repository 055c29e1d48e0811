// Placeholder until the owning issue lands; replaced wholesale by its implementation.
#include <cstdio>

#include "cli/Commands.h"

namespace greenlight::cli {

int chatCommand(const Args&) {
  std::fputs("greenlight chat: not built yet\n", stderr);
  return 2;
}

}  // namespace greenlight::cli
