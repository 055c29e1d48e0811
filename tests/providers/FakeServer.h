// A scripted HTTP/1.1 server on 127.0.0.1 for the provider tests: each accepted request is
// answered by the next queued Response (or the handler), a list of steps (send bytes, sleep,
// hold until the client goes away, close). It speaks whatever the script says, so one server
// plays OpenAI, Anthropic, Ollama or a broken proxy.
//
// Thread-safety: all members may be called from any thread; one thread per connection.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace greenlight::test {

struct FakeRequest {
  std::string method, path;
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
};

struct Step {
  enum Kind { Send, Sleep, Hold, Close } kind = Send;
  std::string bytes;
  int ms = 0;
};

struct FakeResponse {
  std::vector<Step> steps;

  FakeResponse& send(std::string bytes) { steps.push_back({Step::Send, std::move(bytes), 0}); return *this; }
  FakeResponse& sleep(int ms) { steps.push_back({Step::Sleep, {}, ms}); return *this; }
  // Keeps the connection open without sending until the client disconnects or the server stops.
  FakeResponse& hold() { steps.push_back({Step::Hold, {}, 0}); return *this; }
  FakeResponse& chunk(const std::string& data);          // one chunked-encoding chunk
  FakeResponse& endChunks() { return send("0\r\n\r\n"); }

  // A whole response with Content-Length.
  static FakeResponse status(int code, const std::string& body,
                             std::vector<std::pair<std::string, std::string>> headers = {},
                             const std::string& contentType = "application/json");
  // Just the head of a chunked text/event-stream response (add chunks yourself).
  static FakeResponse sseHead(int code = 200);
  // A complete chunked SSE response, one chunk per event, `delayMs` between chunks.
  static FakeResponse sse(const std::vector<std::string>& events, int delayMs = 0);
};

// OpenAI / Anthropic event text helpers ("data: ...\n\n").
std::string openaiDelta(const std::string& text, const char* finish = nullptr);
std::string openaiUsage(int prompt, int completion);
std::string openaiDone();
std::vector<std::string> openaiStream(const std::vector<std::string>& pieces);  // + finish + usage + DONE
std::string anthropicEvent(const std::string& type, const nlohmann::json& data);
std::vector<std::string> anthropicStream(const std::vector<std::string>& pieces);

class FakeServer {
 public:
  using Handler = std::function<FakeResponse(const FakeRequest&)>;
  FakeServer();
  ~FakeServer();

  int port() const { return port_; }
  std::string url(const std::string& path = "") const;
  void enqueue(FakeResponse response);
  void setHandler(Handler handler);
  std::vector<FakeRequest> requests() const;
  std::size_t requestCount() const;
  // Blocks until `n` requests arrived or `timeout` passed.
  bool waitForRequests(std::size_t n, std::chrono::milliseconds timeout);
  // When the last held connection saw its client go away (steady clock), or nullopt.
  std::optional<std::chrono::steady_clock::time_point> lastDisconnect() const;
  bool waitForDisconnect(std::chrono::milliseconds timeout);

 private:
  void acceptLoop();
  void serve(int fd);

  int listenFd_ = -1;
  int stopPipe_[2] = {-1, -1};
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<FakeResponse> queue_;
  Handler handler_;
  std::vector<FakeRequest> requests_;
  std::optional<std::chrono::steady_clock::time_point> disconnect_;
  std::vector<std::thread> threads_;
  std::thread acceptThread_;
};

}  // namespace greenlight::test
