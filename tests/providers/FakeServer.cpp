#include "FakeServer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include "TestTime.h"

namespace greenlight::test {

using nlohmann::json;

FakeResponse& FakeResponse::chunk(const std::string& data) {
  char len[32];
  std::snprintf(len, sizeof len, "%zx\r\n", data.size());
  return send(len + data + "\r\n");
}

FakeResponse FakeResponse::status(int code, const std::string& body,
                                  std::vector<std::pair<std::string, std::string>> headers,
                                  const std::string& contentType) {
  std::string head = "HTTP/1.1 " + std::to_string(code) + " Status\r\nContent-Type: " + contentType +
                     "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n";
  for (auto& [k, v] : headers) head += k + ": " + v + "\r\n";
  FakeResponse r;
  r.send(head + "\r\n" + body);
  return r;
}

FakeResponse FakeResponse::sseHead(int code) {
  FakeResponse r;
  r.send("HTTP/1.1 " + std::to_string(code) +
         " OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
         "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
  return r;
}

FakeResponse FakeResponse::sse(const std::vector<std::string>& events, int delayMs) {
  FakeResponse r = sseHead();
  for (const auto& e : events) {
    if (delayMs) r.sleep(delayMs);
    r.chunk(e);
  }
  r.endChunks();
  return r;
}

std::string openaiDelta(const std::string& text, const char* finish) {
  json j = {{"id", "chatcmpl-1"}, {"object", "chat.completion.chunk"}, {"model", "fake-model"},
            {"choices", json::array({{{"index", 0}, {"delta", {{"content", text}}},
                                      {"finish_reason", finish ? json(finish) : json(nullptr)}}})}};
  return "data: " + j.dump() + "\n\n";
}

std::string openaiUsage(int prompt, int completion) {
  json j = {{"id", "chatcmpl-1"}, {"object", "chat.completion.chunk"}, {"choices", json::array()},
            {"usage", {{"prompt_tokens", prompt}, {"completion_tokens", completion}, {"total_tokens", prompt + completion}}}};
  return "data: " + j.dump() + "\n\n";
}

std::string openaiDone() { return "data: [DONE]\n\n"; }

std::vector<std::string> openaiStream(const std::vector<std::string>& pieces) {
  std::vector<std::string> events;
  for (const auto& p : pieces) events.push_back(openaiDelta(p));
  events.push_back(openaiDelta("", "stop"));
  events.push_back(openaiUsage(11, static_cast<int>(pieces.size())));
  events.push_back(openaiDone());
  return events;
}

std::string anthropicEvent(const std::string& type, const json& data) {
  json d = data;
  d["type"] = type;
  return "event: " + type + "\ndata: " + d.dump() + "\n\n";
}

std::vector<std::string> anthropicStream(const std::vector<std::string>& pieces) {
  std::vector<std::string> e;
  e.push_back(anthropicEvent("message_start",
                             {{"message", {{"id", "msg_1"}, {"model", "claude-fake"}, {"role", "assistant"},
                                           {"content", json::array()},
                                           {"usage", {{"input_tokens", 25}, {"output_tokens", 1}}}}}}));
  e.push_back(anthropicEvent("content_block_start", {{"index", 0}, {"content_block", {{"type", "text"}, {"text", ""}}}}));
  e.push_back(anthropicEvent("ping", json::object()));
  for (const auto& p : pieces)
    e.push_back(anthropicEvent("content_block_delta", {{"index", 0}, {"delta", {{"type", "text_delta"}, {"text", p}}}}));
  e.push_back(anthropicEvent("content_block_stop", {{"index", 0}}));
  e.push_back(anthropicEvent("message_delta", {{"delta", {{"stop_reason", "end_turn"}, {"stop_sequence", nullptr}}},
                                               {"usage", {{"output_tokens", 15}}}}));
  e.push_back(anthropicEvent("message_stop", json::object()));
  return e;
}

FakeServer::FakeServer() {
  listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listenFd_, 64) != 0)
    throw std::runtime_error("FakeServer: bind/listen on 127.0.0.1 failed");
  socklen_t len = sizeof addr;
  ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  if (::pipe2(stopPipe_, O_CLOEXEC) != 0) throw std::runtime_error("FakeServer: pipe2 failed");
  acceptThread_ = std::thread([this] { acceptLoop(); });
}

FakeServer::~FakeServer() {
  stop_ = true;
  [[maybe_unused]] auto n = ::write(stopPipe_[1], "x", 1);
  acceptThread_.join();
  for (auto& t : threads_) t.join();
  ::close(listenFd_);
  ::close(stopPipe_[0]);
  ::close(stopPipe_[1]);
}

std::string FakeServer::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void FakeServer::enqueue(FakeResponse response) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.push_back(std::move(response));
}

void FakeServer::setHandler(Handler handler) {
  std::lock_guard<std::mutex> lock(mutex_);
  handler_ = std::move(handler);
}

std::vector<FakeRequest> FakeServer::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

std::size_t FakeServer::requestCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_.size();
}

bool FakeServer::waitForRequests(std::size_t n, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
}

std::optional<std::chrono::steady_clock::time_point> FakeServer::lastDisconnect() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return disconnect_;
}

bool FakeServer::waitForDisconnect(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return disconnect_.has_value(); });
}

void FakeServer::acceptLoop() {
  for (;;) {
    pollfd fds[2] = {{listenFd_, POLLIN, 0}, {stopPipe_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) continue;
    if (fds[1].revents) return;
    int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.emplace_back([this, fd] { serve(fd); });
  }
}

namespace {

bool sendAll(int fd, const std::string& data) {
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void FakeServer::serve(int fd) {
  std::string buf;
  char tmp[65536];
  FakeRequest req;
  // Read the head.
  std::size_t headEnd;
  while ((headEnd = buf.find("\r\n\r\n")) == std::string::npos) {
    pollfd p[2] = {{fd, POLLIN, 0}, {stopPipe_[0], POLLIN, 0}};
    // A client sends its head as soon as it connects; the bound only frees a connection nobody uses.
    ::poll(p, 2, static_cast<int>(gltest::scaled(std::chrono::seconds(5)).count()));
    if (p[1].revents || !p[0].revents) return (void)::close(fd);
    ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return (void)::close(fd);
    buf.append(tmp, static_cast<std::size_t>(n));
  }
  std::string head = buf.substr(0, headEnd);
  buf.erase(0, headEnd + 4);
  std::size_t lineEnd = head.find("\r\n");
  std::string requestLine = head.substr(0, lineEnd);
  auto sp1 = requestLine.find(' '), sp2 = requestLine.rfind(' ');
  req.method = requestLine.substr(0, sp1);
  req.path = requestLine.substr(sp1 + 1, sp2 - sp1 - 1);
  std::size_t pos = lineEnd == std::string::npos ? head.size() : lineEnd + 2;
  while (pos < head.size()) {
    std::size_t e = head.find("\r\n", pos);
    if (e == std::string::npos) e = head.size();
    std::string line = head.substr(pos, e - pos);
    pos = e + 2;
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(value.begin());
    req.headers[name] = value;
  }
  std::size_t length = req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
  while (buf.size() < length) {
    ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
    if (n <= 0) return (void)::close(fd);
    buf.append(tmp, static_cast<std::size_t>(n));
  }
  req.body = buf.substr(0, length);

  FakeResponse response;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(req);
    if (!queue_.empty()) {
      response = std::move(queue_.front());
      queue_.pop_front();
    } else if (handler_) {
      auto h = handler_;
      response = h(req);
    } else {
      response = FakeResponse::status(500, R"({"error":{"message":"fake server: nothing scripted"}})");
    }
  }
  cv_.notify_all();
  for (const Step& step : response.steps) {
    if (stop_) break;
    if (step.kind == Step::Send) {
      if (!sendAll(fd, step.bytes)) break;
    } else if (step.kind == Step::Sleep) {
      pollfd p{stopPipe_[0], POLLIN, 0};
      ::poll(&p, 1, step.ms);
    } else if (step.kind == Step::Hold) {
      // Wait for the client to hang up (readable with 0 bytes / error) or the server to stop.
      for (;;) {
        pollfd p[2] = {{fd, POLLIN, 0}, {stopPipe_[0], POLLIN, 0}};
        ::poll(p, 2, -1);
        if (p[1].revents) break;
        if (p[0].revents) {
          ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
          if (n <= 0) {
            std::lock_guard<std::mutex> lock(mutex_);
            disconnect_ = std::chrono::steady_clock::now();
            cv_.notify_all();
            break;
          }
        }
      }
      break;
    } else {
      break;
    }
  }
  ::shutdown(fd, SHUT_WR);
  ::close(fd);
}

}  // namespace greenlight::test
