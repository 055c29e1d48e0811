#include <catch2/catch.hpp>

#include "protocol/JsonRpc.h"

using namespace greenlight::protocol;

TEST_CASE("requests, notifications and responses are classified") {
  InvalidMessage bad;
  auto req = classify(Json::parse(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})"), &bad);
  REQUIRE(req);
  REQUIRE(req->kind == Message::Kind::Request);
  REQUIRE(req->id == 1);
  REQUIRE(req->method == "initialize");

  auto strId = classify(Json::parse(R"({"jsonrpc":"2.0","id":"abc","method":"x"})"), &bad);
  REQUIRE(strId);
  REQUIRE(strId->id == "abc");
  REQUIRE(strId->params.is_null());

  auto note = classify(Json::parse(R"({"jsonrpc":"2.0","method":"initialized","params":{}})"), &bad);
  REQUIRE(note);
  REQUIRE(note->kind == Message::Kind::Notification);

  auto resp = classify(Json::parse(R"({"jsonrpc":"2.0","id":3,"result":null})"), &bad);
  REQUIRE(resp);
  REQUIRE(resp->kind == Message::Kind::Response);
  REQUIRE_FALSE(resp->error);

  auto err = classify(Json::parse(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}})"), &bad);
  REQUIRE(err);
  REQUIRE(err->error);
  REQUIRE(err->error->code == ErrorCode::MethodNotFound);
}

TEST_CASE("invalid messages say why and keep the id when readable") {
  InvalidMessage bad;
  REQUIRE_FALSE(classify(Json::parse("[1,2]"), &bad));
  REQUIRE(bad.id.is_null());
  REQUIRE_FALSE(classify(Json::parse("42"), &bad));
  REQUIRE_FALSE(classify(Json::parse(R"({"id":5,"method":"x"})"), &bad));
  REQUIRE(bad.id == 5);
  REQUIRE_THAT(bad.reason, Catch::Contains("jsonrpc"));
  REQUIRE_FALSE(classify(Json::parse(R"({"jsonrpc":"2.0","id":5,"method":7})"), &bad));
  REQUIRE_THAT(bad.reason, Catch::Contains("method"));
  REQUIRE_FALSE(classify(Json::parse(R"({"jsonrpc":"2.0","id":{"x":1},"method":"m"})"), &bad));
  REQUIRE_THAT(bad.reason, Catch::Contains("id"));
  REQUIRE_FALSE(classify(Json::parse(R"({"jsonrpc":"2.0","id":1,"method":"m","params":3})"), &bad));
  REQUIRE_THAT(bad.reason, Catch::Contains("params"));
  REQUIRE_FALSE(classify(Json::parse(R"({"jsonrpc":"2.0","id":1})"), &bad));
  REQUIRE_FALSE(classify(Json::parse(R"({"jsonrpc":"2.0","id":1,"error":{"code":"x"}})"), &bad));
  REQUIRE_THAT(bad.reason, Catch::Contains("error.code"));
}

TEST_CASE("builders produce JSON-RPC 2.0 messages") {
  auto e = makeError(nullptr, ErrorCode::ParseError, "bad");
  REQUIRE(e["jsonrpc"] == "2.0");
  REQUIRE(e["id"].is_null());
  REQUIRE(e["error"]["code"] == -32700);
  auto r = makeResult("x", Json::object());
  REQUIRE(r["id"] == "x");
  auto n = makeNotification("exit", nullptr);
  REQUIRE_FALSE(n.contains("params"));
  REQUIRE_FALSE(n.contains("id"));
  auto q = makeRequest(7, "workspace/configuration", Json{{"items", Json::array()}});
  REQUIRE(q["method"] == "workspace/configuration");
}
