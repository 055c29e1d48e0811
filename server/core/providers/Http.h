// The provider layer's view of HTTP: start a request, get its head, body pieces and one final
// outcome through callbacks. CurlTransport is the real implementation; tests may substitute
// their own where a real server is not needed.
//
// Thread-safety: start(), cancel() and post() may be called from any thread, including from
// inside a callback. Callbacks of every request run on the transport's single I/O thread, one at
// a time, and must not block.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace greenlight::core::providers {

struct HttpRequest {
  std::string method = "POST";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // name, value
  std::string body;
  std::chrono::milliseconds totalTimeout{120000};  // 0: none
  std::chrono::milliseconds connectTimeout{10000};
  // A stream that delivers no byte for this long is abandoned (0: no stall check).
  std::chrono::milliseconds stallTimeout{0};
};

struct HttpHead {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased; repeated headers: the last
};

enum class HttpFailure {
  None,
  Connect,    // refused / unreachable / reset during connect
  Resolve,    // DNS
  Tls,
  Timeout,    // totalTimeout
  Stall,      // stallTimeout
  Dropped,    // connection closed or reset mid-response, or nothing received
  Aborted,    // a body callback returned false
  Cancelled,  // cancel()
  Library,    // libcurl could not be loaded
  Other,
};

struct HttpOutcome {
  HttpFailure failure = HttpFailure::None;
  int status = 0;          // HTTP status when a response head arrived
  std::string detail;      // the transport's own words (curl's error buffer)
  std::uint64_t bytesReceived = 0;
};

struct HttpHandlers {
  // Once, before the first body byte (or before onDone when there is no body).
  std::function<void(const HttpHead&)> onHead;
  // Body bytes as they arrive. Return false to abort the transfer (outcome Aborted).
  std::function<bool(std::string_view)> onBody;
  // Exactly once, last.
  std::function<void(const HttpOutcome&)> onDone;
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Returns an id for cancel(). Never calls handlers synchronously.
  virtual std::uint64_t start(HttpRequest request, HttpHandlers handlers) = 0;
  // Aborts the transfer; its onDone reports Cancelled (unless it already finished).
  virtual void cancel(std::uint64_t id) = 0;
  // Runs `fn` on the I/O thread soon.
  virtual void post(std::function<void()> fn) = 0;
  // True when called on the I/O thread.
  virtual bool onIoThread() const = 0;
};

}  // namespace greenlight::core::providers
