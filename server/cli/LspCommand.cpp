// `greenlight lsp`: the language server on stdin/stdout.
//
// Exit codes (DESIGN.md): 0 after shutdown + exit, 1 on exit (or EOF) without shutdown, 2 for
// a usage error. Logs go to stderr unless --log-file; stdout carries only LSP messages.
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>

#include "Version.h"
#include "cli/Commands.h"
#include "lsp/Server.h"
#include "lsp/StdioTransport.h"
#include "lsp/features/Features.h"
#include "sandbox/Sandbox.h"
#include "support/Log.h"

namespace greenlight::cli {
namespace {

const char kLspUsage[] =
    "usage: greenlight lsp [--stdio] [--log-file FILE] [--log-level LEVEL]\n"
    "\n"
    "Runs the language server on stdin/stdout (LSP base protocol, Content-Length framing).\n"
    "\n"
    "options:\n"
    "  --stdio             accepted and ignored (vscode-languageclient passes it)\n"
    "  --log-file FILE     append logs to FILE instead of stderr\n"
    "  --log-level LEVEL   trace, debug, info (default), warn, error, off\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit status: 0 after shutdown + exit, 1 on exit or end of input without shutdown,\n"
    "2 on a usage error.\n";

int usageError(const std::string& message) {
  std::fprintf(stderr, "greenlight lsp: %s\n\n%s", message.c_str(), kLspUsage);
  return 2;
}

}  // namespace

int lspCommand(const Args& args) {
  std::string logFile;
  std::optional<support::LogLevel> level;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> std::optional<std::string> {
      std::string prefix = std::string(flag) + "=";
      if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
      if (a == flag && i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    if (a == "--stdio" || a == "lsp") continue;
    if (a == "-h" || a == "--help") {
      std::fputs(kLspUsage, stdout);
      return 0;
    }
    if (a == "--log-file" || a.rfind("--log-file=", 0) == 0) {
      auto v = value("--log-file");
      if (!v || v->empty()) return usageError("--log-file needs a file name");
      logFile = *v;
      continue;
    }
    if (a == "--log-level" || a.rfind("--log-level=", 0) == 0) {
      auto v = value("--log-level");
      if (!v) return usageError("--log-level needs a level");
      level = support::parseLogLevel(*v);
      if (!level) return usageError("unknown log level '" + *v + "' (trace, debug, info, warn, error, off)");
      continue;
    }
    // Clients sometimes pass --clientProcessId=N (vscode-languageclient with some transports).
    if (a.rfind("--clientProcessId", 0) == 0) continue;
    return usageError("unknown option '" + a + "'");
  }
  if (level) support::setLogLevel(*level);
  if (!logFile.empty()) {
    std::string error;
    if (!support::setLogFile(logFile, &error)) return usageError(error);
  }
  // A client that goes away must not kill us mid-write; the write error is handled instead.
  std::signal(SIGPIPE, SIG_IGN);
  // A long-lived process on the interactive path: each sandbox shape the runners use is built
  // ahead, so a test run skips the sandbox's set-up (bench/sandbox: ~2 ms of ~3 per start).
  sandbox::keepSpares(true);

  boost::asio::io_context io;
  lsp::StdioTransport transport(io, 0, 1);
  lsp::ServerOptions options;
  options.version = GREENLIGHT_VERSION;
  int code = 1;
  {
    lsp::Server server(io, transport, options);
    lsp::registerAllFeatures(server);
    server.start();
    GL_LOG(Info, "greenlight " << GREENLIGHT_VERSION << " language server ready on stdio");
    io.run();
    code = server.exitCode();
  }
  return code;
}

}  // namespace greenlight::cli
