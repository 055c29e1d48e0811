// LSP latency benchmark (issue 2 "Done when"): through the real server over pipes,
//   - textDocument/codeAction on a 20,000-line document: p50/p99 round trip (goal p99 < 2 ms)
//   - an incremental didChange on it (goal p99 < 0.2 ms). didChange is a notification, so over
//     the pipe we time didChange + codeAction back to back and subtract the codeAction median;
//     we also time the server's own work for the same didChange (params decode + DocumentStore
//     apply) in-process, which is what the 0.2 ms goal is about.
//   - the server's RSS when idle after initialize, and with the 20,000-line document open
//     (goal < 20 MB idle).
// Figures only: it asserts nothing.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/documents/DocumentStore.h"
#include "protocol/Framing.h"
#include "protocol/TextSync.h"

using greenlight::protocol::Json;
using Clock = std::chrono::steady_clock;

namespace {

class ServerProcess {
 public:
  explicit ServerProcess(const std::string& binary) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC)) throw std::runtime_error("pipe2 failed");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      int devnull = ::open("/dev/null", O_WRONLY);
      ::dup2(devnull, 2);
      ::execl(binary.c_str(), binary.c_str(), "lsp", "--log-level", "warn", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~ServerProcess() {
    if (to_ >= 0) ::close(to_);
    if (from_ >= 0) ::close(from_);
    int status;
    ::waitpid(pid_, &status, 0);
  }
  void send(const Json& j) {
    std::string f = greenlight::protocol::encodeFrame(j.dump());
    std::size_t done = 0;
    while (done < f.size()) {
      ssize_t n = ::write(to_, f.data() + done, f.size() - done);
      if (n <= 0) throw std::runtime_error("write to server failed");
      done += static_cast<std::size_t>(n);
    }
  }
  // Reads until the response with `id` arrives (skipping notifications and server requests,
  // which get a null answer).
  Json waitFor(std::int64_t id) {
    while (true) {
      while (true) {
        auto s = decoder_.next();
        if (s == greenlight::protocol::FrameDecoder::Status::NeedMore) break;
        if (s != greenlight::protocol::FrameDecoder::Status::Frame) throw std::runtime_error("framing error from server");
        Json m = Json::parse(decoder_.body());
        if (m.contains("method") && m.contains("id")) {
          send(Json{{"jsonrpc", "2.0"}, {"id", m["id"]}, {"result", nullptr}});
          continue;
        }
        if (!m.contains("method") && m.value("id", Json()) == id) return m;
      }
      char buf[65536];
      ssize_t n = ::read(from_, buf, sizeof buf);
      if (n <= 0) throw std::runtime_error("server closed its output");
      decoder_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    }
  }
  long rssKb() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  greenlight::protocol::FrameDecoder decoder_;
};

struct Stats {
  double p50, p99, max;
};
Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))]; };
  return {at(0.50), at(0.99), v.back()};
}
double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

Json position(int line, int character) {
  Json p;
  p["line"] = line;
  p["character"] = character;
  return p;
}
Json rangeAt(int line, int character) {
  Json r;
  r["start"] = position(line, character);
  r["end"] = position(line, character);
  return r;
}
Json codeActionRequest(std::int64_t id, const std::string& uri, int line) {
  Json m;
  m["jsonrpc"] = "2.0";
  m["id"] = id;
  m["method"] = "textDocument/codeAction";
  m["params"]["textDocument"]["uri"] = uri;
  m["params"]["range"] = rangeAt(line, 30);
  m["params"]["context"]["diagnostics"] = Json::array();
  return m;
}
Json didChangeNote(const std::string& uri, std::int64_t version, int line) {
  Json m;
  m["jsonrpc"] = "2.0";
  m["method"] = "textDocument/didChange";
  m["params"]["textDocument"]["uri"] = uri;
  m["params"]["textDocument"]["version"] = version;
  Json change;
  change["range"] = rangeAt(line, 4);
  change["text"] = "x";
  m["params"]["contentChanges"] = Json::array({change});
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = GREENLIGHT_BIN;
  int iterations = 2000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--server") && i + 1 < argc) binary = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--iterations N] [--server PATH]\n", argv[0]);
      return 2;
    }
  }
  std::signal(SIGPIPE, SIG_IGN);

  // A 20,000-line Python-ish document with some non-ASCII text.
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "def function_" + std::to_string(i) + "(x):  # \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80\n    return x + " + std::to_string(i) + "\n";
  // (that is 40,000 lines; keep exactly 20,000)
  {
    std::size_t pos = 0;
    for (int i = 0; i < 20000; ++i) pos = text.find('\n', pos) + 1;
    text.resize(pos);
  }
  const std::string uri = "file:///tmp/greenlight-bench/big.py";

  ServerProcess server(binary);
  std::int64_t id = 1;
  Json init = Json::parse(R"({"jsonrpc":"2.0","method":"initialize","params":{"processId":null,"rootUri":null,
    "capabilities":{"textDocument":{"codeAction":{"codeActionLiteralSupport":{"codeActionKind":{"valueSet":["source"]}}}}}}})");
  init["id"] = id;
  server.send(init);
  server.waitFor(id++);
  {
    Json m;
    m["jsonrpc"] = "2.0";
    m["method"] = "initialized";
    m["params"] = Json::object();
    server.send(m);
  }
  server.send(codeActionRequest(id, "file:///none.py", 0));
  server.waitFor(id++);
  ::usleep(200000);
  long idleRss = server.rssKb();
  {
    Json m;
    m["jsonrpc"] = "2.0";
    m["method"] = "textDocument/didOpen";
    m["params"]["textDocument"]["uri"] = uri;
    m["params"]["textDocument"]["languageId"] = "python";
    m["params"]["textDocument"]["version"] = 1;
    m["params"]["textDocument"]["text"] = text;
    server.send(m);
  }
  std::mt19937 rng(42);
  std::int64_t version = 1;
  auto codeAction = [&](std::int64_t rid, int line) { return codeActionRequest(rid, uri, line); };
  auto didChange = [&](int line) { return didChangeNote(uri, ++version, line); };

  // Warm-up.
  for (int i = 0; i < 100; ++i) {
    server.send(codeAction(id, static_cast<int>(rng() % 20000)));
    server.waitFor(id++);
  }
  std::vector<double> codeActionMs, pairMs;
  for (int i = 0; i < iterations; ++i) {
    auto t0 = Clock::now();
    server.send(codeAction(id, static_cast<int>(rng() % 20000)));
    server.waitFor(id++);
    codeActionMs.push_back(ms(Clock::now() - t0));
  }
  for (int i = 0; i < iterations; ++i) {
    int line = static_cast<int>(rng() % 20000);
    auto t0 = Clock::now();
    server.send(didChange(line));
    server.send(codeAction(id, line));
    server.waitFor(id++);
    pairMs.push_back(ms(Clock::now() - t0));
  }
  long openRss = server.rssKb();
  {
    Json m;
    m["jsonrpc"] = "2.0";
    m["id"] = id;
    m["method"] = "shutdown";
    server.send(m);
  }
  server.waitFor(id++);
  {
    Json m;
    m["jsonrpc"] = "2.0";
    m["method"] = "exit";
    server.send(m);
  }

  // In-process: the server's work for one didChange (decode params + apply to the store).
  greenlight::core::DocumentStore store;
  store.open({uri, "python", 1, text});
  std::vector<double> applyMs;
  std::int64_t v = 1;
  for (int i = 0; i < iterations; ++i) {
    Json params = didChange(static_cast<int>(rng() % 20000))["params"];
    auto t0 = Clock::now();
    auto p = greenlight::protocol::parse<greenlight::protocol::DidChangeTextDocumentParams>(params);
    p.textDocument.version = ++v;
    std::string error;
    store.change(p.textDocument, p.contentChanges, greenlight::protocol::PositionEncoding::Utf16, &error);
    applyMs.push_back(ms(Clock::now() - t0));
  }

  Stats ca = stats(codeActionMs), pair = stats(pairMs), apply = stats(applyMs);
  std::printf("greenlight LSP latency (%d iterations, 20,000-line document, %zu bytes)\n", iterations, text.size());
  std::printf("  codeAction round trip          p50 %.3f ms  p99 %.3f ms  max %.3f ms   (goal p99 < 2 ms)\n", ca.p50, ca.p99, ca.max);
  std::printf("  didChange+codeAction round trip p50 %.3f ms  p99 %.3f ms  max %.3f ms\n", pair.p50, pair.p99, pair.max);
  std::printf("  didChange over the pipe (pair - codeAction p50)  p50 %.3f ms  p99 %.3f ms\n",
              std::max(0.0, pair.p50 - ca.p50), std::max(0.0, pair.p99 - ca.p50));
  std::printf("  didChange server work (decode + apply, in-process)  p50 %.4f ms  p99 %.4f ms  max %.4f ms   (goal p99 < 0.2 ms)\n",
              apply.p50, apply.p99, apply.max);
  std::printf("  server RSS idle after initialize: %.1f MB (goal < 20 MB); with the document open: %.1f MB\n",
              static_cast<double>(idleRss) / 1024.0, static_cast<double>(openRss) / 1024.0);
  return 0;
}
