// Internal: the shared state behind a Reply and a RequestContext (see Reply.h).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "lsp/Outbox.h"
#include "protocol/JsonRpc.h"
#include "support/Cancellation.h"

namespace greenlight::lsp::detail {

struct RequestState {
  protocol::RequestId id;
  std::string method;
  std::shared_ptr<Outbox> outbox;
  std::atomic<bool> answered{false};
  support::CancellationSource cancel;
  std::chrono::steady_clock::time_point start;

  RequestState() = default;
  RequestState(const RequestState&) = delete;
  RequestState& operator=(const RequestState&) = delete;
  // Answers -32800 (if not answered yet) and fires the cancellation token.
  void cancelNow(const std::string& why);
  // Sends `message` if this is the first answer; false if it was already answered.
  bool answer(protocol::Json message);
  // Answers for a handler that dropped the request (see Reply.h).
  ~RequestState();
};

}  // namespace greenlight::lsp::detail
