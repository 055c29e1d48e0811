#include "lsp/features/Features.h"

#include "lsp/Server.h"

namespace greenlight::lsp {

void registerAllFeatures(Server& server) {
  registerCodeActions(server);
}

}  // namespace greenlight::lsp
