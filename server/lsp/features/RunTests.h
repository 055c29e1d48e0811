// The run-tests feature (features/RunTests.cpp): `greenlight.runTests`, `greenlight.cancel`,
// runOnSave, and the diagnostics of test runs. See the essay at the top of RunTests.cpp.
#pragma once

#include <memory>

namespace greenlight::lsp {

class Server;
class TestBoard;

// Registers greenlight.runTests and the run-on-save hooks on `server` (before Server::start()).
void registerRunTests(Server& server, const std::shared_ptr<TestBoard>& board);

}  // namespace greenlight::lsp
