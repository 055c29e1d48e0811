// The run-tests feature (features/RunTests.cpp): `greenlight.runTests`, `greenlight.cancel`,
// runOnSave, and the diagnostics of test runs. See the essay at the top of RunTests.cpp.
#pragma once

namespace greenlight::lsp {

class Server;

// Registers the commands and hooks on `server` (before Server::start()).
void registerRunTests(Server& server);

}  // namespace greenlight::lsp
