// `greenlight.cancel` [] or [{uri}]: stops every test run, generation and fix in flight (or
// those of one document). Each feature registered how to cancel its own work on the TestBoard.
// Result: {"cancelled": N}.
#include "lsp/Server.h"
#include "lsp/features/Features.h"
#include "lsp/features/TestBoard.h"
#include "protocol/Uri.h"

#include <filesystem>

namespace greenlight::lsp {

void registerCancel(Server& server, const std::shared_ptr<TestBoard>& board) {
  server.onCommand("greenlight.cancel", [board](const std::vector<protocol::Json>& args, RequestContext ctx) {
    std::optional<std::string> path;
    if (!args.empty() && !args[0].is_null()) {
      protocol::JsonPath root;
      protocol::JsonPath arg = root.index(0);
      protocol::requireObject(args[0], arg);
      std::string uri;
      protocol::requiredField(args[0], "uri", uri, arg);
      std::string error;
      auto p = protocol::pathFromUri(uri, &error);
      if (!p) throw protocol::JsonError(arg.field("uri"), error);
      path = std::filesystem::path(*p).lexically_normal().string();
    }
    std::size_t n = board->cancel(path, "cancelled by greenlight.cancel");
    ctx.reply.result(protocol::Json{{"cancelled", n}});
  });
}

}  // namespace greenlight::lsp
