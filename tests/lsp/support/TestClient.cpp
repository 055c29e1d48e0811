#include "TestClient.h"

#include <catch2/catch.hpp>

#include "TestTime.h"
#include "lsp/features/Features.h"

namespace greenlight::lsp::testing {

ServerOptions TestClient::defaultOptions() {
  ServerOptions o;
  o.version = "test";
  o.workerThreads = 2;
  o.environment = std::map<std::string, std::string>{};
  o.forwardLogs = false;
  return o;
}

TestClient::TestClient(std::function<void(Server&)> configure, bool withFeatures, ServerOptions options)
    : transport_(io_) {
  server_ = std::make_unique<Server>(io_, transport_, std::move(options));
  if (withFeatures) registerAllFeatures(*server_);
  if (configure) configure(*server_);
  transport_.onSend = [this](const std::string& body) {
    Json m = Json::parse(body, nullptr, false);
    if (!m.is_object() || !m.contains("method") || !m.contains("id")) return;
    std::optional<Json> result;
    if (respond) result = respond(m);
    if (!result) {
      const std::string method = m["method"];
      if (method == "workspace/configuration") {
        Json r = Json::array();
        for (std::size_t i = 0; i < m["params"]["items"].size(); ++i) r.push_back(settings);
        result = r;
      } else if (method == "workspace/applyEdit") {
        result = Json{{"applied", true}};
      } else {
        result = Json(nullptr);
      }
    }
    // Answer on a later loop turn, as a real client would.
    transport_.push(Json{{"jsonrpc", "2.0"}, {"id", m["id"]}, {"result", *result}}.dump());
  };
  server_->start();
}

TestClient::~TestClient() {
  server_.reset();
  io_.restart();
  io_.poll();
}

std::int64_t TestClient::send(const std::string& method, Json params) {
  std::int64_t id = nextId_++;
  transport_.push(protocol::makeRequest(id, method, std::move(params)).dump());
  return id;
}

void TestClient::notify(const std::string& method, Json params) {
  transport_.push(protocol::makeNotification(method, std::move(params)).dump());
}

void TestClient::sendRaw(std::string body) { transport_.push(std::move(body)); }
void TestClient::sendBytes(std::string bytes) { transport_.pushBytes(bytes); }
void TestClient::closeInput() { transport_.close(); }

bool TestClient::pumpUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + gltest::scaled(timeout);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    if (io_.stopped()) io_.restart();
    io_.run_one_for(std::chrono::milliseconds(5));
  }
  return true;
}

void TestClient::settle() {
  for (int quiet = 0; quiet < 3;) {
    if (io_.stopped()) io_.restart();
    std::size_t n = io_.poll();
    bool busy = n > 0 || server_->threadPool().active() > 0 || server_->threadPool().pending() > 0 ||
                transport_.pendingInput() > 0;
    if (busy) {
      quiet = 0;
      if (n == 0) io_.run_one_for(std::chrono::milliseconds(5));
    } else {
      ++quiet;
      io_.run_one_for(std::chrono::milliseconds(2));
    }
  }
}

Json TestClient::waitForResponse(std::int64_t id) {
  Json found;
  bool ok = pumpUntil([&] {
    auto r = responsesFor(id);
    if (r.empty()) return false;
    found = r.front();
    return true;
  });
  INFO("waiting for the response to request " << id);
  REQUIRE(ok);
  return found;
}

Json TestClient::request(const std::string& method, Json params) { return waitForResponse(send(method, std::move(params))); }

Json TestClient::waitForNotification(const std::string& method) {
  Json found;
  std::size_t& cursor = notificationCursor_[method];
  bool ok = pumpUntil([&] {
    auto all = notifications(method);
    if (all.size() <= cursor) return false;
    found = all[cursor];
    return true;
  });
  INFO("waiting for notification " << method);
  REQUIRE(ok);
  ++cursor;
  return found;
}

Json TestClient::initialize(Json capabilities, Json extra) {
  Json params{{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", std::move(capabilities)}};
  for (auto& [k, v] : extra.items()) params[k] = v;
  Json r = request("initialize", params);
  notify("initialized", Json::object());
  settle();
  return r;
}

int TestClient::shutdownAndExit() {
  request("shutdown", nullptr);
  notify("exit", nullptr);
  pumpUntil([&] { return server_->finished(); });
  return server_->exitCode();
}

std::vector<Json> TestClient::received() const {
  std::vector<Json> out;
  for (const auto& body : transport_.sent()) out.push_back(Json::parse(body));
  return out;
}

std::vector<Json> TestClient::responsesFor(const Json& id) const {
  std::vector<Json> out;
  for (auto& m : received())
    if (!m.contains("method") && m.contains("id") && m["id"] == id) out.push_back(m);
  return out;
}

std::vector<Json> TestClient::notifications(const std::string& method) const {
  std::vector<Json> out;
  for (auto& m : received())
    if (m.value("method", "") == method && !m.contains("id")) out.push_back(m);
  return out;
}

std::vector<Json> TestClient::serverRequests(const std::string& method) const {
  std::vector<Json> out;
  for (auto& m : received())
    if (m.value("method", "") == method && m.contains("id")) out.push_back(m);
  return out;
}

}  // namespace greenlight::lsp::testing
