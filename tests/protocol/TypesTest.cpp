#include <catch2/catch.hpp>

#include "protocol/CodeAction.h"
#include "protocol/Diagnostics.h"
#include "protocol/Lifecycle.h"
#include "protocol/TextSync.h"
#include "protocol/Window.h"
#include "protocol/Workspace.h"

using namespace greenlight::protocol;

namespace {

template <typename T>
std::string errorOf(const char* text) {
  std::string error;
  auto v = tryParse<T>(Json::parse(text), &error);
  REQUIRE_FALSE(v);
  return error;
}

}  // namespace

TEST_CASE("decoding errors name the JSON path") {
  CHECK(errorOf<CodeActionParams>(
            R"({"textDocument":{"uri":"file:///a"},"range":{"start":{"line":"x","character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}})") ==
        "range.start.line: expected a non-negative integer");
  CHECK(errorOf<DidChangeTextDocumentParams>(
            R"({"textDocument":{"uri":"file:///a","version":2},"contentChanges":[{"text":"a"},{"range":{"start":{"line":0,"character":-1},"end":{"line":0,"character":0}},"text":"b"}]})") ==
        "contentChanges[1].range.start.character: expected a non-negative integer");
  CHECK(errorOf<DidOpenTextDocumentParams>(R"({"textDocument":{"uri":"file:///a","languageId":"py","version":1}})") ==
        "textDocument.text: missing required field");
  CHECK(errorOf<DidOpenTextDocumentParams>(R"({"textDocument":3})") == "textDocument: expected an object");
  CHECK(errorOf<ExecuteCommandParams>(R"({"command":5})") == "command: expected a string");
  CHECK(errorOf<InitializeParams>(R"({"capabilities":{"general":{"positionEncodings":[1]}}})") ==
        "capabilities.general.positionEncodings[0]: expected a string");
  CHECK(errorOf<InitializeParams>(R"({"capabilities":{"workspace":{"workspaceEdit":{"documentChanges":"yes"}}}})") ==
        "capabilities.workspace.workspaceEdit.documentChanges: expected a boolean");
  CHECK(errorOf<CancelParams>(R"({"id":[1]})") == "id: expected an integer or a string");
  CHECK(errorOf<Diagnostic>(R"({"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"message":"m","severity":9})") ==
        "severity: expected 1..4");
}

TEST_CASE("positions accept integral floats and reject fractions, negatives and huge values") {
  REQUIRE(parse<Position>(Json::parse(R"({"line":3.0,"character":4})")).line == 3);
  std::string error;
  REQUIRE_FALSE(tryParse<Position>(Json::parse(R"({"line":1.5,"character":0})"), &error));
  REQUIRE_FALSE(tryParse<Position>(Json::parse(R"({"line":4294967296,"character":0})"), &error));
  REQUIRE(error == "line: expected a non-negative integer");
}

TEST_CASE("InitializeParams reads the capabilities greenlight uses") {
  auto p = parse<InitializeParams>(Json::parse(R"({
    "processId": 12, "rootUri": "file:///w", "workspaceFolders": [{"uri":"file:///w","name":"w"}],
    "initializationOptions": {"greenlight": {"model": "m"}},
    "clientInfo": {"name": "vscode", "version": "1.90"},
    "capabilities": {
      "general": {"positionEncodings": ["utf-8", "utf-16"]},
      "window": {"workDoneProgress": true},
      "workspace": {"configuration": true, "applyEdit": true, "workspaceEdit": {"documentChanges": true}},
      "textDocument": {"codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": []}},
                                       "resolveSupport": {"properties": ["command", "edit"]}}}}})"));
  REQUIRE(p.processId == 12);
  REQUIRE(p.workspaceFolders->size() == 1);
  REQUIRE(p.initializationOptions["greenlight"]["model"] == "m");
  REQUIRE(p.clientName == "vscode");
  REQUIRE(p.capabilities.positionEncodings == std::vector<std::string>{"utf-8", "utf-16"});
  REQUIRE(p.capabilities.workDoneProgress);
  REQUIRE(p.capabilities.configuration);
  REQUIRE(p.capabilities.applyEdit);
  REQUIRE(p.capabilities.documentChanges);
  REQUIRE(p.capabilities.codeActionLiterals);
  REQUIRE(p.capabilities.codeActionResolveCommand);

  auto minimal = parse<InitializeParams>(Json::parse(R"({"processId":null,"rootUri":null,"capabilities":{}})"));
  REQUIRE_FALSE(minimal.rootUri);
  REQUIRE(minimal.capabilities.positionEncodings.empty());
}

TEST_CASE("ServerCapabilities serialise as DESIGN.md says") {
  InitializeResult r;
  r.serverVersion = "1.2.3";
  r.capabilities.positionEncoding = "utf-8";
  r.capabilities.codeActionKinds = {"source.greenlight.runTests"};
  r.capabilities.executeCommands = {"greenlight.runTests"};
  Json j = r;
  REQUIRE(j["capabilities"]["positionEncoding"] == "utf-8");
  REQUIRE(j["capabilities"]["textDocumentSync"]["change"] == 2);
  REQUIRE(j["capabilities"]["codeActionProvider"]["resolveProvider"] == true);
  REQUIRE(j["capabilities"]["codeActionProvider"]["codeActionKinds"][0] == "source.greenlight.runTests");
  REQUIRE(j["capabilities"]["executeCommandProvider"]["commands"][0] == "greenlight.runTests");
  REQUIRE(j["serverInfo"]["version"] == "1.2.3");
}

TEST_CASE("Diagnostic round-trips with related information, code and data") {
  Diagnostic d;
  d.range = {{1, 2}, {1, 9}};
  d.severity = DiagnosticSeverity::Error;
  d.code = "test-failed";
  d.source = "greenlight";
  d.message = "test_fib: AssertionError";
  d.relatedInformation.push_back({{"file:///t.py", {{4, 0}, {4, 10}}}, "assertion here"});
  d.data = Json{{"test", "test_fib"}};
  Json j = d;
  REQUIRE(j["severity"] == 1);
  REQUIRE(j["relatedInformation"][0]["location"]["uri"] == "file:///t.py");
  auto back = parse<Diagnostic>(j);
  REQUIRE(back.range == d.range);
  REQUIRE(back.code == "test-failed");
  REQUIRE(back.data == d.data);
  REQUIRE(back.relatedInformation[0].location == d.relatedInformation[0].location);
  Json plain = Diagnostic{};
  REQUIRE_FALSE(plain.contains("relatedInformation"));
  REQUIRE_FALSE(plain.contains("data"));
}

TEST_CASE("WorkspaceEdit with versioned documentChanges round-trips") {
  WorkspaceEdit e;
  e.documentChanges = std::vector<TextDocumentEdit>{{{"file:///a.py", 7}, {{{{0, 0}, {0, 3}}, "def"}}}};
  Json j = e;
  REQUIRE(j["documentChanges"][0]["textDocument"]["version"] == 7);
  REQUIRE_FALSE(j.contains("changes"));
  auto back = parse<WorkspaceEdit>(j);
  REQUIRE(back.documentChanges->at(0).edits[0].newText == "def");
  OptionalVersionedTextDocumentIdentifier unversioned{"file:///b", std::nullopt};
  REQUIRE(Json(unversioned)["version"].is_null());
  auto applied = parse<ApplyWorkspaceEditResult>(Json::parse(R"({"applied":false,"failureReason":"stale"})"));
  REQUIRE_FALSE(applied.applied);
  REQUIRE(applied.failureReason == "stale");
}

TEST_CASE("progress values carry their kind") {
  Json begin = WorkDoneProgressBegin{"Running tests", true, std::string("3 tests"), 0};
  REQUIRE(begin["kind"] == "begin");
  REQUIRE(begin["cancellable"] == true);
  Json report = WorkDoneProgressReport{std::nullopt, std::string("test_a"), 50};
  REQUIRE(report["kind"] == "report");
  REQUIRE(report["percentage"] == 50);
  Json end = WorkDoneProgressEnd{};
  REQUIRE(end == Json{{"kind", "end"}});
  Json params = ProgressParams{"greenlight/1", end};
  REQUIRE(params["token"] == "greenlight/1");
}

TEST_CASE("code action kinds match by dotted prefix") {
  using V = std::optional<std::vector<std::string>>;
  REQUIRE(kindMatches(std::nullopt, "source.greenlight.runTests"));
  REQUIRE(kindMatches(V{{"source"}}, "source.greenlight.runTests"));
  REQUIRE(kindMatches(V{{"source.greenlight.runTests"}}, "source.greenlight.runTests"));
  REQUIRE_FALSE(kindMatches(V{{"sour"}}, "source.greenlight.runTests"));
  REQUIRE_FALSE(kindMatches(V{{"quickfix"}}, "source.greenlight.runTests"));
  REQUIRE_FALSE(kindMatches(V{std::vector<std::string>{}}, "source"));
}
