// Placeholder until the owning issue lands; replaced wholesale by its implementation.
#include <cstdio>

#include "cli/Commands.h"

namespace greenlight::cli {

int lspCommand(const Args&) {
  std::fputs("greenlight lsp: not built yet\n", stderr);
  return 2;
}

}  // namespace greenlight::cli
