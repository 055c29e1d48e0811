#include "lsp/features/Features.h"

#include "lsp/Server.h"
#include "lsp/features/RunTests.h"

namespace greenlight::lsp {

void registerAllFeatures(Server& server) {
  registerCodeActions(server);
  registerRunTests(server);
}

}  // namespace greenlight::lsp
