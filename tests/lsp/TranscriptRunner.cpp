// Runs one golden LSP transcript against an in-process server (clangd lit-test style).
//
// Transcript format (tests/lsp/transcripts/*.txt):
//   - Chunks are separated by lines consisting of "---"; lines starting with "#" are comments.
//   - A chunk starting with "<--" is an EXPECTATION: the JSON after it is a pattern that the
//     server's output must contain, in order (each expectation matches a message after the one
//     the previous expectation matched; unmatched messages in between are allowed).
//   - A chunk starting with "<--never" is a pattern that NO server message may match.
//   - A chunk starting with "<--exactly N" is a pattern that exactly N server messages of the
//     whole session must match (e.g. one workspace/applyEdit, not a second one later).
//   - "exit-code: N" checks the server's exit code once the session ended.
//   - Any other chunk is a client message, sent verbatim as one body (so it may be invalid
//     JSON). Client messages are delivered in order, one per loop turn; the server's requests
//     get their ids from 1 upward, so a transcript can answer them with a hand-written response.
//   Patterns match by subset: every key of a pattern object must be present and match; arrays
//   must have the same length and match element-wise; the string "<any>" matches any value,
//   "<absent>" requires the key to be missing and "<starts:TEXT>" matches a string beginning
//   with TEXT (a message whose tail names times or paths).
// Always checked: every client request gets exactly one response.
//
// Sequential transcripts (generate / fix with a scripted model) add directives, and then run in
// order: a client chunk is sent when reached, an expectation waits (up to 120 s, 4x under
// sanitizers) until a new server message matches it, so a later client chunk can answer a
// request the server sent after the previous expectation.
//   workspace: DIR      copy tests/lsp/workspaces/DIR to a temporary directory
//   model: SCRIPT       start tests/fakes/scripted_model.py with tests/lsp/workspaces/SCRIPT
//                       (GREENLIGHT_BASE_URL points at it, GREENLIGHT_MODEL=scripted)
//   env: NAME=VALUE     one more variable of the configuration's environment layer
//   sleep: MS           run the server this long before the next chunk
//   # mode: sequential  sequential without any of the above
// In sequential transcripts, "<capture:NAME>" in a pattern matches any value and keeps it;
// ${NAME} in a later client chunk is replaced by it (a string's text, else its JSON).
// ${WORKSPACE} / ${WORKSPACE_URI} are the copy's path and file URI; ${FILE:REL} is the JSON
// escaped content of a file of the copy (to paste into didOpen's "text").
//
// usage: lsp_transcript_runner FILE   (exit 0 on success; prints what failed)
#include <boost/asio/io_context.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include "TestTime.h"
#include "lsp/MemoryTransport.h"
#include "lsp/Server.h"
#include "lsp/features/Features.h"

using namespace greenlight;
using protocol::Json;

namespace {

bool matches(const Json& pattern, const Json& actual, std::map<std::string, Json>* captures = nullptr) {
  if (pattern.is_string() && pattern == "<any>") return true;
  if (pattern.is_string() && pattern.get<std::string>().rfind("<capture:", 0) == 0) {
    std::string name = pattern.get<std::string>().substr(9);
    if (!name.empty() && name.back() == '>') name.pop_back();
    if (captures) (*captures)[name] = actual;
    return true;
  }
  if (pattern.is_string() && pattern.get<std::string>().rfind("<starts:", 0) == 0) {
    std::string prefix = pattern.get<std::string>().substr(8);
    if (!prefix.empty() && prefix.back() == '>') prefix.pop_back();
    return actual.is_string() && actual.get<std::string>().rfind(prefix, 0) == 0;
  }
  if (pattern.is_object()) {
    if (!actual.is_object()) return false;
    for (auto& [key, sub] : pattern.items()) {
      auto it = actual.find(key);
      if (sub.is_string() && sub == "<absent>") {
        if (it != actual.end()) return false;
        continue;
      }
      if (it == actual.end() || !matches(sub, *it, captures)) return false;
    }
    return true;
  }
  if (pattern.is_array()) {
    if (!actual.is_array() || actual.size() != pattern.size()) return false;
    for (std::size_t i = 0; i < pattern.size(); ++i)
      if (!matches(pattern[i], actual[i], captures)) return false;
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

std::string jsonEscaped(const std::string& text) {
  std::string quoted = Json(text).dump();
  return quoted.substr(1, quoted.size() - 2);
}

// The scripted model, in its own process group, stopped when the transcript ends.
struct ScriptedModel {
  pid_t pid = -1;
  int port = 0;
  ~ScriptedModel() {
    if (pid > 0) {
      ::kill(-pid, SIGTERM);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
  }
  bool start(const std::string& script, const std::string& dir, std::string* error) {
    std::string portFile = dir + "/model.port";
    pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      int devnull = ::open("/dev/null", O_RDWR);
      ::dup2(devnull, 0);
      ::dup2(devnull, 1);
      std::string log = dir + "/model.log";
      ::execlp("python3", "python3", GL_SCRIPTED_MODEL, "--script", script.c_str(), "--port-file", portFile.c_str(),
               "--log", log.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const auto bound = gltest::scaled(std::chrono::seconds(30));
    auto deadline = std::chrono::steady_clock::now() + bound;
    while (std::chrono::steady_clock::now() < deadline) {
      std::ifstream f(portFile);
      if (f >> port && port > 0) return true;
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        *error = "the scripted model exited at start";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    *error = "the scripted model did not start within " + std::to_string(bound.count() / 1000) + " s";
    return false;
  }
};

struct Step {
  enum Kind { Client, Expect, Never, Exactly, Sleep } kind;
  std::string text;
  Json pattern;
  int ms = 0;  // Sleep: milliseconds; Exactly: the count
};

// "<--never PATTERN" (count 0) and "<--exactly N PATTERN": how many of `output` match.
int checkCount(const char* file, const std::string& text, const Json& pattern, int want, const std::vector<Json>& output) {
  std::vector<const Json*> hits;
  for (const auto& m : output)
    if (matches(pattern, m)) hits.push_back(&m);
  if (static_cast<int>(hits.size()) == want) return 0;
  if (want == 0) {
    for (const Json* m : hits) std::cerr << "FAIL: a message matched <--never " << text << "\n  " << m->dump() << "\n";
  } else {
    std::cerr << file << ": FAIL: " << hits.size() << " messages matched <--exactly " << want << " " << text << "\n";
    for (const Json* m : hits) std::cerr << "  " << m->dump() << "\n";
  }
  return 1;
}

std::string substitute(std::string text, const std::map<std::string, std::string>& vars, const std::string& workspace,
                       std::string* error) {
  std::string out;
  std::size_t pos = 0;
  for (;;) {
    std::size_t at = text.find("${", pos);
    if (at == std::string::npos) break;
    std::size_t end = text.find('}', at);
    if (end == std::string::npos) break;
    out += text.substr(pos, at - pos);
    std::string name = text.substr(at + 2, end - at - 2);
    if (name.rfind("FILE:", 0) == 0) {
      std::ifstream f(workspace + "/" + name.substr(5), std::ios::binary);
      std::stringstream b;
      b << f.rdbuf();
      if (!f) *error = "cannot read " + name.substr(5);
      out += jsonEscaped(b.str());
    } else if (auto it = vars.find(name); it != vars.end()) {
      out += it->second;
    } else {
      *error = "unknown ${" + name + "}";
    }
    pos = end + 1;
  }
  return out + text.substr(pos);
}

int runSequential(const char* file, const std::vector<Step>& steps, const std::map<std::string, std::string>& directives,
                  const std::map<std::string, std::string>& extraEnv, std::optional<int> expectedExit) {
  namespace fs = std::filesystem;
  std::string tmpl = (fs::temp_directory_path() / "gl-transcript-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) {
    std::cerr << "mkdtemp failed\n";
    return 2;
  }
  const std::string dir = tmpl;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};
  std::map<std::string, std::string> vars;
  std::map<std::string, std::string> env = extraEnv;
  const std::string workspace = dir + "/ws";
  fs::create_directories(workspace);
  if (auto it = directives.find("workspace"); it != directives.end()) {
    std::error_code ec;
    fs::copy(std::string(GL_TRANSCRIPT_WORKSPACES) + "/" + it->second, workspace, fs::copy_options::recursive, ec);
    if (ec) {
      std::cerr << file << ": copying workspace " << it->second << ": " << ec.message() << "\n";
      return 2;
    }
  }
  {
    // The sandbox's user configures and builds a C++ project's copy: it must read it, as the
    // project checks make theirs (mkdtemp made the directory 0700).
    std::error_code ec;
    const auto read = fs::perms::group_read | fs::perms::others_read;
    const auto enter = fs::perms::group_exec | fs::perms::others_exec;
    fs::permissions(dir, read | enter, fs::perm_options::add, ec);
    fs::permissions(workspace, read | enter, fs::perm_options::add, ec);
    for (fs::recursive_directory_iterator i(workspace, ec), end; !ec && i != end; i.increment(ec))
      fs::permissions(i->path(), i->is_directory() ? read | enter : read, fs::perm_options::add, ec);
  }
  vars["WORKSPACE"] = workspace;
  vars["WORKSPACE_URI"] = "file://" + workspace;
  ScriptedModel model;
  if (auto it = directives.find("model"); it != directives.end()) {
    std::string error;
    if (!model.start(std::string(GL_TRANSCRIPT_WORKSPACES) + "/" + it->second, dir, &error)) {
      std::cerr << file << ": " << error << "\n";
      return 2;
    }
    env["GREENLIGHT_BASE_URL"] = "http://127.0.0.1:" + std::to_string(model.port) + "/v1";
    env["GREENLIGHT_MODEL"] = "scripted";
    vars["MODEL_LOG"] = dir + "/model.log";
  }
  // Test runs must not share a harness cache with anything else.
  ::setenv("XDG_CACHE_HOME", (dir + "/cache").c_str(), 1);

  boost::asio::io_context io;
  lsp::MemoryTransport transport(io);
  lsp::ServerOptions options;
  options.version = "test";
  options.workerThreads = 2;
  options.environment = env;
  options.forwardLogs = false;
  std::vector<Json> output;
  std::vector<std::string> clientSent;
  std::map<std::string, Json> captures;
  int failures = 0;
  const auto patience = gltest::scaled(std::chrono::seconds(120));
  int exitCode = -1;
  {
    lsp::Server server(io, transport, options);
    lsp::registerAllFeatures(server);
    server.start();
    std::size_t seen = 0, cursor = 0;
    auto pump = [&](std::chrono::milliseconds slice) {
      if (io.stopped()) io.restart();
      io.run_one_for(slice);
      for (; seen < transport.sent().size(); ++seen) output.push_back(Json::parse(transport.sent()[seen]));
    };
    for (const auto& step : steps) {
      if (failures) break;
      if (step.kind == Step::Client) {
        std::map<std::string, std::string> all = vars;
        for (const auto& [k, v] : captures) all[k] = v.is_string() ? v.get<std::string>() : v.dump();
        std::string error;
        std::string body = substitute(step.text, all, workspace, &error);
        if (!error.empty()) {
          std::cerr << file << ": " << error << "\n";
          return 2;
        }
        clientSent.push_back(body);
        transport.push(body);
      } else if (step.kind == Step::Sleep) {
        auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(step.ms);
        while (std::chrono::steady_clock::now() < until && !server.finished()) pump(std::chrono::milliseconds(5));
      } else if (step.kind == Step::Expect) {
        std::string error;
        Json pattern = Json::parse(substitute(step.text, vars, workspace, &error), nullptr, false);
        if (!error.empty() || pattern.is_discarded()) {
          std::cerr << file << ": bad expectation " << step.text << " " << error << "\n";
          return 2;
        }
        auto deadline = std::chrono::steady_clock::now() + patience;
        bool found = false;
        while (!found && std::chrono::steady_clock::now() < deadline) {
          for (; cursor < output.size(); ++cursor) {
            std::map<std::string, Json> got;
            if (matches(pattern, output[cursor], &got)) {
              for (auto& [k, v] : got) captures[k] = v;
              found = true;
              ++cursor;
              break;
            }
          }
          if (!found) {
            if (server.finished()) break;
            pump(std::chrono::milliseconds(5));
          }
        }
        if (!found) {
          std::cerr << "FAIL: no server message (in order) matches\n  " << step.text << "\n";
          ++failures;
        }
      }
    }
    // The end: EOF once idle (unless the transcript sent exit).
    auto deadline = std::chrono::steady_clock::now() + patience;
    auto idleSince = std::chrono::steady_clock::now();
    bool closed = false;
    while (!server.finished() && std::chrono::steady_clock::now() < deadline) {
      pump(std::chrono::milliseconds(5));
      bool busy = transport.pendingInput() > 0 || server.threadPool().active() > 0 || server.threadPool().pending() > 0;
      if (busy) idleSince = std::chrono::steady_clock::now();
      if (!closed && std::chrono::steady_clock::now() - idleSince > std::chrono::milliseconds(300)) {
        transport.close();
        closed = true;
      }
    }
    if (!server.finished()) {
      std::cerr << file << ": the session did not end\n";
      ++failures;
    }
    io.restart();
    io.poll();
    for (std::size_t i = output.size(); i < transport.sent().size(); ++i) output.push_back(Json::parse(transport.sent()[i]));
    exitCode = server.exitCode();
  }
  for (const auto& step : steps) {
    if (step.kind != Step::Never && step.kind != Step::Exactly) continue;
    std::string error;
    Json pattern = Json::parse(substitute(step.text, vars, workspace, &error), nullptr, false);
    if (pattern.is_discarded()) pattern = step.pattern;
    failures += checkCount(file, step.text, pattern, step.kind == Step::Never ? 0 : step.ms, output);
  }
  for (const auto& m : clientSent) {
    Json j = Json::parse(m, nullptr, false);
    if (!j.is_object() || !j.contains("method") || !j.contains("id") || j["id"].is_null()) continue;
    int count = 0;
    for (const auto& o : output)
      if (!o.contains("method") && o.contains("id") && o["id"] == j["id"]) ++count;
    if (count != 1) {
      std::cerr << "FAIL: request " << j["id"].dump() << " (" << j["method"].dump() << ") got " << count << " responses\n";
      ++failures;
    }
  }
  if (expectedExit && *expectedExit != exitCode) {
    std::cerr << "FAIL: exit code " << exitCode << ", expected " << *expectedExit << "\n";
    ++failures;
  }
  if (failures) {
    std::cerr << "server output:\n";
    for (const auto& m : output) std::cerr << "  " << m.dump() << "\n";
    return 1;
  }
  std::cout << file << ": " << steps.size() << " steps: ok\n";
  return 0;
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
    int count = -1;  // >= 0: "<--never" (0) or "<--exactly N"; -1: in order
  };
  std::vector<std::string> clientMessages;
  std::vector<Expectation> expectations;
  std::optional<int> expectedExit;
  std::vector<Step> steps;
  std::map<std::string, std::string> directives;
  std::map<std::string, std::string> extraEnv;
  bool sequential = buf.str().find("# mode: sequential") != std::string::npos;
  for (const std::string& raw : lsp::splitMessages(buf.str())) {
    std::string chunk = trimmed(raw);
    bool never = chunk.rfind("<--never", 0) == 0;
    bool exactly = chunk.rfind("<--exactly", 0) == 0;
    if (never || exactly || chunk.rfind("<--", 0) == 0) {
      std::string text = trimmed(chunk.substr(never ? 8 : exactly ? 10 : 3));
      int count = never ? 0 : -1;
      if (exactly) {
        std::size_t digits = text.find_first_not_of("0123456789");
        if (digits == 0 || digits == std::string::npos) {
          std::cerr << argv[1] << ": <--exactly needs a count, then a pattern:\n" << chunk << "\n";
          return 2;
        }
        count = std::stoi(text.substr(0, digits));
        text = trimmed(text.substr(digits));
      }
      Json pattern = Json::parse(text, nullptr, false);
      if (pattern.is_discarded()) {
        std::cerr << argv[1] << ": expectation is not JSON:\n" << text << "\n";
        return 2;
      }
      expectations.push_back({pattern, never, text, count});
      steps.push_back({never ? Step::Never : exactly ? Step::Exactly : Step::Expect, text, pattern, exactly ? count : 0});
    } else if (chunk.rfind("exit-code:", 0) == 0) {
      expectedExit = std::stoi(chunk.substr(10));
    } else if (chunk.rfind("workspace:", 0) == 0 || chunk.rfind("model:", 0) == 0) {
      auto colon = chunk.find(':');
      directives[chunk.substr(0, colon)] = trimmed(chunk.substr(colon + 1));
      sequential = true;
    } else if (chunk.rfind("env:", 0) == 0) {
      std::string kv = trimmed(chunk.substr(4));
      auto eq = kv.find('=');
      extraEnv[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
      sequential = true;
    } else if (chunk.rfind("sleep:", 0) == 0) {
      steps.push_back({Step::Sleep, chunk, Json(), std::stoi(chunk.substr(6))});
      sequential = true;
    } else {
      clientMessages.push_back(chunk);
      steps.push_back({Step::Client, chunk, Json(), 0});
    }
  }
  if (sequential) return runSequential(argv[1], steps, directives, extraEnv, expectedExit);

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
    if (e.count >= 0) {
      failures += checkCount(argv[1], e.text, e.pattern, e.count, output);
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
