#include "lsp/Server.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>

#include "lsp/Outbox.h"
#include "lsp/RequestState.h"
#include "protocol/TextSync.h"
#include "protocol/Uri.h"
#include "support/Log.h"

namespace greenlight::lsp {

using protocol::ErrorCode;
using protocol::JsonError;
using protocol::JsonPath;

namespace {

constexpr int kMaxJsonDepth = 256;
constexpr std::size_t kReportedFramingErrors = 5;

struct TooDeep {};

std::string dumpSafe(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Parses a body, refusing absurd nesting (copies and dumps of nlohmann values recurse).
std::optional<Json> parseBody(const std::string& body, std::string* error) {
  try {
    Json::parser_callback_t guard = [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxJsonDepth) throw TooDeep{};
      return true;
    };
    return Json::parse(body, guard);
  } catch (const Json::parse_error& e) {
    *error = e.what();
  } catch (const TooDeep&) {
    *error = "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  }
  return std::nullopt;
}

protocol::MessageType messageTypeFor(support::LogLevel level) {
  if (level >= support::LogLevel::Error) return protocol::MessageType::Error;
  if (level == support::LogLevel::Warn) return protocol::MessageType::Warning;
  if (level == support::LogLevel::Info) return protocol::MessageType::Info;
  return protocol::MessageType::Log;
}

}  // namespace

// ---- RequestState / Reply ----------------------------------------------------------------

namespace detail {

bool RequestState::answer(Json message) {
  if (answered.exchange(true)) return false;
  if (support::logEnabled(support::LogLevel::Debug)) {
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    GL_LOG(Debug, "--> reply " << method << "(" << protocol::idToString(id) << ")"
                               << (message.contains("error") ? " error" : "") << " " << ms << " ms");
  }
  outbox->send(std::move(message));
  return true;
}

void RequestState::cancelNow(const std::string& why) {
  answer(protocol::makeError(id, ErrorCode::RequestCancelled, method + ": " + why));
  cancel.cancel();
}

RequestState::~RequestState() {
  if (answered.load()) return;
  if (cancel.isCancelled())
    answer(protocol::makeError(id, ErrorCode::RequestCancelled, method + ": request cancelled"));
  else
    answer(protocol::makeError(id, ErrorCode::InternalError, method + ": handler finished without answering"));
}

}  // namespace detail

void Reply::result(Json value) const {
  if (!state_) return;
  if (!state_->answer(protocol::makeResult(state_->id, std::move(value))))
    GL_LOG(Debug, "late result for " << state_->method << "(" << protocol::idToString(state_->id) << ") dropped");
}

void Reply::error(ErrorCode code, std::string message, std::optional<Json> data) const {
  if (!state_) return;
  if (!state_->answer(protocol::makeError(state_->id, code, std::move(message), std::move(data))))
    GL_LOG(Debug, "late error for " << state_->method << "(" << protocol::idToString(state_->id) << ") dropped");
}

bool Reply::answered() const { return state_ && state_->answered.load(); }

const protocol::RequestId& Reply::id() const {
  static const protocol::RequestId kNull;
  return state_ ? state_->id : kNull;
}

const std::string& Reply::method() const {
  static const std::string kEmpty;
  return state_ ? state_->method : kEmpty;
}

// ---- Progress ----------------------------------------------------------------------------

Progress::~Progress() { end(); }

void Progress::send(Json value) {
  // Called with mutex_ held.
  if (failed_) return;
  if (!ready_) {
    buffered_.push_back(std::move(value));
    return;
  }
  outbox_->send(protocol::makeNotification("$/progress", Json(protocol::ProgressParams{token_, std::move(value)})));
}

void Progress::report(std::optional<std::string> message, std::optional<int> percentage) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_) return;
  if (percentage) percentage = std::clamp(*percentage, 0, 100);
  if (!ready_ && buffered_.size() > 1) buffered_.pop_back();  // keep begin + the latest report
  send(Json(protocol::WorkDoneProgressReport{std::nullopt, std::move(message), percentage}));
}

void Progress::end(std::optional<std::string> message) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (ended_) return;
  ended_ = true;
  onCancel_ = nullptr;
  send(Json(protocol::WorkDoneProgressEnd{std::move(message)}));
}

void Progress::created(bool ok) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ok) {
    failed_ = true;
    buffered_.clear();
    return;
  }
  ready_ = true;
  auto values = std::move(buffered_);
  buffered_.clear();
  for (auto& v : values) send(std::move(v));
}

std::shared_ptr<Progress> RequestContext::beginProgress(std::string title, std::optional<std::string> message,
                                                        bool cancellable) const {
  std::weak_ptr<detail::RequestState> weak = state_;
  std::function<void()> onCancel = [weak] {
    if (auto s = weak.lock()) s->cancelNow("cancelled from the progress report");
  };
  return server_->beginProgress(std::move(title), std::move(message), cancellable, std::move(onCancel),
                                workDoneToken);
}

// ---- Server ------------------------------------------------------------------------------

Server::Server(boost::asio::io_context& io, Transport& transport, ServerOptions options)
    : io_(io),
      transport_(transport),
      options_(std::move(options)),
      outbox_(std::make_shared<detail::Outbox>(io, [this](Json m) { write(std::move(m)); })),
      pool_(options_.workerThreads) {
  config_ = layers_.resolve(nullptr).value_or(core::Config{});
  registerBuiltins();
}

Server::~Server() {
  if (options_.forwardLogs) support::setLogForwarder(nullptr);
  cancelInFlight("session ended");
  outbox_->detach();
  pool_.shutdown();
}

void Server::postToLoop(std::function<void()> fn) { outbox_->post(std::move(fn), /*allowInline=*/true); }

void Server::start() {
  outbox_->setLoopThread(std::this_thread::get_id());
  // The loop thread is the one running the io_context; re-bind when it starts running there.
  boost::asio::post(io_, [out = outbox_] { out->setLoopThread(std::this_thread::get_id()); });
  if (options_.forwardLogs) installLogForwarder();
  transport_.start({
      [this](std::string body) { onBody(std::move(body)); },
      [this](const std::string& error) { onFramingError(error); },
      [this](const std::string& why) { onInputClosed(why); },
  });
}

void Server::installLogForwarder() {
  std::weak_ptr<detail::Outbox> weak = outbox_;
  support::setLogForwarder(
      [weak, this](support::LogLevel level, const std::string& line) {
        static thread_local bool inside = false;
        if (inside) return;
        auto out = weak.lock();
        if (!out) return;
        inside = true;
        out->post([this, level, line] {
          // The spec allows window/logMessage only once initialize is under way.
          if (state_ == State::Uninitialized || state_ == State::Exited) return;
          write(protocol::makeNotification("window/logMessage",
                                           Json(protocol::LogMessageParams{messageTypeFor(level), line})));
        }, /*allowInline=*/true);
        inside = false;
      },
      support::LogLevel::Warn);
}

void Server::write(Json message) {
  if (state_ == State::Exited && !message.contains("id")) return;  // nothing after exit but replies
  transport_.send(dumpSafe(message));
}

// ---- Registration ------------------------------------------------------------------------

void Server::onRequestRaw(const std::string& method, RawRequestHandler handler) {
  requests_[method] = std::move(handler);
}

void Server::onNotificationRaw(const std::string& method, RawNotificationHandler handler) {
  notifications_[method] = std::move(handler);
}

void Server::onCommand(const std::string& command, CommandHandler handler) {
  commands_[command] = std::move(handler);
  declareCommand(command);
}

void Server::declareCommand(const std::string& command) {
  if (std::find(declaredCommands_.begin(), declaredCommands_.end(), command) == declaredCommands_.end())
    declaredCommands_.push_back(command);
}

void Server::addCodeActionProvider(const std::string& name, std::vector<std::string> kinds,
                                   CodeActionProvider provider, CodeActionResolver resolver) {
  codeActions_.push_back({name, std::move(kinds), std::move(provider), std::move(resolver)});
}

void Server::onDidOpen(std::function<void(const DocumentEvent&)> hook) { didOpen_.push_back(std::move(hook)); }
void Server::onDidChange(std::function<void(const DocumentEvent&)> hook) { didChange_.push_back(std::move(hook)); }
void Server::onDidSave(std::function<void(const DocumentEvent&)> hook) { didSave_.push_back(std::move(hook)); }
void Server::onDidClose(std::function<void(const DocumentEvent&)> hook) { didClose_.push_back(std::move(hook)); }
void Server::onInitialized(std::function<void()> hook) { initializedHooks_.push_back(std::move(hook)); }
void Server::onConfigChanged(std::function<void(const core::Config&)> hook) { configHooks_.push_back(std::move(hook)); }
void Server::onShutdown(std::function<void()> hook) { shutdownHooks_.push_back(std::move(hook)); }

void Server::registerBuiltins() {
  onRequestRaw("initialize", [this](const Json& p, RequestContext ctx) { handleInitialize(p, std::move(ctx)); });
  onRequestRaw("shutdown", [this](const Json&, RequestContext ctx) { handleShutdown(std::move(ctx)); });
  onRequestRaw("workspace/executeCommand",
               [this](const Json& p, RequestContext ctx) { handleExecuteCommand(p, std::move(ctx)); });
  onRequestRaw("textDocument/codeAction",
               [this](const Json& p, RequestContext ctx) { handleCodeAction(p, std::move(ctx)); });
  onRequestRaw("codeAction/resolve",
               [this](const Json& p, RequestContext ctx) { handleCodeActionResolve(p, std::move(ctx)); });
  onNotificationRaw("initialized", [this](const Json&) { handleInitialized(); });
  onNotificationRaw("exit", [this](const Json&) { handleExit(); });
  onNotificationRaw("$/cancelRequest", [this](const Json& p) { handleCancel(p); });
  onNotificationRaw("textDocument/didOpen", [this](const Json& p) { handleDidOpen(p); });
  onNotificationRaw("textDocument/didChange", [this](const Json& p) { handleDidChange(p); });
  onNotificationRaw("textDocument/didSave", [this](const Json& p) { handleDidSave(p); });
  onNotificationRaw("textDocument/didClose", [this](const Json& p) { handleDidClose(p); });
  onNotificationRaw("workspace/didChangeConfiguration", [this](const Json& p) { handleDidChangeConfiguration(p); });
  onNotificationRaw("window/workDoneProgress/cancel", [this](const Json& p) { handleProgressCancel(p); });
}

// ---- Input -------------------------------------------------------------------------------

void Server::onBody(std::string body) {
  if (state_ == State::Exited) return;
  std::string error;
  auto json = parseBody(body, &error);
  if (!json) {
    GL_LOG(Debug, "<-- unparsable message: " << error);
    write(protocol::makeError(nullptr, ErrorCode::ParseError, "message body is not valid JSON: " + error));
    return;
  }
  protocol::InvalidMessage invalid;
  auto message = protocol::classify(std::move(*json), &invalid);
  if (!message) {
    GL_LOG(Debug, "<-- invalid message: " << invalid.reason);
    write(protocol::makeError(invalid.id, ErrorCode::InvalidRequest, "invalid JSON-RPC message: " + invalid.reason));
    return;
  }
  switch (message->kind) {
    case protocol::Message::Kind::Request: dispatchRequest(std::move(*message)); break;
    case protocol::Message::Kind::Notification: dispatchNotification(*message); break;
    case protocol::Message::Kind::Response: dispatchResponse(*message); break;
  }
}

void Server::onFramingError(const std::string& error) {
  ++framingErrors_;
  if (framingErrors_ <= kReportedFramingErrors) {
    GL_LOG(Warn, "framing error in client input: " << error << " (skipping to the next Content-Length header)");
    if (framingErrors_ == kReportedFramingErrors)
      GL_LOG(Warn, "further framing errors are logged at debug level only");
  } else {
    GL_LOG(Debug, "framing error in client input: " << error);
  }
}

void Server::onInputClosed(const std::string& why) {
  if (state_ == State::Exited) return;
  if (shutdownReceived_)
    GL_LOG(Info, "client closed the input after shutdown without exit (" << why << ")");
  else
    GL_LOG(Info, "client closed the input without shutdown (" << why << "); exiting with code 1");
  state_ = State::Exited;
  endSession();
}

void Server::dispatchRequest(protocol::Message message) {
  GL_LOG(Debug, "<-- " << message.method << "(" << protocol::idToString(message.id) << ")");
  if (state_ == State::Uninitialized && message.method != "initialize") {
    write(protocol::makeError(message.id, ErrorCode::ServerNotInitialized,
                              message.method + ": server not initialized (send initialize first)"));
    return;
  }
  if (state_ == State::ShutDown || state_ == State::Exited) {
    write(protocol::makeError(message.id, ErrorCode::InvalidRequest,
                              message.method + ": server is shut down (only exit is accepted)"));
    return;
  }
  auto handler = requests_.find(message.method);
  if (handler == requests_.end()) {
    write(protocol::makeError(message.id, ErrorCode::MethodNotFound, "method not found: " + message.method));
    return;
  }
  std::string key = message.id.dump();
  if (auto it = inFlight_.find(key); it != inFlight_.end()) {
    if (auto s = it->second.lock(); s && !s->answered.load()) {
      write(protocol::makeError(message.id, ErrorCode::InvalidRequest,
                                "id " + key + " is already in use by a request in flight"));
      return;
    }
  }
  // Forget finished requests now and then, so the table stays the size of the work in flight.
  if (inFlight_.size() > 64) {
    for (auto it = inFlight_.begin(); it != inFlight_.end();) {
      auto s = it->second.lock();
      it = (!s || s->answered.load()) ? inFlight_.erase(it) : std::next(it);
    }
  }
  auto state = std::make_shared<detail::RequestState>();
  state->id = message.id;
  state->method = message.method;
  state->outbox = outbox_;
  state->start = std::chrono::steady_clock::now();
  inFlight_[key] = state;

  RequestContext ctx;
  ctx.reply = Reply(state);
  ctx.cancel = state->cancel.token();
  ctx.id = message.id;
  if (message.params.is_object()) {
    if (auto t = message.params.find("workDoneToken");
        t != message.params.end() && (t->is_string() || t->is_number_integer()))
      ctx.workDoneToken = *t;
  }
  ctx.server_ = this;
  ctx.state_ = state;
  Reply reply = ctx.reply;
  state.reset();  // the context (and its copies) own the request from here on
  try {
    handler->second(message.params, std::move(ctx));
  } catch (const JsonError& e) {
    reply.error(ErrorCode::InvalidParams, e.what());
  } catch (const std::exception& e) {
    GL_LOG(Error, message.method << ": handler failed: " << e.what());
    reply.error(ErrorCode::InternalError, message.method + ": " + e.what());
  }
}

void Server::dispatchNotification(const protocol::Message& message) {
  GL_LOG(Debug, "<-- " << message.method);
  if (state_ == State::Exited) return;
  if (message.method != "exit") {
    if (state_ == State::Uninitialized) {
      GL_LOG(Debug, "dropping " << message.method << " received before initialize");
      return;
    }
    if (state_ == State::ShutDown) {
      GL_LOG(Debug, "ignoring " << message.method << " received after shutdown");
      return;
    }
  }
  auto handler = notifications_.find(message.method);
  if (handler == notifications_.end()) {
    GL_LOG(Debug, "ignoring unknown notification " << message.method);
    return;
  }
  try {
    handler->second(message.params);
  } catch (const JsonError& e) {
    GL_LOG(Warn, message.method << ": bad params: " << e.what());
  } catch (const std::exception& e) {
    GL_LOG(Error, message.method << ": handler failed: " << e.what());
  }
}

void Server::dispatchResponse(const protocol::Message& message) {
  if (!message.id.is_number_integer()) {
    GL_LOG(Warn, "response with id " << protocol::idToString(message.id) << " matches no request of ours");
    return;
  }
  auto it = pendingServerRequests_.find(message.id.get<std::int64_t>());
  if (it == pendingServerRequests_.end()) {
    GL_LOG(Warn, "response with id " << protocol::idToString(message.id) << " matches no request of ours");
    return;
  }
  PendingServerRequest pending = std::move(it->second);
  pendingServerRequests_.erase(it);
  GL_LOG(Debug, "<-- response to " << pending.method << "(" << protocol::idToString(message.id) << ")");
  try {
    if (message.error) {
      if (pending.onError) pending.onError(*message.error);
    } else if (pending.onResult) {
      pending.onResult(message.result);
    }
  } catch (const std::exception& e) {
    GL_LOG(Warn, "handling the response to " << pending.method << ": " << e.what());
  }
}

// ---- Session end -------------------------------------------------------------------------

void Server::cancelInFlight(const std::string& why) {
  auto inFlight = std::move(inFlight_);
  inFlight_.clear();
  for (auto& [key, weak] : inFlight)
    if (auto s = weak.lock(); s && !s->answered.load()) s->cancelNow(why);
}

void Server::endSession() {
  // Without a shutdown (EOF, exit alone) the features still stop their background work, which
  // no request token covers (runs on save, server-initiated retries).
  if (!shutdownReceived_)
    for (auto& hook : shutdownHooks_) hook();
  cancelInFlight("session ended");
  auto pending = std::move(pendingServerRequests_);
  pendingServerRequests_.clear();
  for (auto& [id, p] : pending)
    if (p.onError) p.onError(protocol::ResponseError{ErrorCode::RequestCancelled, "session ended", std::nullopt});
  finished_ = true;
  transport_.finish([io = &io_] { io->stop(); });  // may run after the server is gone
}

// ---- Lifecycle ---------------------------------------------------------------------------

void Server::handleInitialize(const Json& params, RequestContext ctx) {
  if (state_ != State::Uninitialized) {
    ctx.reply.error(ErrorCode::InvalidRequest, "initialize: already initialized");
    return;
  }
  if (!params.is_object()) throw JsonError(JsonPath().field("params"), "expected an object");
  auto p = protocol::parse<protocol::InitializeParams>(params);
  capabilities_ = p.capabilities;
  encoding_ = protocol::PositionEncoding::Utf16;
  for (const auto& e : capabilities_.positionEncodings)
    if (e == "utf-8") encoding_ = protocol::PositionEncoding::Utf8;

  auto toPath = [](const std::string& uri) { return protocol::pathFromUri(uri); };
  if (p.workspaceFolders && !p.workspaceFolders->empty())
    workspaceRoot_ = toPath(p.workspaceFolders->front().uri);
  if (!workspaceRoot_ && p.rootUri) workspaceRoot_ = toPath(*p.rootUri);
  if (!workspaceRoot_ && p.rootPath && !p.rootPath->empty()) workspaceRoot_ = *p.rootPath;

  state_ = State::Running;  // window/logMessage is allowed from here on
  GL_LOG(Info, "initialize from " << p.clientName.value_or("an unnamed client") << " "
                                  << p.clientVersion.value_or("") << "; position encoding "
                                  << protocol::encodingName(encoding_) << "; workspace "
                                  << workspaceRoot_.value_or("(none)"));

  layers_.setEnvironment(options_.environment ? *options_.environment : core::relevantEnvironment());
  if (workspaceRoot_) {
    std::string error;
    if (!layers_.loadWorkspaceFile(*workspaceRoot_, &error)) GL_LOG(Warn, "configuration: " << error);
  }
  Json init = p.initializationOptions;
  if (init.is_object() && init.contains("greenlight") && init["greenlight"].is_object()) init = init["greenlight"];
  layers_.set(core::ConfigLayers::InitializationOptions, init.is_object() ? init : Json::object());

  protocol::InitializeResult result;
  result.serverVersion = options_.version;
  result.capabilities.positionEncoding = std::string(protocol::encodingName(encoding_));
  for (const auto& entry : codeActions_)
    for (const auto& kind : entry.kinds)
      if (std::find(result.capabilities.codeActionKinds.begin(), result.capabilities.codeActionKinds.end(), kind) ==
          result.capabilities.codeActionKinds.end())
        result.capabilities.codeActionKinds.push_back(kind);
  result.capabilities.executeCommands = declaredCommands_;
  result.capabilities.codeLens = requests_.count("textDocument/codeLens") > 0;
  ctx.reply.resultOf(result);
  reloadConfig("initialize");
}

void Server::handleInitialized() {
  if (capabilities_.configuration) pullConfiguration();
  for (auto& hook : initializedHooks_) hook();
}

void Server::handleShutdown(RequestContext ctx) {
  for (auto& hook : shutdownHooks_) hook();
  state_ = State::ShutDown;
  shutdownReceived_ = true;
  ctx.reply.result(nullptr);  // first: cancelInFlight must not answer this request itself
  cancelInFlight("server shutting down");
}

void Server::handleExit() {
  GL_LOG(Info, "exit " << (shutdownReceived_ ? "after shutdown" : "without shutdown (exit code 1)"));
  state_ = State::Exited;
  endSession();
}

void Server::handleCancel(const Json& params) {
  auto p = protocol::parse<protocol::CancelParams>(params);
  auto it = inFlight_.find(p.id.dump());
  if (it == inFlight_.end()) return;  // already answered and forgotten, or never seen: fine
  if (auto s = it->second.lock(); s && !s->answered.load()) {
    GL_LOG(Debug, "cancelling " << s->method << "(" << protocol::idToString(s->id) << ")");
    s->cancelNow("request cancelled");
  }
  inFlight_.erase(it);
}

// ---- Text sync ---------------------------------------------------------------------------

static DocumentEvent eventFor(const core::DocumentSnapshot& doc) {
  return DocumentEvent{doc.uri, doc.path, doc.version, doc.languageId};
}

void Server::handleDidOpen(const Json& params) {
  auto p = protocol::parse<protocol::DidOpenTextDocumentParams>(params);
  documents_.open(p.textDocument);
  DocumentEvent e{p.textDocument.uri, protocol::pathFromUri(p.textDocument.uri).value_or(""),
                  p.textDocument.version, p.textDocument.languageId};
  for (auto& hook : didOpen_) hook(e);
}

void Server::handleDidChange(const Json& params) {
  auto p = protocol::parse<protocol::DidChangeTextDocumentParams>(params);
  std::string error, warning;
  if (!documents_.change(p.textDocument, p.contentChanges, encoding_, &error, &warning)) {
    GL_LOG(Warn, "didChange " << p.textDocument.uri << ": " << error
                              << "; the document may be out of sync (close and reopen it)");
    return;
  }
  if (!warning.empty()) GL_LOG(Debug, "didChange " << p.textDocument.uri << ": " << warning);
  if (didChange_.empty()) return;
  auto doc = documents_.get(p.textDocument.uri);
  if (!doc) return;
  DocumentEvent e{doc->uri, doc->path, doc->version, doc->languageId};
  for (auto& hook : didChange_) hook(e);
}

void Server::handleDidSave(const Json& params) {
  auto p = protocol::parse<protocol::DidSaveTextDocumentParams>(params);
  DocumentEvent e;
  if (auto doc = documents_.get(p.textDocument.uri)) {
    e = eventFor(*doc);
  } else {
    e.uri = p.textDocument.uri;
    e.path = protocol::pathFromUri(e.uri).value_or("");
  }
  for (auto& hook : didSave_) hook(e);
}

void Server::handleDidClose(const Json& params) {
  auto p = protocol::parse<protocol::DidCloseTextDocumentParams>(params);
  auto doc = documents_.get(p.textDocument.uri);
  if (!documents_.close(p.textDocument.uri)) {
    GL_LOG(Debug, "didClose for a document that is not open: " << p.textDocument.uri);
    return;
  }
  DocumentEvent e = eventFor(*doc);
  for (auto& hook : didClose_) hook(e);
}

// ---- Configuration -----------------------------------------------------------------------

void Server::handleDidChangeConfiguration(const Json& params) {
  auto p = protocol::parse<protocol::DidChangeConfigurationParams>(params);
  if (workspaceRoot_) {
    std::string error;
    if (!layers_.loadWorkspaceFile(*workspaceRoot_, &error)) GL_LOG(Warn, "configuration: " << error);
  }
  if (capabilities_.configuration) {
    pullConfiguration();
    return;
  }
  // Push model: settings arrive in the notification, usually as {"greenlight": {...}}.
  Json settings = p.settings;
  if (settings.is_object() && settings.contains("greenlight")) settings = settings["greenlight"];
  layers_.set(core::ConfigLayers::Client, settings.is_object() ? settings : Json::object());
  reloadConfig("didChangeConfiguration");
}

void Server::pullConfiguration() {
  protocol::ConfigurationParams params;
  params.items.push_back({workspaceRoot_ ? std::optional<std::string>(protocol::uriFromPath(*workspaceRoot_))
                                         : std::nullopt,
                          std::string("greenlight")});
  sendRequest(
      "workspace/configuration", Json(params),
      [this](const Json& result) {
        Json section = result.is_array() && !result.empty() ? result[0] : Json();
        if (!section.is_null() && !section.is_object()) {
          GL_LOG(Warn, "workspace/configuration: expected an object for section greenlight; ignored");
          return;
        }
        layers_.set(core::ConfigLayers::Client, section.is_object() ? section : Json::object());
        reloadConfig("workspace/configuration");
      },
      [](const protocol::ResponseError& e) {
        GL_LOG(Info, "workspace/configuration failed (" << e.message << "); keeping the current settings");
      });
}

void Server::reloadConfig(const char* why) {
  std::string error;
  auto resolved = layers_.resolve(&error);
  if (!resolved) {
    GL_LOG(Warn, "configuration error after " << why << ": " << error << "; keeping the previous settings");
    return;
  }
  bool changed = core::configToJson(*resolved) != core::configToJson(config_);
  config_ = std::move(*resolved);
  GL_LOG(Debug, "configuration resolved after " << why << (changed ? " (changed)" : " (unchanged)"));
  for (auto& hook : configHooks_) hook(config_);
}

// ---- Commands and code actions -------------------------------------------------------------

void Server::handleExecuteCommand(const Json& params, RequestContext ctx) {
  if (!params.is_object()) throw JsonError(JsonPath().field("params"), "expected an object");
  auto p = protocol::parse<protocol::ExecuteCommandParams>(params);
  auto it = commands_.find(p.command);
  if (it == commands_.end()) {
    bool declared = std::find(declaredCommands_.begin(), declaredCommands_.end(), p.command) != declaredCommands_.end();
    ctx.reply.error(ErrorCode::InvalidParams,
                    declared ? "command: '" + p.command + "' is not available in this build"
                             : "command: unknown command '" + p.command + "'");
    return;
  }
  Reply reply = ctx.reply;
  try {
    it->second(p.arguments, std::move(ctx));
  } catch (const JsonError& e) {
    std::string what = e.what();
    reply.error(ErrorCode::InvalidParams, "arguments" + std::string(what.front() == '[' ? "" : ": ") + what);
  }
}

void Server::handleCodeAction(const Json& params, RequestContext ctx) {
  if (!params.is_object()) throw JsonError(JsonPath().field("params"), "expected an object");
  auto p = protocol::parse<protocol::CodeActionParams>(params);
  std::vector<protocol::CodeAction> actions;
  for (const auto& entry : codeActions_) {
    bool wanted = entry.kinds.empty();
    for (const auto& kind : entry.kinds) wanted = wanted || protocol::kindMatches(p.context.only, kind);
    if (wanted) entry.provider(p, actions);
  }
  Json out = Json::array();
  for (auto& action : actions) {
    if (action.kind && !protocol::kindMatches(p.context.only, *action.kind)) continue;
    if (capabilities_.codeActionLiterals) {
      out.push_back(Json(action));
    } else if (action.command) {
      out.push_back(Json(*action.command));  // LSP < 3.8 clients: plain Commands only
    }
  }
  ctx.reply.result(std::move(out));
}

void Server::handleCodeActionResolve(const Json& params, RequestContext ctx) {
  auto action = protocol::parse<protocol::CodeAction>(params);
  const Json* provider = nullptr;
  if (action.data.is_object())
    if (auto g = action.data.find("greenlight"); g != action.data.end() && g->is_object())
      if (auto n = g->find("provider"); n != g->end() && n->is_string()) provider = &*n;
  if (!provider) {
    ctx.reply.error(ErrorCode::InvalidParams, "data: not a code action produced by greenlight");
    return;
  }
  for (const auto& entry : codeActions_) {
    if (entry.name != provider->get_ref<const std::string&>()) continue;
    ctx.reply.resultOf(entry.resolver ? entry.resolver(std::move(action)) : action);
    return;
  }
  ctx.reply.error(ErrorCode::InvalidParams,
                  "data.greenlight.provider: unknown provider '" + provider->get<std::string>() + "'");
}

// ---- Client communication --------------------------------------------------------------------

void Server::sendNotification(const std::string& method, Json params) {
  outbox_->send(protocol::makeNotification(method, std::move(params)));
}

void Server::publishDiagnostics(const std::string& uri, std::optional<std::int64_t> version,
                                std::vector<protocol::Diagnostic> diagnostics) {
  sendNotification("textDocument/publishDiagnostics",
                   Json(protocol::PublishDiagnosticsParams{uri, version, std::move(diagnostics)}));
}

void Server::logMessage(protocol::MessageType type, const std::string& message) {
  // Written to our log too, but not through the forwarder (that would send it twice).
  support::LogLevel level = type == protocol::MessageType::Error     ? support::LogLevel::Error
                            : type == protocol::MessageType::Warning ? support::LogLevel::Warn
                                                                     : support::LogLevel::Info;
  if (level >= support::LogLevel::Warn && options_.forwardLogs) {
    GL_LOG(Info, "[to client] " << message);
  } else {
    support::logLine(level, message);
  }
  sendNotification("window/logMessage", Json(protocol::LogMessageParams{type, message}));
}

void Server::showMessage(protocol::MessageType type, const std::string& message) {
  sendNotification("window/showMessage", Json(protocol::LogMessageParams{type, message}));
}

void Server::sendRequest(const std::string& method, Json params, ResultCallback onResult, ErrorCallback onError) {
  postToLoop([this, method, params = std::move(params), onResult = std::move(onResult),
              onError = std::move(onError)]() mutable {
    if (state_ == State::Exited) {
      if (onError) onError(protocol::ResponseError{ErrorCode::RequestCancelled, "session ended", std::nullopt});
      return;
    }
    std::int64_t id = nextServerRequestId_++;
    pendingServerRequests_[id] = PendingServerRequest{method, std::move(onResult), std::move(onError)};
    GL_LOG(Debug, "--> " << method << "(" << id << ")");
    write(protocol::makeRequest(id, method, std::move(params)));
  });
}

void Server::applyEdit(std::string label, protocol::WorkspaceEdit edit,
                       std::function<void(std::optional<protocol::ApplyWorkspaceEditResult>, std::string)> done) {
  postToLoop([this, label = std::move(label), edit = std::move(edit), done = std::move(done)]() mutable {
    if (!capabilities_.applyEdit) {
      if (done) done(std::nullopt, "the client does not support workspace/applyEdit");
      return;
    }
    if (!capabilities_.documentChanges && edit.documentChanges) {
      std::map<std::string, std::vector<protocol::TextEdit>> changes = edit.changes.value_or(
          std::map<std::string, std::vector<protocol::TextEdit>>{});
      for (auto& change : *edit.documentChanges) {
        auto& list = changes[change.textDocument.uri];
        list.insert(list.end(), change.edits.begin(), change.edits.end());
      }
      edit.changes = std::move(changes);
      edit.documentChanges.reset();
    }
    if (!capabilities_.changeAnnotations || !edit.documentChanges) {
      // A client without annotation support would reject unknown annotation ids.
      edit.changeAnnotations.reset();
      if (edit.documentChanges)
        for (auto& change : *edit.documentChanges)
          for (auto& e : change.edits) e.annotationId.reset();
      if (edit.changes)
        for (auto& [uri, edits] : *edit.changes)
          for (auto& e : edits) e.annotationId.reset();
    }
    auto shared = std::make_shared<decltype(done)>(std::move(done));
    sendRequest(
        "workspace/applyEdit", Json(protocol::ApplyWorkspaceEditParams{label, std::move(edit)}),
        [shared](const Json& result) {
          std::string error;
          auto r = protocol::tryParse<protocol::ApplyWorkspaceEditResult>(result, &error);
          if (*shared) (*shared)(r, r ? "" : "workspace/applyEdit result: " + error);
        },
        [shared](const protocol::ResponseError& e) {
          if (*shared) (*shared)(std::nullopt, "workspace/applyEdit failed: " + e.message);
        });
  });
}

std::shared_ptr<Progress> Server::beginProgress(std::string title, std::optional<std::string> message,
                                                bool cancellable, std::function<void()> onCancel, Json clientToken) {
  Json token = clientToken;
  bool create = false;
  if (token.is_null() && capabilities_.workDoneProgress) {
    token = "greenlight/" + std::to_string(nextProgressToken_++);
    create = true;
  }
  std::shared_ptr<Progress> progress(new Progress(outbox_, token));
  if (token.is_null()) {
    progress->failed_ = true;  // nothing to report to; calls are no-ops
    return progress;
  }
  progress->ready_ = !create;
  progress->onCancel_ = std::move(onCancel);
  {
    std::lock_guard<std::mutex> lock(progress->mutex_);
    progress->send(Json(protocol::WorkDoneProgressBegin{std::move(title), cancellable, std::move(message), std::nullopt}));
  }
  std::string key = token.dump();
  for (auto it = progresses_.begin(); it != progresses_.end();)
    it = it->second.expired() ? progresses_.erase(it) : std::next(it);
  progresses_[key] = progress;
  if (create) {
    // Held strongly until the client answers: work that ends first (a cached test run takes
    // milliseconds) has buffered its begin and end, which must still reach the client.
    sendRequest(
        "window/workDoneProgress/create", Json(protocol::WorkDoneProgressCreateParams{token}),
        [progress](const Json&) { progress->created(true); },
        [progress](const protocol::ResponseError& e) {
          GL_LOG(Debug, "window/workDoneProgress/create failed: " << e.message);
          progress->created(false);
        });
  }
  return progress;
}

void Server::handleProgressCancel(const Json& params) {
  auto p = protocol::parse<protocol::WorkDoneProgressCancelParams>(params);
  auto it = progresses_.find(p.token.dump());
  if (it == progresses_.end()) return;
  auto progress = it->second.lock();
  if (!progress) return;
  std::function<void()> onCancel;
  {
    std::lock_guard<std::mutex> lock(progress->mutex_);
    onCancel = progress->onCancel_;
  }
  if (onCancel) onCancel();
}

}  // namespace greenlight::lsp
