// `greenlight/listWorkspaceTests` (README "The language server: commands and test views"): the
// tests of the whole workspace, for the editors' test views before any file is opened, as the
// Python and Jest extensions show them:
//
//   params {"folder"?: U, "uris"?: [U]}
//   result {"items": [...], "truncated": bool}
//
// No params: the workspace folder. `folder`: that folder (one the previous answer left
// unresolved, as the user expands it). `uris`: changed paths (file watcher events): each test
// file is listed again, a directory walked; a path that is gone or holds no tests lists nothing,
// which tells the client to drop what it showed there.
//
// Items are greenlight/listTests's ({"id", "label", "kind", "uri", "range", "parent"}, same ids)
// under folder items {"id": "tests/unit/", "label": "unit", "kind": "folder", "uri", "parent",
// "resolved"?}: a file's parent is its folder (null in the root). `resolved: false`: the walk's
// budget (core/testing/WorkspaceTests.h) did not reach it; ask for it with `folder`. A file item
// with `resolved: false` was listed without its tests (the time budget ran out): ask listTests.
// `resolved: true`: its content is complete in this answer. Absent: a folder only passed
// through on the way to a changed file. `truncated`: some folder is unresolved or a folder had
// more than the budget.
//
// Threading: params decoded on the loop; the walk runs on the pool, which replies. Reads files
// and runs nothing.
#include <filesystem>
#include <set>

#include "core/testing/WorkspaceTests.h"
#include "lsp/Server.h"
#include "lsp/features/Features.h"
#include "lsp/features/TestItems.h"
#include "protocol/Uri.h"

namespace greenlight::lsp {

namespace fs = std::filesystem;

// The URIs decoded to paths: a URI that is not a file: URI is a -32602 naming the field.
struct ListWorkspaceTestsParams {
  std::optional<std::string> folder;
  std::vector<std::string> uris;
};

static std::string pathOf(const std::string& uri, const protocol::JsonPath& where) {
  std::string error;
  auto path = protocol::pathFromUri(uri, &error);
  if (!path) throw protocol::JsonError(where, "not a file URI: " + error);
  return fs::path(*path).lexically_normal().string();
}

void fromJson(const Json& j, ListWorkspaceTestsParams& out, const protocol::JsonPath& path) {
  if (j.is_null()) return;  // no params: the workspace folder
  protocol::requireObject(j, path);
  protocol::optionalField(j, "folder", out.folder, path);
  protocol::optionalField(j, "uris", out.uris, path);
  if (out.folder) out.folder = pathOf(*out.folder, path.field("folder"));
  for (std::size_t i = 0; i < out.uris.size(); ++i) out.uris[i] = pathOf(out.uris[i], path.field("uris").index(i));
}

namespace {

namespace ct = core::testing;

Json listingJson(const ct::WorkspaceTests& listing, const ct::OverlayProvider& overlay, protocol::PositionEncoding enc) {
  Json items = Json::array();
  for (const auto& f : listing.folders) {
    Json item{{"id", f.id},
              {"label", f.label},
              {"kind", "folder"},
              {"uri", protocol::uriFromPath(f.path)},
              {"parent", f.parent.empty() ? Json() : Json(f.parent)}};
    if (f.state != ct::FolderState::Passed) item["resolved"] = f.state == ct::FolderState::Walked;
    items.push_back(std::move(item));
  }
  const std::set<std::string> unlisted(listing.unlistedFiles.begin(), listing.unlistedFiles.end());
  for (auto& item : testItemsJson(listing.nodes, "", "", overlay, enc)) {
    if (unlisted.count(item["id"].get<std::string>())) item["resolved"] = false;
    items.push_back(std::move(item));
  }
  return Json{{"items", std::move(items)}, {"truncated", listing.truncated}};
}

}  // namespace

void registerListWorkspaceTests(Server& server) {
  server.onRequest<ListWorkspaceTestsParams>(
      "greenlight/listWorkspaceTests", [&server](const ListWorkspaceTestsParams& params, RequestContext ctx) {
        const auto& root = server.workspaceRoot();
        if (!root) {
          // No workspace folder (a single file opened): nothing to walk.
          ctx.reply.result(Json{{"items", Json::array()}, {"truncated", false}});
          return;
        }
        std::vector<std::string> dirs, paths;
        if (params.folder) dirs.push_back(*params.folder);
        paths = params.uris;
        if (!params.folder && params.uris.empty()) dirs.push_back(*root);
        auto enc = server.positionEncoding();
        core::DocumentStore* documents = &server.documents();
        bool posted = server.threadPool().post([=, root = *root]() mutable {
          if (ctx.cancel.isCancelled()) return;
          ct::OverlayProvider overlay = [documents](const std::string& p) { return documents->textForPath(p); };
          try {
            std::vector<std::string> files;
            for (const auto& p : paths) {
              std::error_code ec;
              (fs::is_directory(p, ec) ? dirs : files).push_back(p);
            }
            auto listing = ct::listWorkspaceTests(root, dirs, files, overlay, {}, [&ctx] { return ctx.cancel.isCancelled(); });
            ctx.reply.result(listingJson(listing, overlay, enc));
          } catch (const std::exception& e) {
            ctx.reply.error(protocol::ErrorCode::InternalError, std::string("greenlight/listWorkspaceTests: ") + e.what());
          }
        });
        if (!posted) ctx.reply.error(protocol::ErrorCode::RequestCancelled, "the server is shutting down");
      });
}

}  // namespace greenlight::lsp
