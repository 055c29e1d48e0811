// The provider layer's value types: what a chat request is, what comes back, and how it failed.
//
// No LSP types and no libcurl here: the pipeline, the CLI and the tests all speak these.
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace greenlight::core::providers {

// The wire protocol a provider speaks. Ollama, llama.cpp's server, vLLM and LM Studio all speak
// OpenAI Chat Completions on their /v1 endpoints.
enum class Protocol { OpenAIChat, AnthropicMessages };
std::string_view protocolName(Protocol protocol);

struct Message {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

struct ChatRequest {
  std::string system;             // sent as the system prompt (may be empty)
  std::vector<Message> messages;  // user/assistant turns; a "system" entry is folded into system
  std::optional<std::string> model;  // overrides the endpoint's model
  std::optional<double> temperature;
  std::optional<int> maxTokens;
  std::vector<std::string> stop;
  bool stream = true;             // false: one JSON reply (still delivered through onDelta once)
  int n = 1;                      // OpenAI: ask for n choices in one request (others ignore it)
};

struct Usage {
  std::optional<int> inputTokens;
  std::optional<int> outputTokens;
};

enum class FinishReason { Stop, Length, StopSequence, ContentFilter, ToolUse, Other, Unknown };
std::string_view finishReasonName(FinishReason reason);
// Maps "stop"/"end_turn" -> Stop, "length"/"max_tokens" -> Length, ...
FinishReason finishReasonFrom(std::string_view raw);

enum class ErrorKind {
  None,
  Config,          // nothing to talk to, or a required key is missing
  LibraryMissing,  // libcurl.so.4 could not be loaded
  Auth,            // 401/403
  NotFound,        // 404
  BadRequest,      // other 4xx
  RateLimited,     // 429 after retries
  Server,          // 5xx/529/408/409 after retries
  Connect,         // connection refused / unreachable
  Dns,             // host name did not resolve
  Tls,             // certificate / handshake
  Timeout,         // total timeout (timeoutSeconds)
  Stall,           // no bytes on a stream for the stall timeout
  Dropped,         // the connection closed before the reply was complete
  Malformed,       // unparseable JSON or SSE
  StreamError,     // the provider sent an error object/event inside a 200 reply
  Cancelled,
  Internal,
};
std::string_view errorKindName(ErrorKind kind);

struct ProviderError {
  ErrorKind kind = ErrorKind::None;
  int httpStatus = 0;     // 0 when no HTTP status was received
  std::string message;    // complete, user-facing: provider, URL, what happened, what to do
  explicit operator bool() const { return kind != ErrorKind::None; }
};

struct ChatResult {
  bool ok() const { return !error; }
  std::string text;        // the whole reply; empty on error (never half an answer)
  std::vector<std::string> choices;  // choices 2..n of a request with n > 1, when the provider sent them
  std::string reasoning;   // reasoning/thinking text some models stream separately
  FinishReason finish = FinishReason::Unknown;
  std::string finishRaw;   // the provider's own word ("stop", "end_turn", ...)
  Usage usage;
  std::string model;       // as reported by the provider, when it says
  int attempts = 0;        // HTTP attempts made (1 + retries)
  ProviderError error;
};

}  // namespace greenlight::core::providers
