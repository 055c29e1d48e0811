// How the server exchanges message bodies with a client (the idea of clangd's Transport.h).
//
// A Transport owns framing and I/O; the Server only sees whole message bodies. Two
// implementations: StdioTransport (Content-Length framing on fds 0/1 through Boost.Asio, never
// blocking the loop) and MemoryTransport (in-process: tests, transcripts, the fuzzer).
//
// Threading: every member is called on the event-loop thread (the thread running the
// io_context), and every callback is invoked there.
#pragma once

#include <functional>
#include <string>

namespace greenlight::lsp {

class Transport {
 public:
  struct Callbacks {
    // One complete message body (not yet parsed: the server answers -32700 for bad JSON).
    std::function<void(std::string body)> onMessage;
    // The byte stream was not valid framing. The transport keeps reading (the framing codec
    // resynchronises on the next "Content-Length:"), so this is informational.
    std::function<void(const std::string& error)> onFramingError;
    // Input ended (EOF or a read error). Called once; no onMessage follows.
    std::function<void(const std::string& why)> onClosed;
  };

  virtual ~Transport() = default;
  // Starts delivering input to `callbacks`.
  virtual void start(Callbacks callbacks) = 0;
  // Queues one body for sending; never blocks. Dropped silently after the output failed.
  virtual void send(std::string body) = 0;
  // Stops reading and calls `done` (on the loop) once every queued body has been written or
  // writing has failed. Idempotent: later calls only add `done` callbacks.
  virtual void finish(std::function<void()> done) = 0;
};

}  // namespace greenlight::lsp
