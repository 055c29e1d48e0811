// The two wire protocols: building the HTTP request, decoding a streamed or whole reply, and
// reading a provider's error body. No I/O here.
//
//  - OpenAI Chat Completions: POST {baseUrl}/chat/completions, Authorization: Bearer, streamed
//    chat.completion.chunk events with choices[].delta until "data: [DONE]", usage in a last
//    chunk when stream_options.include_usage is set.
//  - Anthropic Messages: POST {baseUrl}/v1/messages, x-api-key, anthropic-version: 2023-06-01,
//    events message_start, content_block_start/delta/stop, message_delta, message_stop, ping,
//    error.
//
// Thread-safety: StreamDecoder is used by one thread at a time; the functions are pure.
#pragma once

#include <string>
#include <string_view>

#include "core/providers/Endpoint.h"
#include "core/providers/Http.h"
#include "core/providers/Sse.h"
#include "core/providers/Types.h"

namespace greenlight::core::providers {

HttpRequest buildHttpRequest(const Endpoint& endpoint, const ChatRequest& request);

// An error the provider reported inside a 200 reply (an SSE error event or an error object).
struct ReplyFailure {
  std::string type;     // "overloaded_error", "server_error", ... ("" when not given)
  std::string message;
  bool retryable = false;
};

class StreamDecoder {
 public:
  explicit StreamDecoder(Protocol protocol) : protocol_(protocol) {}
  // Handles one event; new reply text is appended to `delta`. Returns false when the stream
  // must stop: malformed() or failure() then says why.
  bool onEvent(const SseEvent& event, std::string& delta);
  // The provider said the reply is over ([DONE], message_stop, or a finish/stop reason).
  bool complete() const { return done_ || finishSeen_; }
  bool done() const { return done_; }
  const std::string& malformed() const { return malformed_; }
  const ReplyFailure* failure() const { return failed_ ? &failure_ : nullptr; }
  ChatResult& result() { return result_; }

 private:
  bool onOpenAI(const SseEvent& event, std::string& delta);
  bool onAnthropic(const SseEvent& event, std::string& delta);
  bool fail(std::string why, const SseEvent& event);

  Protocol protocol_;
  ChatResult result_;
  bool done_ = false, finishSeen_ = false, failed_ = false;
  std::string malformed_;
  ReplyFailure failure_;
  std::size_t events_ = 0;
};

// Parses a whole (non-streamed) reply body into `out`. Returns false with `malformed` set for
// unparseable bodies, or with `failure` set when the body is an error object.
bool parseWholeReply(Protocol protocol, std::string_view body, ChatResult& out,
                     std::string& malformed, ReplyFailure& failure);

// The provider's own message from an error body: error.message, error (a string), message or
// detail; else the start of the body. Never longer than ~300 characters.
std::string providerErrorMessage(std::string_view body);

}  // namespace greenlight::core::providers
