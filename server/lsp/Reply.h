// The answer to one client request: a handle that answers exactly once.
//
// Every request the dispatcher accepts gets a Reply. It is a cheap copyable handle to shared
// state; the FIRST result()/error() sends the response, later ones are ignored (and logged at
// debug level). If the last copy is destroyed without an answer, the destructor answers for
// it: -32800 RequestCancelled if the request was cancelled, else -32603 InternalError
// ("<method>: handler finished without answering"). A `$/cancelRequest` answers -32800 at once
// through the same state, so the handler's later result is dropped. Together this makes
// "every request gets exactly one response" structural rather than a convention.
//
// Thread-safety: result()/error()/answered() may be called from any thread; the response is
// written on the loop thread (posted when called elsewhere, in call order per thread).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "protocol/JsonRpc.h"

namespace greenlight::lsp {

namespace detail {
struct RequestState;
}

class Reply {
 public:
  Reply() = default;  // an empty handle: every call is a no-op
  explicit Reply(std::shared_ptr<detail::RequestState> state) : state_(std::move(state)) {}

  void result(protocol::Json value) const;
  template <typename T>
  void resultOf(const T& value) const {
    result(protocol::Json(value));
  }
  void error(protocol::ErrorCode code, std::string message, std::optional<protocol::Json> data = std::nullopt) const;
  bool answered() const;
  const protocol::RequestId& id() const;
  const std::string& method() const;

 private:
  std::shared_ptr<detail::RequestState> state_;
};

}  // namespace greenlight::lsp
