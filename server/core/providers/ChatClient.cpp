#include "core/providers/ChatClient.h"

#include <cstdio>
#include <future>

#include "core/providers/CurlTransport.h"
#include "core/providers/Protocol.h"
#include "core/providers/Redact.h"
#include "core/providers/Retry.h"
#include "core/providers/Sse.h"
#include "support/Log.h"

namespace greenlight::core::providers {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

constexpr std::size_t kMaxErrorBody = 64 * 1024;
constexpr std::size_t kMaxWholeBody = 32u << 20;

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

std::string keyHint(const Endpoint& ep) {
  std::string var = ep.apiKeyEnv.empty()
                        ? (ep.protocol == Protocol::AnthropicMessages ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY")
                        : ep.apiKeyEnv;
  return "set $" + var + " to a valid API key (greenlight reads keys from the environment only; "
         "greenlight.apiKeyEnv names another variable)";
}

}  // namespace

struct ChatClient::Call : std::enable_shared_from_this<ChatClient::Call> {
  std::weak_ptr<HttpTransport> transport;
  std::shared_ptr<Clock> clock;
  Endpoint ep;
  ChatRequest req;
  ChatCallbacks cb;
  support::CancellationToken token;
  int cancelReg = -1;
  HttpRequest http;
  std::string url;
  SteadyClock::time_point deadline;
  int attempts = 0;
  std::uint64_t httpId = 0;
  std::uint64_t timerId = 0;
  bool waiting = false;  // in a backoff wait
  bool finished = false;
  bool deltaSent = false;

  // Per attempt.
  enum class Mode { Unknown, Stream, Whole, ErrorBody } mode = Mode::Unknown;
  HttpHead head;
  std::string body;
  std::unique_ptr<SseParser> sse;
  std::unique_ptr<StreamDecoder> decoder;
  ProviderError pending;  // set by the body handler when it aborts the transfer
  bool pendingRetryable = false;

  std::string where() const { return ep.name + " (" + url + ")"; }

  ProviderError error(ErrorKind kind, std::string message, int status = 0) const {
    ProviderError e;
    e.kind = kind;
    e.httpStatus = status;
    e.message = redactSecrets(message, {ep.apiKey});
    return e;
  }

  std::shared_ptr<HttpTransport> transportRef() const { return transport.lock(); }

  void finish(ChatResult result) {
    if (finished) return;
    finished = true;
    token.removeCallback(cancelReg);
    result.attempts = attempts;
    if (result.error) {
      result.text.clear();  // never half an answer
      result.choices.clear();
      GL_LOG(Debug, "provider call failed: " << result.error.message);
    }
    if (cb.onDone) cb.onDone(std::move(result));
    cb = {};
  }

  void fail(ProviderError e) {
    ChatResult r;
    r.error = std::move(e);
    finish(std::move(r));
  }

  void cancelNow() {
    if (finished) return;
    if (waiting) {
      clock->cancelTimer(timerId);
      waiting = false;
    }
    if (httpId) {
      if (auto t = transportRef()) t->cancel(httpId);  // onDone reports Cancelled
      return;
    }
    fail(error(ErrorKind::Cancelled, where() + ": cancelled"));
  }

  void startAttempt() {
    waiting = false;
    if (finished) return;
    if (token.isCancelled()) return fail(error(ErrorKind::Cancelled, where() + ": cancelled"));
    auto left = std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return fail(timeoutError());
    ++attempts;
    mode = Mode::Unknown;
    head = {};
    body.clear();
    sse = std::make_unique<SseParser>();
    decoder = std::make_unique<StreamDecoder>(ep.protocol);
    pending = {};
    pendingRetryable = false;
    HttpRequest h = http;
    h.totalTimeout = left;
    h.connectTimeout = std::min(left, milliseconds(static_cast<long long>(ep.connectSeconds * 1000)));
    h.stallTimeout = req.stream ? std::min(left, milliseconds(static_cast<long long>(ep.stallSeconds * 1000)))
                                : milliseconds(0);
    auto self = shared_from_this();
    HttpHandlers handlers;
    handlers.onHead = [self](const HttpHead& hd) { self->onHead(hd); };
    handlers.onBody = [self](std::string_view bytes) { return self->onBody(bytes); };
    handlers.onDone = [self](const HttpOutcome& out) { self->onHttpDone(out); };
    auto t = transportRef();
    if (!t) return fail(error(ErrorKind::Cancelled, where() + ": cancelled (client shut down)"));
    GL_LOG(Debug, "provider " << ep.name << " attempt " << attempts << ": POST " << url << " model "
                              << req.model.value_or(ep.model));
    httpId = t->start(std::move(h), std::move(handlers));
  }

  void onHead(const HttpHead& hd) {
    head = hd;
    if (hd.status < 200 || hd.status > 299) {
      mode = Mode::ErrorBody;
      return;
    }
    auto ct = hd.headers.find("content-type");
    std::string type = ct == hd.headers.end() ? "" : ct->second;
    bool json = type.find("json") != std::string::npos;
    bool eventStream = type.find("text/event-stream") != std::string::npos;
    mode = (req.stream && (eventStream || !json)) ? Mode::Stream : Mode::Whole;
  }

  bool onBody(std::string_view bytes) {
    if (finished) return false;
    switch (mode) {
      case Mode::ErrorBody:
        if (body.size() < kMaxErrorBody) body.append(bytes.substr(0, kMaxErrorBody - body.size()));
        return true;
      case Mode::Whole:
      case Mode::Unknown:
        if (body.size() + bytes.size() > kMaxWholeBody) {
          pending = error(ErrorKind::Malformed, where() + ": the reply is larger than " +
                                                    std::to_string(kMaxWholeBody >> 20) + " MB; is baseUrl an LLM API?");
          return false;
        }
        body.append(bytes);
        return true;
      case Mode::Stream:
        break;
    }
    bool ok = sse->feed(bytes, [this](const SseEvent& ev) {
      std::string delta;
      bool go = decoder->onEvent(ev, delta);
      if (!delta.empty() && !finished) {
        deltaSent = true;
        if (cb.onDelta) cb.onDelta(delta);
      }
      return go && !decoder->done();
    });
    if (ok) return true;
    if (decoder->done()) return true;  // the rest after [DONE] / message_stop is ignored
    if (const ReplyFailure* f = decoder->failure()) {
      pending = streamFailure(*f);
      pendingRetryable = f->retryable && !deltaSent;
    } else if (!decoder->malformed().empty()) {
      pending = error(ErrorKind::Malformed, where() + ": malformed reply: " + decoder->malformed() +
                                                ". Check that greenlight.baseUrl points at an " +
                                                (ep.protocol == Protocol::OpenAIChat ? "OpenAI-compatible" : "Anthropic") +
                                                " API.");
    } else {
      pending = error(ErrorKind::Malformed, where() + ": malformed event stream: " + sse->error());
    }
    return false;
  }

  ProviderError streamFailure(const ReplyFailure& f) const {
    std::string what = f.type.empty() ? f.message : f.type + ": " + f.message;
    return error(ErrorKind::StreamError,
                 where() + ": the provider reported an error in its reply: " + what +
                     (f.retryable ? " (the service is overloaded or failing; try again later)" : ""),
                 head.status);
  }

  ProviderError timeoutError() const {
    return error(ErrorKind::Timeout, where() + ": no complete reply within timeoutSeconds=" +
                                         seconds(ep.timeoutSeconds) + " (" + std::to_string(attempts) +
                                         " attempt" + (attempts == 1 ? "" : "s") +
                                         "). Raise greenlight.timeoutSeconds or lower maxTokens.");
  }

  ProviderError statusError(int status, bool exhausted) const {
    std::string server = providerErrorMessage(body);
    std::string http = "HTTP " + std::to_string(status) + (server.empty() ? "" : ": " + server);
    std::string model = req.model.value_or(ep.model);
    if (status == 401)
      return error(ErrorKind::Auth, where() + ": authentication failed (" + http + "). S" + keyHint(ep).substr(1) + ".", status);
    if (status == 403)
      return error(ErrorKind::Auth, where() + ": permission denied (" + http + "). Check that the key in $" +
                                        (ep.apiKeyEnv.empty() ? "the API key variable" : ep.apiKeyEnv) +
                                        " may use model '" + model + "', or " + keyHint(ep) + ".", status);
    if (status == 404)
      return error(ErrorKind::NotFound, where() + ": model '" + model + "' or the endpoint was not found (" + http +
                                            "). Check greenlight.model and greenlight.baseUrl" +
                                            (ep.protocol == Protocol::OpenAIChat
                                                 ? " (OpenAI-compatible servers usually end in /v1)"
                                                 : "") +
                                            (ep.name == "ollama" ? "; for Ollama run 'ollama pull " + model + "'" : "") + ".",
                   status);
    if (isRetryableStatus(status)) {
      std::string tries = exhausted ? ", gave up after " + std::to_string(attempts) + " attempt" + (attempts == 1 ? "" : "s") : "";
      if (status == 429)
        return error(ErrorKind::RateLimited, where() + ": rate limited (" + http + ")" + tries +
                                                 ". Wait and try again, or raise greenlight.maxRetries.", status);
      return error(ErrorKind::Server, where() + ": the server failed (" + http + ")" + tries +
                                          ". The service may be overloaded or down; try again later.", status);
    }
    return error(ErrorKind::BadRequest, where() + ": the request was rejected (" + http +
                                            "). Check greenlight.model, maxTokens and temperature.", status);
  }

  ProviderError transportError(const HttpOutcome& out) const {
    std::string detail = out.detail.empty() ? "" : " (" + out.detail + ")";
    switch (out.failure) {
      case HttpFailure::Library: return error(ErrorKind::LibraryMissing, where() + ": " + out.detail);
      case HttpFailure::Connect:
        return error(ErrorKind::Connect, where() + ": no LLM server at that URL" + detail +
                                             ". Start the server (e.g. 'ollama serve' or llama.cpp's "
                                             "'llama-server') or fix greenlight.baseUrl.");
      case HttpFailure::Resolve:
        return error(ErrorKind::Dns, where() + ": cannot resolve the host name" + detail +
                                         ". Check greenlight.baseUrl and your network/DNS.");
      case HttpFailure::Tls:
        return error(ErrorKind::Tls, where() + ": TLS handshake or certificate check failed" + detail +
                                         ". Check the URL's scheme and the system's CA certificates.");
      case HttpFailure::Timeout: return timeoutError();
      case HttpFailure::Stall:
        return error(ErrorKind::Stall, where() + ": the reply stalled: no data for " + seconds(ep.stallSeconds) +
                                           " s; the partial reply was discarded. Try again; a busy local "
                                           "server may need a smaller model.");
      case HttpFailure::Dropped:
        return error(ErrorKind::Dropped,
                     where() + (deltaSent ? ": the connection dropped mid-reply; the partial reply was discarded"
                                          : ": the server closed the connection without a complete reply") +
                         detail + ". Try again.",
                     out.status);
      case HttpFailure::Cancelled: return error(ErrorKind::Cancelled, where() + ": cancelled");
      default:
        return error(ErrorKind::Internal, where() + ": the request failed" + detail + ".", out.status);
    }
  }

  bool scheduleRetry(const ProviderError& why) {
    if (attempts > ep.maxRetries) return false;
    milliseconds wait = retryDelay(head.headers, attempts - 1, clock->jitter(), clock->now());
    if (SteadyClock::now() + wait >= deadline) return false;
    std::string_view what = why.message;
    if (!what.empty() && what.back() == '.') what.remove_suffix(1);
    GL_LOG(Info, "provider " << ep.name << ": " << what << "; retrying in " << wait.count() << " ms");
    if (cb.onRetry) cb.onRetry(attempts, wait, why);
    waiting = true;
    auto self = shared_from_this();
    timerId = clock->after(wait, [self] { self->startAttempt(); });
    return true;
  }

  void onHttpDone(const HttpOutcome& out) {
    httpId = 0;
    if (finished) return;
    if (out.failure == HttpFailure::Cancelled || token.isCancelled())
      return fail(error(ErrorKind::Cancelled, where() + ": cancelled"));
    if (out.failure == HttpFailure::Aborted && pending) {
      if (pendingRetryable && scheduleRetry(pending)) return;
      return fail(pending);
    }
    int status = out.status ? out.status : head.status;
    if (mode == Mode::Stream && decoder->complete()) return succeed(std::move(decoder->result()));
    if (out.failure != HttpFailure::None && out.failure != HttpFailure::Aborted) {
      if (out.failure == HttpFailure::Dropped && mode == Mode::ErrorBody && status > 0) {
        // fall through: the status says more than the drop
      } else {
        return fail(transportError(out));
      }
    }
    if (status < 200 || status > 299) {
      if (isRetryableStatus(status)) {
        ProviderError why = statusError(status, false);
        if (scheduleRetry(why)) return;
        return fail(statusError(status, true));
      }
      return fail(statusError(status, false));
    }
    if (mode == Mode::Stream) {
      std::string what = decoder->result().text.empty() && sse->eventsDispatched() == 0
                             ? "the stream ended before any event"
                             : "the stream ended before the provider's end marker (" +
                                   std::string(ep.protocol == Protocol::OpenAIChat ? "data: [DONE]" : "message_stop") + ")";
      return fail(error(ErrorKind::Dropped, where() + ": " + what + "; the partial reply was discarded. Try again.",
                        status));
    }
    ChatResult r;
    std::string malformed;
    ReplyFailure failure;
    if (!parseWholeReply(ep.protocol, body, r, malformed, failure)) {
      if (!malformed.empty())
        return fail(error(ErrorKind::Malformed, where() + ": malformed reply: " + malformed +
                                                    ". Check that greenlight.baseUrl points at an LLM API."));
      ProviderError e = streamFailure(failure);
      if (failure.retryable && scheduleRetry(e)) return;
      return fail(e);
    }
    if (!r.text.empty() && cb.onDelta) {
      deltaSent = true;
      cb.onDelta(r.text);
    }
    succeed(std::move(r));
  }

  void succeed(ChatResult r) {
    r.error = {};
    finish(std::move(r));
  }
};

ChatClient::ChatClient() {
  auto curl = std::make_shared<CurlTransport>();
  clock_ = std::make_shared<SystemClock>(curl);
  transport_ = std::move(curl);
}

ChatClient::ChatClient(std::shared_ptr<HttpTransport> transport, std::shared_ptr<Clock> clock)
    : transport_(std::move(transport)), clock_(std::move(clock)) {}

ChatClient::~ChatClient() {
  // The clock may hold the transport too (SystemClock); drop ours first so the transport's
  // destructor (which cancels what is running and joins) runs when the last holder lets go.
  clock_.reset();
  transport_.reset();
}

void ChatClient::start(const Endpoint& endpoint, ChatRequest request, ChatCallbacks callbacks,
                       support::CancellationToken token) {
  auto call = std::make_shared<Call>();
  call->transport = transport_;
  call->clock = clock_;
  call->ep = endpoint;
  call->req = std::move(request);
  call->cb = std::move(callbacks);
  call->token = token;
  call->url = requestUrl(endpoint);
  call->http = buildHttpRequest(endpoint, call->req);
  call->deadline = SteadyClock::now() + milliseconds(static_cast<long long>(endpoint.timeoutSeconds * 1000));
  std::string problem;
  if (call->url.rfind("http://", 0) != 0 && call->url.rfind("https://", 0) != 0)
    problem = ": the base URL must start with http:// or https://; fix greenlight.baseUrl";
  else if (call->req.model.value_or(endpoint.model).empty())
    problem = ": no model is configured; set greenlight.model (or GREENLIGHT_MODEL)";
  else if (call->req.messages.empty())
    problem = ": the request has no messages";
  std::weak_ptr<HttpTransport> weakTransport = transport_;
  if (!problem.empty()) {
    ProviderError e = call->error(ErrorKind::Config, call->where() + problem);
    transport_->post([call, e] { call->fail(e); });
    return;
  }
  std::weak_ptr<Call> weakCall = call;
  call->cancelReg = token.onCancel([weakTransport, weakCall] {
    if (auto t = weakTransport.lock())
      t->post([weakCall] {
        if (auto c = weakCall.lock()) c->cancelNow();
      });
  });
  transport_->post([call] { call->startAttempt(); });
}

ChatResult ChatClient::complete(const Endpoint& endpoint, ChatRequest request,
                                support::CancellationToken token,
                                std::function<void(std::string_view)> onDelta,
                                std::function<void(int, milliseconds, const ProviderError&)> onRetry) {
  if (transport_->onIoThread()) {
    ChatResult r;
    r.error.kind = ErrorKind::Internal;
    r.error.message = "ChatClient::complete called on the provider I/O thread (it would deadlock)";
    return r;
  }
  auto promise = std::make_shared<std::promise<ChatResult>>();
  auto future = promise->get_future();
  ChatCallbacks cb;
  cb.onDelta = std::move(onDelta);
  cb.onRetry = std::move(onRetry);
  cb.onDone = [promise](ChatResult r) { promise->set_value(std::move(r)); };
  start(endpoint, std::move(request), std::move(cb), std::move(token));
  return future.get();
}

}  // namespace greenlight::core::providers
