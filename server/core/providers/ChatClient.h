// Sending a chat request to a provider and getting its reply back, streamed.
//
//   ChatClient client;                       // owns the I/O thread (CurlTransport)
//   client.start(endpoint, request, {.onDelta = ..., .onDone = ...}, token);  // returns at once
//   ChatResult r = client.complete(endpoint, request, token, onDelta);        // blocking helper
//
// Retries (408/409/429/5xx/529, and provider "overloaded" errors before any text arrived) wait
// with exponential backoff and jitter, honouring retry-after-ms / retry-after, within
// endpoint.timeoutSeconds for the whole call. A reply is delivered whole or not at all: a
// stream that ends before the provider's end marker is an error, and ChatResult::text is empty
// on every error (the deltas already delivered must then be treated as void by the caller).
//
// Threading: start() may be called from any thread and never blocks. Every callback of every
// call (onDelta, onRetry, onDone) runs on the transport's I/O thread, one at a time: keep them
// short, never block in them. onDone runs exactly once per start(). A CancellationToken aborts
// the call within one loop turn of the I/O thread (well under 100 ms); onDone then reports
// ErrorKind::Cancelled. complete() blocks the calling thread and must not be called on the I/O
// thread (it returns an Internal error if it is). Destroying the ChatClient cancels the calls
// still running (each gets its onDone) and joins the I/O thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string_view>

#include "core/providers/Clock.h"
#include "core/providers/Endpoint.h"
#include "core/providers/Http.h"
#include "core/providers/Types.h"
#include "support/Cancellation.h"

namespace greenlight::core::providers {

struct ChatCallbacks {
  std::function<void(std::string_view delta)> onDelta;
  // Before each retry wait: the attempt that failed (1-based), the wait, and why.
  std::function<void(int attempt, std::chrono::milliseconds wait, const ProviderError& why)> onRetry;
  std::function<void(ChatResult result)> onDone;
};

class ChatClient {
 public:
  // The real thing: a CurlTransport (libcurl loaded on first use) and the system clock.
  ChatClient();
  // For tests: any transport and clock. The clock's timers must run their functions on the
  // transport's I/O thread (post() from the timer is enough), and the clock must not own the
  // transport (calls in flight hold the clock; hold the transport weakly, as SystemClock does).
  ChatClient(std::shared_ptr<HttpTransport> transport, std::shared_ptr<Clock> clock);
  ~ChatClient();
  ChatClient(const ChatClient&) = delete;
  ChatClient& operator=(const ChatClient&) = delete;

  void start(const Endpoint& endpoint, ChatRequest request, ChatCallbacks callbacks,
             support::CancellationToken token = {});

  ChatResult complete(const Endpoint& endpoint, ChatRequest request,
                      support::CancellationToken token = {},
                      std::function<void(std::string_view)> onDelta = {},
                      std::function<void(int, std::chrono::milliseconds, const ProviderError&)> onRetry = {});

  HttpTransport& transport() { return *transport_; }

  struct Call;  // internal

 private:
  std::shared_ptr<HttpTransport> transport_;
  std::shared_ptr<Clock> clock_;
};

}  // namespace greenlight::core::providers
