// Code actions greenlight offers everywhere: "Run nearby tests in sandbox".
//
// Cheap by contract (DESIGN.md "LSP surface"): listing actions runs no process and no LLM; it
// only builds the action that invokes `greenlight.runTests` with {uri, position} (the position
// clamped to the open document, when it is open). The command
// itself is registered by the run-tests feature; until it is, executing it answers -32602.
//
// The action is complete when listed (command included) and carries
// data = {"greenlight": {"provider": "runTests", "uri", "position"}} so codeAction/resolve can
// rebuild it from data alone: resolve is idempotent and accepts every action listed here.
#include "lsp/Server.h"
#include "lsp/features/Features.h"

namespace greenlight::lsp {
namespace {

constexpr const char* kProvider = "runTests";
constexpr const char* kKind = "source.greenlight.runTests";
constexpr const char* kCommand = "greenlight.runTests";
constexpr const char* kTitle = "Run nearby tests in sandbox";

protocol::CodeAction makeAction(const std::string& uri, const protocol::Position& position) {
  Json args{{"uri", uri}, {"position", position}};
  protocol::CodeAction action;
  action.title = kTitle;
  action.kind = kKind;
  action.command = protocol::Command{kTitle, kCommand, {args}};
  action.data = Json{{"greenlight", {{"provider", kProvider}, {"uri", uri}, {"position", position}}}};
  return action;
}

}  // namespace

void registerCodeActions(Server& server) {
  server.declareCommand(kCommand);
  server.addCodeActionProvider(
      kProvider, {kKind},
      [&server](const protocol::CodeActionParams& params, std::vector<protocol::CodeAction>& out) {
        // Normalise the position against the open document (clamped as the spec says), so the
        // command carries a position that exists. Two O(line length) lookups: still cheap.
        const std::string& uri = params.textDocument.uri;
        protocol::Position position = params.range.start;
        auto enc = server.positionEncoding();
        if (auto offset = server.documents().offsetAt(uri, position, enc))
          position = server.documents().positionAt(uri, *offset, enc).value_or(position);
        out.push_back(makeAction(uri, position));
      },
      [](protocol::CodeAction action) {
        // Rebuild from data: the only input a client must round-trip (some drop `command` when
        // they advertise resolveSupport for it).
        const Json& g = action.data["greenlight"];
        std::string uri;
        protocol::Position position;
        protocol::JsonPath root;
        protocol::JsonPath data = root.field("data");
        protocol::JsonPath gp = data.field("greenlight");
        protocol::requireObject(g, gp);
        protocol::requiredField(g, "uri", uri, gp);
        protocol::requiredField(g, "position", position, gp);
        return makeAction(uri, position);
      });
}

}  // namespace greenlight::lsp
