// Runs one golden LSP transcript against an in-process server (clangd lit-test style).
//
// Transcript format (tests/lsp/transcripts/*.txt):
//   - Chunks are separated by lines consisting of "---"; lines starting with "#" are comments.
//   - A chunk starting with "<--" is an EXPECTATION: the JSON after it is a pattern that the
//     server's output must contain, in order (each expectation matches a message after the one
//     the previous expectation matched; unmatched messages in between are allowed).
//   - A chunk starting with "<--never" is a pattern that NO server message may match.
//   - "exit-code: N" checks the server's exit code once the session ended.
//   - Any other chunk is a client message, sent verbatim as one body (so it may be invalid
//     JSON). Client messages are delivered in order, one per loop turn; the server's requests
//     get their ids from 1 upward, so a transcript can answer them with a hand-written response.
//   Patterns match by subset: every key of a pattern object must be present and match; arrays
//   must have the same length and match element-wise; the string "<any>" matches any value and
//   "<absent>" requires the key to be missing.
// Always checked: every client request gets exactly one response.
//
// usage: lsp_transcript_runner FILE   (exit 0 on success; prints what failed)
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "TestTime.h"
#include "lsp/MemoryTransport.h"
#include "lsp/Server.h"
#include "lsp/features/Features.h"

using namespace greenlight;
using protocol::Json;

namespace {

bool matches(const Json& pattern, const Json& actual) {
  if (pattern.is_string() && pattern == "<any>") return true;
  if (pattern.is_object()) {
    if (!actual.is_object()) return false;
    for (auto& [key, sub] : pattern.items()) {
      auto it = actual.find(key);
      if (sub.is_string() && sub == "<absent>") {
        if (it != actual.end()) return false;
        continue;
      }
      if (it == actual.end() || !matches(sub, *it)) return false;
    }
    return true;
  }
  if (pattern.is_array()) {
    if (!actual.is_array() || actual.size() != pattern.size()) return false;
    for (std::size_t i = 0; i < pattern.size(); ++i)
      if (!matches(pattern[i], actual[i])) return false;
    return true;
  }
  if (pattern.is_number() && actual.is_number()) return pattern.get<double>() == actual.get<double>();
  return pattern == actual;
}

std::string trimmed(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  std::size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: lsp_transcript_runner FILE\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 2;
  }
  std::stringstream buf;
  buf << in.rdbuf();

  struct Expectation {
    Json pattern;
    bool never;
    std::string text;
  };
  std::vector<std::string> clientMessages;
  std::vector<Expectation> expectations;
  std::optional<int> expectedExit;
  for (const std::string& raw : lsp::splitMessages(buf.str())) {
    std::string chunk = trimmed(raw);
    bool never = chunk.rfind("<--never", 0) == 0;
    if (never || chunk.rfind("<--", 0) == 0) {
      std::string text = trimmed(chunk.substr(never ? 8 : 3));
      Json pattern = Json::parse(text, nullptr, false);
      if (pattern.is_discarded()) {
        std::cerr << argv[1] << ": expectation is not JSON:\n" << text << "\n";
        return 2;
      }
      expectations.push_back({pattern, never, text});
    } else if (chunk.rfind("exit-code:", 0) == 0) {
      expectedExit = std::stoi(chunk.substr(10));
    } else {
      clientMessages.push_back(chunk);
    }
  }

  boost::asio::io_context io;
  lsp::MemoryTransport transport(io);
  lsp::ServerOptions options;
  options.version = "test";
  options.workerThreads = 2;
  options.environment = std::map<std::string, std::string>{};
  options.forwardLogs = false;
  int exitCode = -1;
  {
    lsp::Server server(io, transport, options);
    lsp::registerAllFeatures(server);
    server.start();
    for (const auto& m : clientMessages) transport.push(m);
    const auto bound = gltest::scaled(std::chrono::seconds(20));
    auto deadline = std::chrono::steady_clock::now() + bound;
    auto idleSince = std::chrono::steady_clock::now();
    bool closed = false;
    while (!server.finished() && std::chrono::steady_clock::now() < deadline) {
      if (io.stopped()) io.restart();
      std::size_t n = io.run_one_for(std::chrono::milliseconds(5));
      bool busy = n > 0 || transport.pendingInput() > 0 || server.threadPool().active() > 0 ||
                  server.threadPool().pending() > 0;
      if (busy) idleSince = std::chrono::steady_clock::now();
      // A transcript without `exit` ends with EOF once the server is idle.
      if (!closed && std::chrono::steady_clock::now() - idleSince > std::chrono::milliseconds(200)) {
        transport.close();
        closed = true;
      }
    }
    if (!server.finished()) {
      std::cerr << argv[1] << ": the session did not end within " << bound.count() / 1000 << " s\n";
      return 1;
    }
    io.restart();
    io.poll();
    exitCode = server.exitCode();
  }

  std::vector<Json> output;
  for (const auto& body : transport.sent()) output.push_back(Json::parse(body));
  int failures = 0;
  auto dumpOutput = [&] {
    std::cerr << "server output:\n";
    for (const auto& m : output) std::cerr << "  " << m.dump() << "\n";
  };

  std::size_t cursor = 0;
  for (const auto& e : expectations) {
    if (e.never) {
      for (const auto& m : output)
        if (matches(e.pattern, m)) {
          std::cerr << "FAIL: a message matched <--never " << e.text << "\n  " << m.dump() << "\n";
          ++failures;
        }
      continue;
    }
    bool found = false;
    for (; cursor < output.size(); ++cursor) {
      if (matches(e.pattern, output[cursor])) {
        found = true;
        ++cursor;
        break;
      }
    }
    if (!found) {
      std::cerr << "FAIL: no server message (in order) matches\n  " << e.text << "\n";
      ++failures;
      break;
    }
  }

  // Every client request: exactly one response.
  for (const auto& m : clientMessages) {
    Json j = Json::parse(m, nullptr, false);
    if (!j.is_object() || !j.contains("method") || !j.contains("id") || j["id"].is_null()) continue;
    int count = 0;
    for (const auto& o : output)
      if (!o.contains("method") && o.contains("id") && o["id"] == j["id"]) ++count;
    if (count != 1) {
      std::cerr << "FAIL: request " << j["id"].dump() << " (" << j["method"].dump() << ") got " << count
                << " responses\n";
      ++failures;
    }
  }
  if (expectedExit && *expectedExit != exitCode) {
    std::cerr << "FAIL: exit code " << exitCode << ", expected " << *expectedExit << "\n";
    ++failures;
  }
  if (failures) {
    dumpOutput();
    return 1;
  }
  std::cout << argv[1] << ": " << expectations.size() << " expectations, " << clientMessages.size()
            << " client messages: ok\n";
  return 0;
}
