// In-process tests of the server: lifecycle, error codes, cancellation, server->client
// requests, configuration, progress, text sync and the code-action feature.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "lsp/Server.h"
#include "lsp/features/Features.h"
#include "protocol/Framing.h"
#include "protocol/Uri.h"
#include "support/TestClient.h"

using namespace greenlight;
using lsp::testing::TestClient;
using protocol::Json;

namespace {

const std::string kEmoji = "\xF0\x9F\x98\x80";
const std::string kCjk = "\xE4\xB8\xAD\xE6\x96\x87";

int errorCode(const Json& response) { return response.at("error").at("code").get<int>(); }

Json literalCaps() {
  return Json{{"textDocument", {{"codeAction", {{"codeActionLiteralSupport", {{"codeActionKind", {{"valueSet", Json::array()}}}}}}}}}};
}

Json range(int l1, int c1, int l2, int c2) {
  return Json{{"start", {{"line", l1}, {"character", c1}}}, {"end", {{"line", l2}, {"character", c2}}}};
}

Json codeActionParams(const std::string& uri, int line, int character, Json only = nullptr) {
  Json context{{"diagnostics", Json::array()}};
  if (!only.is_null()) context["only"] = only;
  return Json{{"textDocument", {{"uri", uri}}}, {"range", range(line, character, line, character)}, {"context", context}};
}

void open(TestClient& c, const std::string& uri, const std::string& text, int version = 1) {
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", version}, {"text", text}}}});
}

void change(TestClient& c, const std::string& uri, int version, Json changes) {
  c.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}}, {"contentChanges", changes}});
}

}  // namespace

TEST_CASE("initialize negotiates utf-16 by default and utf-8 when offered") {
  TestClient a;
  Json r = a.initialize();
  CHECK(r["result"]["capabilities"]["positionEncoding"] == "utf-16");
  CHECK(r["result"]["capabilities"]["textDocumentSync"]["change"] == 2);
  CHECK(r["result"]["capabilities"]["codeActionProvider"]["resolveProvider"] == true);
  CHECK(r["result"]["capabilities"]["codeActionProvider"]["codeActionKinds"] == Json{"source.greenlight.runTests", "refactor.rewrite.greenlight", "quickfix"});
  CHECK(r["result"]["capabilities"]["codeLensProvider"].is_object());
  Json commands = r["result"]["capabilities"]["executeCommandProvider"]["commands"];
  CHECK(std::find(commands.begin(), commands.end(), Json("greenlight.runTests")) != commands.end());
  CHECK(r["result"]["serverInfo"]["name"] == "greenlight");
  CHECK(a.server().positionEncoding() == protocol::PositionEncoding::Utf16);

  TestClient b;
  r = b.initialize(Json{{"general", {{"positionEncodings", {"utf-16", "utf-8"}}}}});
  CHECK(r["result"]["capabilities"]["positionEncoding"] == "utf-8");
  CHECK(b.server().positionEncoding() == protocol::PositionEncoding::Utf8);
}

TEST_CASE("requests before initialize get -32002, notifications are dropped") {
  TestClient c;
  CHECK(errorCode(c.request("textDocument/codeAction", codeActionParams("file:///a.py", 0, 0))) == -32002);
  CHECK(errorCode(c.request("shutdown", nullptr)) == -32002);
  open(c, "file:///a.py", "x");
  c.settle();
  CHECK_FALSE(c.server().documents().isOpen("file:///a.py"));
  c.initialize();
  CHECK(errorCode(c.request("initialize", Json{{"capabilities", Json::object()}})) == -32600);
}

TEST_CASE("exit code is 0 after shutdown and 1 without") {
  {
    TestClient c;
    c.initialize();
    CHECK(c.shutdownAndExit() == 0);
  }
  {
    TestClient c;
    c.initialize();
    c.notify("exit", nullptr);
    REQUIRE(c.pumpUntil([&] { return c.server().finished(); }));
    CHECK(c.server().exitCode() == 1);
  }
  {
    TestClient c;  // exit before initialize
    c.notify("exit", nullptr);
    REQUIRE(c.pumpUntil([&] { return c.server().finished(); }));
    CHECK(c.server().exitCode() == 1);
  }
}

TEST_CASE("EOF ends the session cleanly") {
  TestClient c;
  c.initialize();
  c.closeInput();
  REQUIRE(c.pumpUntil([&] { return c.server().finished(); }));
  CHECK(c.server().exitCode() == 1);

  TestClient d;
  d.initialize();
  d.request("shutdown", nullptr);
  d.closeInput();
  REQUIRE(d.pumpUntil([&] { return d.server().finished(); }));
  CHECK(d.server().exitCode() == 0);
}

TEST_CASE("after shutdown requests get -32600 and notifications are ignored") {
  TestClient c;
  c.initialize();
  CHECK(c.request("shutdown", nullptr)["result"].is_null());
  CHECK(errorCode(c.request("textDocument/codeAction", codeActionParams("file:///a.py", 0, 0))) == -32600);
  CHECK(errorCode(c.request("shutdown", nullptr)) == -32600);
  open(c, "file:///a.py", "x");
  c.settle();
  CHECK_FALSE(c.server().documents().isOpen("file:///a.py"));
}

TEST_CASE("protocol errors: unknown method, bad JSON, invalid message, bad params") {
  TestClient c;
  c.initialize();
  CHECK(errorCode(c.request("textDocument/hover", Json::object())) == -32601);

  c.notify("$/setTrace", {{"value", "off"}});
  c.notify("custom/unknownNotification", Json::object());

  c.sendRaw("{not json");
  c.sendRaw(R"({"jsonrpc":"2.0","id":77,"method":5})");
  c.sendRaw(R"([{"jsonrpc":"2.0","id":78,"method":"shutdown"}])");
  c.settle();
  auto nullIdErrors = c.responsesFor(nullptr);
  REQUIRE(nullIdErrors.size() == 2);
  CHECK(errorCode(nullIdErrors[0]) == -32700);
  CHECK(errorCode(nullIdErrors[1]) == -32600);
  auto bad77 = c.responsesFor(77);
  REQUIRE(bad77.size() == 1);
  CHECK(errorCode(bad77[0]) == -32600);

  Json r = c.request("textDocument/codeAction",
                     {{"textDocument", {{"uri", "file:///a.py"}}}, {"range", range(0, 0, 0, 0)}, {"context", {{"diagnostics", 5}}}});
  CHECK(errorCode(r) == -32602);
  CHECK(r["error"]["message"] == "context.diagnostics: expected an array");
  r = c.request("textDocument/codeAction",
                {{"textDocument", {{"uri", "file:///a.py"}}}, {"range", range(0, -1, 0, 0)}, {"context", {{"diagnostics", Json::array()}}}});
  CHECK(r["error"]["message"] == "range.start.character: expected a non-negative integer");
  r = c.request("textDocument/codeAction", nullptr);
  CHECK(errorCode(r) == -32602);
  CHECK(r["error"]["message"] == "params: expected an object");

  // Still serving.
  CHECK(c.request("textDocument/codeAction", codeActionParams("file:///a.py", 0, 0)).contains("result"));
  CHECK(c.shutdownAndExit() == 0);
}

TEST_CASE("a duplicate in-flight id is rejected and string ids are echoed") {
  std::atomic<bool> release{false};
  TestClient c([&](lsp::Server& s) {
    s.onRequestRaw("test/hold", [&s, &release](const Json&, lsp::RequestContext ctx) {
      s.threadPool().post([ctx, &release] {
        while (!release && !ctx.cancel.isCancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ctx.reply.result("done");
      });
    });
  });
  c.initialize();
  c.sendRaw(R"({"jsonrpc":"2.0","id":"s1","method":"test/hold"})");
  c.sendRaw(R"({"jsonrpc":"2.0","id":"s1","method":"test/hold"})");
  REQUIRE(c.pumpUntil([&] { return c.responsesFor("s1").size() == 1; }));
  auto r = c.responsesFor("s1");
  REQUIRE(r.size() == 1);
  CHECK(errorCode(r[0]) == -32600);
  release = true;
  REQUIRE(c.pumpUntil([&] { return c.responsesFor("s1").size() == 2; }));
  CHECK(c.responsesFor("s1")[1]["result"] == "done");
}

TEST_CASE("cancelling an in-flight request answers -32800 exactly once and stops its work") {
  std::atomic<bool> workStopped{false};
  std::atomic<bool> started{false};
  TestClient c([&](lsp::Server& s) {
    s.onRequestRaw("test/slow", [&](const Json&, lsp::RequestContext ctx) {
      s.threadPool().post([ctx, &workStopped, &started] {
        started = true;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!ctx.cancel.isCancelled() && std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        workStopped = ctx.cancel.isCancelled();
        ctx.reply.result("finished anyway");  // late: must be dropped
      });
    });
  });
  c.initialize();
  auto id = c.send("test/slow", Json::object());
  REQUIRE(c.pumpUntil([&] { return started.load(); }));
  c.notify("$/cancelRequest", {{"id", id}});
  Json r = c.waitForResponse(id);
  CHECK(errorCode(r) == -32800);
  REQUIRE(c.pumpUntil([&] { return workStopped.load(); }));
  c.server().threadPool().waitIdle();
  c.settle();
  CHECK(c.responsesFor(id).size() == 1);
  // Cancelling something already answered or unknown is harmless.
  c.notify("$/cancelRequest", {{"id", id}});
  c.notify("$/cancelRequest", {{"id", 999}});
  c.settle();
  CHECK(c.responsesFor(id).size() == 1);
}

TEST_CASE("a handler that drops its reply still answers, exactly once") {
  TestClient c([](lsp::Server& s) {
    s.onRequestRaw("test/forget", [](const Json&, lsp::RequestContext) {});
    s.onRequestRaw("test/throw", [](const Json&, lsp::RequestContext) { throw std::runtime_error("boom"); });
    s.onRequestRaw("test/twice", [](const Json&, lsp::RequestContext ctx) {
      ctx.reply.result(1);
      ctx.reply.result(2);
      ctx.reply.error(protocol::ErrorCode::InternalError, "x");
    });
    s.onRequestRaw("test/later", [&s](const Json&, lsp::RequestContext ctx) {
      s.threadPool().post([ctx] { (void)ctx; });  // dropped on a worker thread
    });
  });
  c.initialize();
  Json r = c.request("test/forget", nullptr);
  CHECK(errorCode(r) == -32603);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("without answering"));
  r = c.request("test/throw", nullptr);
  CHECK(errorCode(r) == -32603);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("boom"));
  auto id = c.send("test/twice", nullptr);
  c.settle();
  REQUIRE(c.responsesFor(id).size() == 1);
  CHECK(c.responsesFor(id)[0]["result"] == 1);
  CHECK(errorCode(c.request("test/later", nullptr)) == -32603);
}

TEST_CASE("shutdown cancels requests still in flight") {
  TestClient c([](lsp::Server& s) { s.onRequestRaw("test/never", [](const Json&, lsp::RequestContext ctx) {
                  static std::vector<lsp::RequestContext> keep;  // held, never answered
                  keep.push_back(ctx);
                }); });
  c.initialize();
  auto id = c.send("test/never", nullptr);
  c.settle();
  CHECK(c.responsesFor(id).empty());
  c.request("shutdown", nullptr);
  REQUIRE(c.responsesFor(id).size() == 1);
  CHECK(errorCode(c.responsesFor(id)[0]) == -32800);
}

TEST_CASE("text sync keeps the unsaved text and versions, incremental and full") {
  TestClient c;
  c.initialize();
  const std::string uri = "file:///tmp/work%20dir/m.py";
  open(c, uri, "def f():\n    return 1\n");
  change(c, uri, 2, Json::array({{{"range", range(1, 11, 1, 12)}, {"text", "\"" + kEmoji + kCjk + "\""}}}));
  // After the emoji (2 units) and two CJK chars: column 11 + 1 + 2 + 2 = 16 is before the quote.
  change(c, uri, 3, Json::array({{{"range", range(1, 16, 1, 16)}, {"text", "!"}}}));
  change(c, uri, 4, Json::array({{{"range", range(0, 4, 0, 5)}, {"text", "g"}}, {{"range", range(2, 0, 2, 0)}, {"text", "# end\n"}}}));
  c.settle();
  auto& docs = c.server().documents();
  REQUIRE(docs.version(uri) == 4);
  CHECK(docs.textForPath("/tmp/work dir/m.py") == "def g():\n    return \"" + kEmoji + kCjk + "!\"\n# end\n");
  change(c, uri, 5, Json::array({{{"text", "full\n"}}}));
  c.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  c.settle();
  CHECK(docs.get(uri)->text == "full\n");
  CHECK(docs.version(uri) == 5);
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  c.settle();
  CHECK_FALSE(docs.isOpen(uri));
  CHECK_FALSE(docs.textForPath("/tmp/work dir/m.py"));
}

TEST_CASE("document hooks fire with versions") {
  std::vector<std::string> events;
  TestClient c([&](lsp::Server& s) {
    s.onDidOpen([&](const lsp::DocumentEvent& e) { events.push_back("open " + std::to_string(e.version) + " " + e.path); });
    s.onDidChange([&](const lsp::DocumentEvent& e) { events.push_back("change " + std::to_string(e.version)); });
    s.onDidSave([&](const lsp::DocumentEvent& e) { events.push_back("save " + std::to_string(e.version)); });
    s.onDidClose([&](const lsp::DocumentEvent& e) { events.push_back("close " + std::to_string(e.version)); });
  });
  c.initialize();
  open(c, "file:///x.py", "a", 3);
  change(c, "file:///x.py", 4, Json::array({{{"text", "b"}}}));
  c.notify("textDocument/didSave", {{"textDocument", {{"uri", "file:///x.py"}}}});
  c.notify("textDocument/didClose", {{"textDocument", {{"uri", "file:///x.py"}}}});
  c.settle();
  CHECK(events == std::vector<std::string>{"open 3 /x.py", "change 4", "save 4", "close 4"});
}

TEST_CASE("code action lists Run nearby tests and resolve is idempotent") {
  TestClient c;
  c.initialize(literalCaps());
  const std::string uri = "file:///w/m.py";
  open(c, uri, "x = '" + kEmoji + "'\n");
  Json r = c.request("textDocument/codeAction", codeActionParams(uri, 0, 99));
  REQUIRE(r["result"].size() == 1);
  Json action = r["result"][0];
  CHECK(action["title"] == "Run nearby tests in sandbox");
  CHECK(action["kind"] == "source.greenlight.runTests");
  CHECK(action["command"]["command"] == "greenlight.runTests");
  // The position is normalised to the document: column 99 clamps to the line end (8 units).
  Json expectedArgs{{"uri", uri}, {"position", {{"line", 0}, {"character", 8}}}};
  CHECK(action["command"]["arguments"][0] == expectedArgs);

  Json resolved = c.request("codeAction/resolve", action)["result"];
  CHECK(resolved == action);
  CHECK(c.request("codeAction/resolve", resolved)["result"] == action);
  Json stripped = action;
  stripped.erase("command");
  CHECK(c.request("codeAction/resolve", stripped)["result"] == action);

  Json foreign{{"title", "x"}, {"data", {{"other", 1}}}};
  CHECK(errorCode(c.request("codeAction/resolve", foreign)) == -32602);

  CHECK(c.request("textDocument/codeAction", codeActionParams(uri, 0, 0, Json{"quickfix"}))["result"].empty());
  CHECK(c.request("textDocument/codeAction", codeActionParams(uri, 0, 0, Json{"source"}))["result"].size() == 1);
}

TEST_CASE("clients without code action literals get plain commands") {
  TestClient c;
  c.initialize();
  Json r = c.request("textDocument/codeAction", codeActionParams("file:///a.py", 1, 2));
  REQUIRE(r["result"].size() == 1);
  CHECK(r["result"][0]["command"] == "greenlight.runTests");
  CHECK(r["result"][0]["arguments"][0]["position"] == Json{{"line", 1}, {"character", 2}});
}

TEST_CASE("executeCommand: unavailable and unknown commands are invalid params") {
  // Only the code-action feature: greenlight.runTests is declared but has no handler.
  TestClient c([](lsp::Server& s) { lsp::registerCodeActions(s); }, /*withFeatures=*/false);
  c.initialize();
  Json r = c.request("workspace/executeCommand", {{"command", "greenlight.runTests"}, {"arguments", Json::array({{{"uri", "file:///a"}}})}});
  CHECK(errorCode(r) == -32602);
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains("greenlight.runTests"));
  r = c.request("workspace/executeCommand", {{"command", "nope"}});
  CHECK(errorCode(r) == -32602);
  CHECK(r["error"]["message"] == "command: unknown command 'nope'");
}

TEST_CASE("command handlers get arguments, decoding errors name the argument") {
  TestClient c([](lsp::Server& s) {
    lsp::registerCodeActions(s);
    s.onCommand("test.cmd", [](const std::vector<Json>& args, lsp::RequestContext ctx) {
      if (args.empty()) throw protocol::JsonError(protocol::JsonPath().index(0), "missing");
      auto uri = protocol::parse<std::string>(args[0]);
      ctx.reply.result(uri);
    });
  }, /*withFeatures=*/false);
  Json r = c.initialize();
  CHECK(r["result"]["capabilities"]["executeCommandProvider"]["commands"] == Json{"greenlight.runTests", "test.cmd"});
  CHECK(c.request("workspace/executeCommand", {{"command", "test.cmd"}, {"arguments", {"u"}}})["result"] == "u");
  r = c.request("workspace/executeCommand", {{"command", "test.cmd"}, {"arguments", Json::array()}});
  CHECK(r["error"]["message"] == "arguments[0]: missing");
  r = c.request("workspace/executeCommand", {{"command", "test.cmd"}, {"arguments", {5}}});
  CHECK(r["error"]["message"] == "arguments: expected a string");
}

TEST_CASE("configuration layers: initializationOptions, then workspace/configuration pulls") {
  std::vector<std::string> models;
  TestClient c([&](lsp::Server& s) {
    s.onConfigChanged([&](const core::Config& cfg) { models.push_back(cfg.model.value_or("-")); });
  });
  c.settings = Json{{"model", "from-client"}};
  c.initialize(Json{{"workspace", {{"configuration", true}}}},
               Json{{"initializationOptions", {{"greenlight", {{"model", "from-init"}, {"maxTokens", 99}}}}}});
  REQUIRE(c.serverRequests("workspace/configuration").size() == 1);
  CHECK(c.serverRequests("workspace/configuration")[0]["params"]["items"][0]["section"] == "greenlight");
  CHECK(c.server().config().model == "from-client");
  CHECK(c.server().config().maxTokens == 99);
  CHECK(models == std::vector<std::string>{"from-init", "from-client"});

  c.settings = Json{{"model", "changed"}};
  c.notify("workspace/didChangeConfiguration", {{"settings", nullptr}});
  c.settle();
  CHECK(c.serverRequests("workspace/configuration").size() == 2);
  CHECK(c.server().config().model == "changed");

  // A bad value keeps the previous configuration.
  c.settings = Json{{"maxTokens", "lots"}};
  c.notify("workspace/didChangeConfiguration", {{"settings", nullptr}});
  c.settle();
  CHECK(c.server().config().model == "changed");
  CHECK(c.server().config().maxTokens == 99);
}

TEST_CASE("push-model configuration without workspace/configuration support") {
  TestClient c;
  c.initialize();
  CHECK(c.serverRequests("workspace/configuration").empty());
  c.notify("workspace/didChangeConfiguration", {{"settings", {{"greenlight", {{"runOnSave", false}}}}}});
  c.settle();
  CHECK_FALSE(c.server().config().runOnSave);
}

TEST_CASE("the workspace .greenlight.json layer is read from the root") {
  auto dir = std::filesystem::temp_directory_path() / ("gl-lsp-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / ".greenlight.json") << R"({"greenlight": {"temperature": 0.7}})";
  }
  TestClient c;
  c.initialize(Json::object(), Json{{"rootUri", protocol::uriFromPath(dir.string())}});
  CHECK(c.server().workspaceRoot() == dir.string());
  CHECK(c.server().config().temperature == Approx(0.7));
  std::filesystem::remove_all(dir);
}

TEST_CASE("progress: created by the server, reported, cancellable from the editor") {
  std::atomic<bool> sawCancel{false};
  TestClient c([&](lsp::Server& s) {
    s.onRequestRaw("test/progress", [&s, &sawCancel](const Json&, lsp::RequestContext ctx) {
      auto progress = ctx.beginProgress("Running tests", std::string("starting"));
      progress->report(std::string("test_a"), 50);
      s.threadPool().post([ctx, progress, &sawCancel] {
        while (!ctx.cancel.isCancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        sawCancel = true;
        progress->end(std::string("cancelled"));
      });
    });
  });
  c.initialize(Json{{"window", {{"workDoneProgress", true}}}});
  auto id = c.send("test/progress", Json::object());
  Json begin = c.waitForNotification("$/progress");
  auto creates = c.serverRequests("window/workDoneProgress/create");
  REQUIRE(creates.size() == 1);
  Json token = creates[0]["params"]["token"];
  CHECK(begin["params"]["token"] == token);
  CHECK(begin["params"]["value"]["kind"] == "begin");
  CHECK(begin["params"]["value"]["cancellable"] == true);
  Json report = c.waitForNotification("$/progress");
  CHECK(report["params"]["value"] == Json{{"kind", "report"}, {"message", "test_a"}, {"percentage", 50}});
  c.notify("window/workDoneProgress/cancel", {{"token", token}});
  CHECK(errorCode(c.waitForResponse(id)) == -32800);
  REQUIRE(c.pumpUntil([&] { return sawCancel.load(); }));
  Json end = c.waitForNotification("$/progress");
  CHECK(end["params"]["value"]["kind"] == "end");
  c.server().threadPool().waitIdle();
  c.settle();
  CHECK(c.responsesFor(id).size() == 1);
}

TEST_CASE("progress that begins and ends before the client answers create is still sent") {
  // A cached test run ends in milliseconds, before the editor has answered
  // window/workDoneProgress/create: its begin and end are sent once the token exists.
  TestClient c([](lsp::Server& s) {
    s.onRequestRaw("test/quick", [](const Json&, lsp::RequestContext ctx) {
      auto p = ctx.beginProgress("Running tests");
      p->end(std::string("1 passed, 0 failed"));
      ctx.reply.result(nullptr);
    });
  });
  c.initialize(Json{{"window", {{"workDoneProgress", true}}}});
  c.request("test/quick", Json::object());
  c.settle();
  REQUIRE(c.serverRequests("window/workDoneProgress/create").size() == 1);
  auto progress = c.notifications("$/progress");
  REQUIRE(progress.size() == 2);
  CHECK(progress[0]["params"]["value"]["kind"] == "begin");
  CHECK(progress[1]["params"]["value"] == Json{{"kind", "end"}, {"message", "1 passed, 0 failed"}});
}

TEST_CASE("progress uses the client's workDoneToken and is silent without support") {
  TestClient c([](lsp::Server& s) {
    s.onRequestRaw("test/progress", [](const Json&, lsp::RequestContext ctx) {
      auto p = ctx.beginProgress("t");
      p->end();
      ctx.reply.result(nullptr);
    });
  });
  c.initialize();
  c.request("test/progress", Json{{"workDoneToken", "client-1"}});
  auto progress = c.notifications("$/progress");
  REQUIRE(progress.size() == 2);
  CHECK(progress[0]["params"]["token"] == "client-1");
  c.request("test/progress", Json::object());
  CHECK(c.notifications("$/progress").size() == 2);
  CHECK(c.serverRequests("window/workDoneProgress/create").empty());
}

TEST_CASE("applyEdit sends versioned documentChanges, or changes for older clients") {
  protocol::WorkspaceEdit edit;
  edit.documentChanges = std::vector<protocol::TextDocumentEdit>{{{"file:///a.py", 3}, {{{{0, 0}, {0, 1}}, "y"}}}};
  for (bool documentChanges : {true, false}) {
    TestClient c;
    c.initialize(Json{{"workspace", {{"applyEdit", true}, {"workspaceEdit", {{"documentChanges", documentChanges}}}}}});
    std::optional<bool> applied;
    c.server().applyEdit("greenlight: test", edit, [&](auto result, std::string) { applied = result && result->applied; });
    REQUIRE(c.pumpUntil([&] { return applied.has_value(); }));
    CHECK(*applied);
    auto sent = c.serverRequests("workspace/applyEdit");
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["params"]["label"] == "greenlight: test");
    if (documentChanges)
      CHECK(sent[0]["params"]["edit"]["documentChanges"][0]["textDocument"]["version"] == 3);
    else
      CHECK(sent[0]["params"]["edit"]["changes"]["file:///a.py"][0]["newText"] == "y");
  }
  TestClient none;
  none.initialize();
  std::string error;
  bool called = false;
  none.server().applyEdit("x", edit, [&](auto result, std::string e) { called = !result; error = e; });
  REQUIRE(none.pumpUntil([&] { return called; }));
  CHECK_THAT(error, Catch::Contains("does not support"));
}

TEST_CASE("publishDiagnostics from a worker thread reaches the client") {
  TestClient c([](lsp::Server& s) {
    s.onRequestRaw("test/diag", [&s](const Json&, lsp::RequestContext ctx) {
      s.threadPool().post([&s, ctx] {
        protocol::Diagnostic d;
        d.range = {{1, 0}, {1, 4}};
        d.source = "greenlight";
        d.code = "test-failed";
        d.message = "boom";
        s.publishDiagnostics("file:///a.py", 4, {d});
        ctx.reply.result(nullptr);
      });
    });
  });
  c.initialize();
  c.request("test/diag", nullptr);
  Json n = c.waitForNotification("textDocument/publishDiagnostics");
  CHECK(n["params"]["uri"] == "file:///a.py");
  CHECK(n["params"]["version"] == 4);
  CHECK(n["params"]["diagnostics"][0]["code"] == "test-failed");
}

TEST_CASE("framing errors are survived: garbage, then a good frame") {
  TestClient c;
  c.sendBytes("Content-Length: 999999999999\r\n\r\n{}");
  c.sendBytes(protocol::encodeFrame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})"));
  Json r = c.waitForResponse(1);
  CHECK(r.contains("result"));
}

TEST_CASE("deeply nested JSON is refused without recursion") {
  TestClient c;
  c.initialize();
  c.sendRaw(std::string(100000, '[') + std::string(100000, ']'));
  c.settle();
  auto errors = c.responsesFor(nullptr);
  REQUIRE(errors.size() == 1);
  CHECK(errorCode(errors[0]) == -32700);
}
