// An in-process LSP client for tests: a real lsp::Server on a MemoryTransport, driven from the
// test's thread (which is also the loop thread: the client pumps the io_context while it waits).
//
// Server->client requests are answered automatically by `respond` (defaults: the configuration
// in `settings`, null for progress creation, {applied: true} for applyEdit), so tests read like
// an editor session.
#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lsp/MemoryTransport.h"
#include "lsp/Server.h"

namespace greenlight::lsp::testing {

using protocol::Json;

class TestClient {
 public:
  // `configure` registers features/handlers before the server starts; registerAllFeatures is
  // called first unless `withFeatures` is false.
  explicit TestClient(std::function<void(Server&)> configure = nullptr, bool withFeatures = true,
                      ServerOptions options = defaultOptions());
  ~TestClient();

  static ServerOptions defaultOptions();

  Server& server() { return *server_; }
  MemoryTransport& transport() { return transport_; }
  boost::asio::io_context& io() { return io_; }

  // Sends a request and returns its id (integer, increasing from 1).
  std::int64_t send(const std::string& method, Json params);
  void notify(const std::string& method, Json params);
  void sendRaw(std::string body);
  void sendBytes(std::string bytes);
  void closeInput();

  // Sends and waits for the response (the whole message). Fails the test on timeout.
  Json request(const std::string& method, Json params);
  Json waitForResponse(std::int64_t id);
  // The first notification with `method` received since the last call for that method.
  Json waitForNotification(const std::string& method);
  // Pumps the loop until `done()` or the timeout (gltest::scaled: longer under sanitizers);
  // returns done().
  bool pumpUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Pumps until nothing is pending for a short while (pool idle, no ready handlers).
  void settle();

  // initialize + initialized with the given capabilities object.
  Json initialize(Json capabilities = Json::object(), Json extra = Json::object());
  int shutdownAndExit();

  // Everything the server sent, parsed, in order.
  std::vector<Json> received() const;
  // Responses for a given id (to check "exactly one").
  std::vector<Json> responsesFor(const Json& id) const;
  std::vector<Json> notifications(const std::string& method) const;
  std::vector<Json> serverRequests(const std::string& method) const;

  Json settings = Json::object();  // answered to workspace/configuration
  std::function<std::optional<Json>(const Json& request)> respond;  // custom auto-responder

 private:
  boost::asio::io_context io_;
  MemoryTransport transport_;
  std::unique_ptr<Server> server_;
  std::int64_t nextId_ = 1;
  std::map<std::string, std::size_t> notificationCursor_;
};

}  // namespace greenlight::lsp::testing
