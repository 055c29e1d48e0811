// The list of features (one file each under server/lsp/features/). Adding a feature: write
// features/MyFeature.cpp with `void registerMyFeature(Server&)`, declare it below and call it
// from registerAllFeatures() in Features.cpp. (Registration is explicit because gl_lsp is a
// static library: a self-registering object file that nothing references would not be linked.)
#pragma once

#include <memory>

namespace greenlight::lsp {

class Server;
class TargetCache;
class TestBoard;

void registerCodeActions(Server& server);  // features/CodeActions.cpp
void registerGenerateActions(Server& server, const std::shared_ptr<TargetCache>& cache);  // GenerateActions.cpp
void registerCodeLens(Server& server, const std::shared_ptr<TargetCache>& cache,
                      const std::shared_ptr<TestBoard>& board);  // CodeLens.cpp
void registerCancel(Server& server, const std::shared_ptr<TestBoard>& board);  // Cancel.cpp
void registerListTests(Server& server);  // ListTests.cpp: greenlight/listTests
void registerListWorkspaceTests(Server& server);  // ListWorkspaceTests.cpp: greenlight/listWorkspaceTests

// Registers every feature on `server`; call before Server::start().
void registerAllFeatures(Server& server);

}  // namespace greenlight::lsp
