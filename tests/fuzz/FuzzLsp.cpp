// libFuzzer entry point over framing + dispatch: the input is a raw byte stream a client could
// send on stdin. It goes through the real FrameDecoder (via MemoryTransport::pushBytes, split
// into two chunks at a data-dependent point) into a real Server with every feature registered,
// then EOF. Any crash, sanitizer report, hang or leak is a finding.
//
// The same file builds the libFuzzer binary (GREENLIGHT_FUZZ=ON, clang) and, without libFuzzer,
// the replay ctest (ReplayMain.cpp feeds tests/fuzz/corpus and tests/fuzz/crashes through it).
#include <boost/asio/io_context.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string_view>

#include "lsp/MemoryTransport.h"
#include "lsp/Server.h"
#include "lsp/features/Features.h"
#include "support/Log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace greenlight;
  static bool quiet = [] {
    support::setLogLevel(support::LogLevel::Off);
    return true;
  }();
  (void)quiet;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::size_t split = size ? (static_cast<unsigned char>(bytes[0]) * size) / 256 : 0;

  boost::asio::io_context io;
  lsp::MemoryTransport transport(io);
  lsp::ServerOptions options;
  options.version = "fuzz";
  options.workerThreads = 1;
  options.environment = std::map<std::string, std::string>{};
  options.forwardLogs = false;
  {
    lsp::Server server(io, transport, options);
    lsp::registerAllFeatures(server);
    server.start();
    transport.pushBytes(bytes.substr(0, split));
    transport.pushBytes(bytes.substr(split));
    transport.close();
    io.run();  // ends when the session ends (exit or EOF) and nothing else is queued
    if (!server.finished()) __builtin_trap();  // EOF must always end the session
  }
  io.restart();
  io.poll();
  return 0;
}
