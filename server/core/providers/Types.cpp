#include "core/providers/Types.h"

namespace greenlight::core::providers {

std::string_view protocolName(Protocol protocol) {
  return protocol == Protocol::OpenAIChat ? "openai-chat" : "anthropic-messages";
}

std::string_view finishReasonName(FinishReason reason) {
  switch (reason) {
    case FinishReason::Stop: return "stop";
    case FinishReason::Length: return "length";
    case FinishReason::StopSequence: return "stop_sequence";
    case FinishReason::ContentFilter: return "content_filter";
    case FinishReason::ToolUse: return "tool_use";
    case FinishReason::Other: return "other";
    case FinishReason::Unknown: break;
  }
  return "unknown";
}

FinishReason finishReasonFrom(std::string_view raw) {
  if (raw == "stop" || raw == "end_turn" || raw == "eos") return FinishReason::Stop;
  if (raw == "length" || raw == "max_tokens" || raw == "model_context_window_exceeded") return FinishReason::Length;
  if (raw == "stop_sequence") return FinishReason::StopSequence;
  if (raw == "content_filter" || raw == "refusal") return FinishReason::ContentFilter;
  if (raw == "tool_calls" || raw == "function_call" || raw == "tool_use") return FinishReason::ToolUse;
  if (raw.empty()) return FinishReason::Unknown;
  return FinishReason::Other;
}

std::string_view errorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::None: return "none";
    case ErrorKind::Config: return "config";
    case ErrorKind::LibraryMissing: return "library_missing";
    case ErrorKind::Auth: return "auth";
    case ErrorKind::NotFound: return "not_found";
    case ErrorKind::BadRequest: return "bad_request";
    case ErrorKind::RateLimited: return "rate_limited";
    case ErrorKind::Server: return "server";
    case ErrorKind::Connect: return "connect";
    case ErrorKind::Dns: return "dns";
    case ErrorKind::Tls: return "tls";
    case ErrorKind::Timeout: return "timeout";
    case ErrorKind::Stall: return "stall";
    case ErrorKind::Dropped: return "dropped";
    case ErrorKind::Malformed: return "malformed";
    case ErrorKind::StreamError: return "stream_error";
    case ErrorKind::Cancelled: return "cancelled";
    case ErrorKind::Internal: return "internal";
  }
  return "?";
}

}  // namespace greenlight::core::providers
