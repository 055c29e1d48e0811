// The generate/fix feature (features/Generate.cpp): `greenlight.generate` and `greenlight.fix`.
// See the essay at the top of Generate.cpp.
#pragma once

#include <memory>

namespace greenlight::lsp {

class Server;
class TestBoard;

void registerGenerate(Server& server, const std::shared_ptr<TestBoard>& board);

}  // namespace greenlight::lsp
