#include "lsp/features/Features.h"

#include "lsp/Server.h"
#include "lsp/features/Generate.h"
#include "lsp/features/RunTests.h"
#include "lsp/features/TargetCache.h"
#include "lsp/features/TestBoard.h"

namespace greenlight::lsp {

void registerAllFeatures(Server& server) {
  // Shared, loop-only state: the diagnostics and results of test runs (RunTests, Generate,
  // CodeLens, Cancel) and the per-document target index (code actions, code lenses).
  auto board = std::make_shared<TestBoard>(server);
  auto targets = std::make_shared<TargetCache>();
  registerCodeActions(server);
  registerGenerateActions(server, targets);
  registerRunTests(server, board);
  registerGenerate(server, board);
  registerCancel(server, board);
  registerCodeLens(server, targets, board);
  registerListTests(server);
  registerListWorkspaceTests(server);
}

}  // namespace greenlight::lsp
