// `greenlight/listTests` (DESIGN.md "LSP surface", README "Test views"): the tests near a
// document, as an editor's test view shows them:
//
//   params {"textDocument": {"uri": U}}
//   result {"uri": U, "items": [{"id", "label", "kind": "file"|"group"|"test"|"case", "uri",
//                                "range", "parent": id | null}]}
//
// The same discovery as greenlight.runTests (a source file: its test files, its own tests and
// doctests; a test file: itself), grouped file -> class / describe / suite -> test, in file
// order, parents before children. Cheap: discovery reads files (the open documents' text first)
// and runs nothing. Ids come from core/testing/TestIds.h, which greenlight/testResults uses too.
//
// Threading: the params are decoded on the loop; discovery runs on the pool, which replies.
#include <filesystem>

#include "core/testing/Discovery.h"
#include "core/testing/TestIds.h"
#include "core/testing/adapters/TestJob.h"
#include "lsp/Server.h"
#include "lsp/features/Features.h"
#include "lsp/features/RunTestsSourceFor.h"
#include "lsp/features/TestFeed.h"
#include "lsp/features/TestItems.h"
#include "protocol/Uri.h"

namespace greenlight::lsp {

struct ListTestsParams {
  protocol::TextDocumentIdentifier textDocument;
};

void fromJson(const Json& j, ListTestsParams& out, const protocol::JsonPath& path) {
  protocol::requireObject(j, path);
  protocol::requiredField(j, "textDocument", out.textDocument, path);
}

namespace {

namespace ct = core::testing;
namespace fs = std::filesystem;

std::string normalise(const std::string& path) { return fs::path(path).lexically_normal().string(); }

}  // namespace

static Json listTestsFor(const std::string& uri, const std::string& path, const std::optional<std::string>& folder,
                  const core::Config& config, const ct::OverlayProvider& overlay, protocol::PositionEncoding enc) {
  Json items = Json::array();
  auto exists = [&overlay](const std::string& p) {
    std::error_code ec;
    return (overlay && overlay(p).has_value()) || fs::is_regular_file(p, ec);
  };
  const std::string key = sourceFor(path, exists).value_or(path);
  const std::string root = testIdRoot(folder, key);
  ct::DiscoveryRequest dr;
  dr.path = path;
  dr.workspaceRoot = root;
  dr.config = &config;
  dr.overlay = overlay;
  std::string error;
  auto plan = ct::discoverTests(dr, &error);
  if (!plan || plan->empty()) return Json{{"uri", uri}, {"items", items}};
  items = testItemsJson(ct::testTree(*plan, overlay), path, uri, overlay, enc);
  return Json{{"uri", uri}, {"items", std::move(items)}};
}

void registerListTests(Server& server) {
  server.onRequest<ListTestsParams>("greenlight/listTests", [&server](const ListTestsParams& params, RequestContext ctx) {
    const std::string uri = params.textDocument.uri;
    std::string error;
    auto path = protocol::pathFromUri(uri, &error);
    if (!path) {
      // Not a file (untitled:, a diff view): no tests, not an error.
      ctx.reply.result(Json{{"uri", uri}, {"items", Json::array()}});
      return;
    }
    core::Config config = server.config();
    auto folder = server.workspaceRoot();
    auto enc = server.positionEncoding();
    core::DocumentStore* documents = &server.documents();
    bool posted = server.threadPool().post([=, file = normalise(*path)]() mutable {
      if (ctx.cancel.isCancelled()) return;
      ct::OverlayProvider overlay = [documents](const std::string& p) { return documents->textForPath(p); };
      try {
        ctx.reply.result(listTestsFor(uri, file, folder, config, overlay, enc));
      } catch (const std::exception& e) {
        ctx.reply.error(protocol::ErrorCode::InternalError, std::string("greenlight/listTests: ") + e.what());
      }
    });
    if (!posted) ctx.reply.error(protocol::ErrorCode::RequestCancelled, "the server is shutting down");
  });
}

}  // namespace greenlight::lsp
