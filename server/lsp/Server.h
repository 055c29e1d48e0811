// The LSP server: lifecycle, dispatch, text sync, configuration, and the extension point every
// feature plugs into.
//
// ## Threading model
//
// One event loop (a boost::asio::io_context run by one thread, "the loop") owns all protocol
// state: lifecycle, the handler tables, in-flight requests, server->client requests, the
// configuration layers. Every handler and hook runs on the loop and must return quickly: the
// loop never blocks on a read, a write, a child process or an HTTP call. Long work goes to the
// thread pool (`threadPool()`), and comes back with `postToLoop()`. The few members marked
// "any thread" below are safe to call from pool workers; everything else is loop-only.
//
// ## Writing a feature (one file under server/lsp/features/)
//
//   // server/lsp/features/RunTests.cpp
//   #include "lsp/Server.h"
//   namespace greenlight::lsp {
//   void registerRunTests(Server& server) {
//     server.onCommand("greenlight.runTests",
//         [&server](const std::vector<protocol::Json>& args, RequestContext ctx) {
//           auto parsed = parseArgs(args);            // throw protocol::JsonError -> -32602
//           auto progress = ctx.beginProgress("Running tests");
//           auto config = server.config();            // a copy for the worker
//           auto docs = server.documents().snapshot();
//           server.threadPool().post([&server, ctx, progress, config, docs] {
//             for (...) {
//               if (ctx.cancel.isCancelled()) return;   // the reply already said -32800
//               progress->report("test_fib", percent);
//             }
//             server.publishDiagnostics(uri, version, diagnostics);   // any thread
//             progress->end("3 passed, 1 failed");
//             ctx.reply.result(nullptr);                               // any thread
//           });
//         });
//     server.onDidSave([&server](const DocumentEvent& e) { if (server.config().runOnSave) ...; });
//   }
//   }  // namespace greenlight::lsp
//
// and one line in features/Features.cpp's list (a static library would drop a self-registering
// object file, so registration is explicit). Register everything before `start()`: the
// capabilities sent in the initialize result are computed from what is registered then.
//
// ## Lifecycle (LSP 3.17 "Lifecycle Messages")
// - Before `initialize`: requests -> -32002 ServerNotInitialized; notifications dropped, except
//   `exit`. A second `initialize` -> -32600.
// - After `shutdown`: requests -> -32600 InvalidRequest; notifications ignored except `exit`.
//   `shutdown` answers -32800 to every request still in flight.
// - `exit` ends the session: exitCode() is 0 after shutdown, 1 without. EOF on input ends it the
//   same way (0 only if shutdown was received).
// - Unknown request -> -32601; unknown notification (including `$/...`) ignored; a body that is
//   not JSON -> -32700 with id null; not a JSON-RPC message -> -32600; params that do not decode
//   -> -32602 with the decoder's message naming the field ("textDocument.uri: missing required
//   field"). A handler that throws answers -32603.
// - `$/cancelRequest` answers the request -32800 at once and cancels its token.
#pragma once

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/Config.h"
#include "core/documents/DocumentStore.h"
#include "lsp/Reply.h"
#include "lsp/Transport.h"
#include "protocol/CodeAction.h"
#include "protocol/Diagnostics.h"
#include "protocol/JsonRpc.h"
#include "protocol/Lifecycle.h"
#include "protocol/Positions.h"
#include "protocol/Window.h"
#include "protocol/Workspace.h"
#include "support/Cancellation.h"
#include "support/ThreadPool.h"

namespace greenlight::lsp {

using protocol::Json;

class Server;
class Progress;
namespace detail {
class Outbox;
struct RequestState;
}  // namespace detail

// What a request handler gets besides its params. Copyable: copy it into the closure you post
// to the thread pool. Every copy refers to the same request.
struct RequestContext {
  // Answers the request, exactly once (Reply.h). Any thread.
  Reply reply;
  // Cancelled by `$/cancelRequest`, by a cancel on this request's progress in the editor, by
  // `shutdown`/`exit`/EOF. When it fires, the client has ALREADY been answered -32800: stop the
  // work and do not reply again (a late reply is dropped anyway). Any thread.
  support::CancellationToken cancel;
  // The request id as the client sent it (for logs).
  protocol::RequestId id;
  // The client-supplied `workDoneToken` from the params, or null.
  Json workDoneToken;

  // Starts a $/progress report bound to this request: it uses `workDoneToken` when the client
  // supplied one, else creates a token with window/workDoneProgress/create when the client
  // supports server-initiated progress, else reports nothing (the calls still work). A cancel
  // pressed on it in the editor cancels this request (`cancel` above). Loop thread only; the
  // returned Progress is usable from any thread.
  std::shared_ptr<Progress> beginProgress(std::string title, std::optional<std::string> message = std::nullopt,
                                          bool cancellable = true) const;

 private:
  friend class Server;
  Server* server_ = nullptr;
  std::shared_ptr<detail::RequestState> state_;
};

// A $/progress sequence: begin (sent on creation), any number of reports, one end.
// Thread-safety: every member may be called from any thread. The destructor ends it if needed.
class Progress {
 public:
  ~Progress();
  void report(std::optional<std::string> message, std::optional<int> percentage = std::nullopt);
  // Idempotent; later calls and reports are ignored.
  void end(std::optional<std::string> message = std::nullopt);
  // The token ("greenlight/3" or the client's), null when nothing is reported.
  const Json& token() const { return token_; }

 private:
  friend class Server;
  Progress(std::shared_ptr<detail::Outbox> outbox, Json token) : outbox_(std::move(outbox)), token_(std::move(token)) {}
  void send(Json value);
  void created(bool ok);  // loop: the create request was answered

  std::shared_ptr<detail::Outbox> outbox_;
  Json token_;
  std::mutex mutex_;
  bool ready_ = false;           // begin may be sent (token known to the client)
  bool failed_ = false;          // create failed / unsupported: report nothing
  bool ended_ = false;
  std::vector<Json> buffered_;   // values sent before the token was created
  std::function<void()> onCancel_;  // window/workDoneProgress/cancel
};

struct DocumentEvent {
  std::string uri;
  std::string path;  // empty for non-file URIs
  std::int64_t version = 0;
  std::string languageId;
};

struct ServerOptions {
  std::string version = "0.0.0";  // serverInfo.version
  std::size_t workerThreads = 0;  // 0: max(2, cores)
  // The environment layer of the configuration; nullopt reads the process environment.
  std::optional<std::map<std::string, std::string>> environment;
  // Mirror log lines at or above Warn to window/logMessage (support::setLogForwarder). Only one
  // server per process should do this; tests running several servers turn it off.
  bool forwardLogs = true;
};

class Server {
 public:
  // `io` and `transport` must outlive the server. Construct, register features, start(), then
  // run the io_context; the session ends by stopping it (after `exit` or EOF).
  Server(boost::asio::io_context& io, Transport& transport, ServerOptions options = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // ---- Registration (before start()) -----------------------------------------------------

  using RawRequestHandler = std::function<void(const Json& params, RequestContext ctx)>;
  using RawNotificationHandler = std::function<void(const Json& params)>;

  // A request handler with typed params: `Params` must have protocol's
  // `fromJson(const Json&, Params&, const JsonPath&)`. Decoding failures answer -32602 with
  // the field path; the handler never sees bad params. Replacing a built-in method is allowed.
  template <typename Params>
  void onRequest(const std::string& method, std::function<void(const Params&, RequestContext)> handler) {
    onRequestRaw(method, [handler = std::move(handler)](const Json& params, RequestContext ctx) {
      handler(protocol::parse<Params>(params), std::move(ctx));
    });
  }
  void onRequestRaw(const std::string& method, RawRequestHandler handler);

  // A notification handler; decoding failures are logged (Warn, naming the field) and dropped.
  template <typename Params>
  void onNotification(const std::string& method, std::function<void(const Params&)> handler) {
    onNotificationRaw(method, [handler = std::move(handler)](const Json& params) {
      handler(protocol::parse<Params>(params));
    });
  }
  void onNotificationRaw(const std::string& method, RawNotificationHandler handler);

  // A `workspace/executeCommand` command. It is advertised in executeCommandProvider.commands.
  // Argument decoding errors thrown as protocol::JsonError answer -32602 prefixed with
  // "arguments". An unknown command answers -32602 "command: unknown command 'x'".
  using CommandHandler = std::function<void(const std::vector<Json>& arguments, RequestContext ctx)>;
  void onCommand(const std::string& command, CommandHandler handler);
  // Advertise a command before a handler exists (codeAction lists it; the handler lands later).
  // Until onCommand registers it, executing it answers -32602 "command: 'x' is not available".
  void declareCommand(const std::string& command);

  // Code actions: textDocument/codeAction calls every provider (in registration order) and
  // concatenates what they add; context.only filtering and the fallback to plain Commands for
  // clients without codeActionLiteralSupport are done here. Providers must be cheap (no
  // process, no LLM, no file I/O): they run on the loop for every cursor move.
  // Each action a provider adds must carry `data` = {"greenlight": {"provider": <name>, ...}};
  // codeAction/resolve routes it back to that provider's resolver, which returns the action
  // completed (idempotently: resolving a resolved action returns it unchanged). Actions
  // without a resolver are returned as they are.
  using CodeActionProvider =
      std::function<void(const protocol::CodeActionParams&, std::vector<protocol::CodeAction>& out)>;
  using CodeActionResolver = std::function<protocol::CodeAction(protocol::CodeAction action)>;
  void addCodeActionProvider(const std::string& name, std::vector<std::string> kinds,
                             CodeActionProvider provider, CodeActionResolver resolver = nullptr);

  // Hooks, called on the loop after the DocumentStore was updated.
  void onDidOpen(std::function<void(const DocumentEvent&)> hook);
  void onDidChange(std::function<void(const DocumentEvent&)> hook);
  void onDidSave(std::function<void(const DocumentEvent&)> hook);
  void onDidClose(std::function<void(const DocumentEvent&)> hook);  // version is the last one
  // After `initialized` (the client can now take server->client requests).
  void onInitialized(std::function<void()> hook);
  // Each time the resolved configuration changes (and once after initialize).
  void onConfigChanged(std::function<void(const core::Config&)> hook);
  // On `shutdown`, before in-flight requests are cancelled; also when the session ends without
  // one (EOF, exit alone). Hooks must be idempotent.
  void onShutdown(std::function<void()> hook);

  // ---- Running ---------------------------------------------------------------------------

  // Starts reading from the transport. Call on the loop thread (or before io.run()); the
  // thread that runs the io_context becomes the loop thread.
  void start();
  // True once `exit` or EOF ended the session (the io_context has been asked to stop).
  bool finished() const { return finished_; }
  // 0 after shutdown + exit, 1 otherwise (also for EOF without shutdown).
  int exitCode() const { return shutdownReceived_ ? 0 : 1; }

  // ---- State for features (loop thread unless noted) -----------------------------------

  core::DocumentStore& documents() { return documents_; }  // the store itself is thread-safe
  const core::Config& config() const { return config_; }    // copy it for workers
  protocol::PositionEncoding positionEncoding() const { return encoding_; }  // fixed at initialize
  const protocol::ClientCapabilities& clientCapabilities() const { return capabilities_; }
  // The first workspace folder, else rootUri, else rootPath, as an absolute path.
  const std::optional<std::string>& workspaceRoot() const { return workspaceRoot_; }
  support::ThreadPool& threadPool() { return pool_; }  // any thread
  boost::asio::io_context& ioContext() { return io_; }

  // Runs `fn` on the loop (inline when already there). Any thread. Dropped after the server
  // is destroyed.
  void postToLoop(std::function<void()> fn);

  // ---- Talking to the client (any thread unless noted) -----------------------------------

  void sendNotification(const std::string& method, Json params);
  // `version` should be the document version the diagnostics were computed for.
  void publishDiagnostics(const std::string& uri, std::optional<std::int64_t> version,
                          std::vector<protocol::Diagnostic> diagnostics);
  // window/logMessage (also written to the log at the matching level).
  void logMessage(protocol::MessageType type, const std::string& message);
  void showMessage(protocol::MessageType type, const std::string& message);

  // A server->client request with its own id. `onResult` gets the result, `onError` the error
  // (also called with -32800 "session ended" if the session ends first). Called on the loop.
  using ResultCallback = std::function<void(const Json& result)>;
  using ErrorCallback = std::function<void(const protocol::ResponseError& error)>;
  void sendRequest(const std::string& method, Json params, ResultCallback onResult, ErrorCallback onError = nullptr);

  // workspace/applyEdit. When the client supports documentChanges the edit is sent as is;
  // otherwise documentChanges are converted to `changes` (versions are then not checked).
  // `done` gets the client's answer, or nullopt with `error` filled (client without applyEdit
  // support, request failed, or session ended). Any thread; `done` runs on the loop.
  void applyEdit(std::string label, protocol::WorkspaceEdit edit,
                 std::function<void(std::optional<protocol::ApplyWorkspaceEditResult>, std::string error)> done);

  // A progress not bound to a request (e.g. a run triggered by didSave). Loop thread.
  // `onCancel` runs on the loop when the user cancels it in the editor.
  std::shared_ptr<Progress> beginProgress(std::string title, std::optional<std::string> message = std::nullopt,
                                          bool cancellable = false, std::function<void()> onCancel = nullptr,
                                          Json clientToken = nullptr);

 private:
  enum class State { Uninitialized, Running, ShutDown, Exited };
  struct CodeActionEntry {
    std::string name;
    std::vector<std::string> kinds;
    CodeActionProvider provider;
    CodeActionResolver resolver;
  };
  struct PendingServerRequest {
    std::string method;
    ResultCallback onResult;
    ErrorCallback onError;
  };

  void registerBuiltins();
  void onBody(std::string body);
  void onFramingError(const std::string& error);
  void onInputClosed(const std::string& why);
  void dispatchRequest(protocol::Message message);
  void dispatchNotification(const protocol::Message& message);
  void dispatchResponse(const protocol::Message& message);
  void write(Json message);  // loop only
  void endSession();
  void cancelInFlight(const std::string& why);

  // Built-in handlers.
  void handleInitialize(const Json& params, RequestContext ctx);
  void handleInitialized();
  void handleShutdown(RequestContext ctx);
  void handleExit();
  void handleCancel(const Json& params);
  void handleDidOpen(const Json& params);
  void handleDidChange(const Json& params);
  void handleDidSave(const Json& params);
  void handleDidClose(const Json& params);
  void handleDidChangeConfiguration(const Json& params);
  void handleProgressCancel(const Json& params);
  void handleExecuteCommand(const Json& params, RequestContext ctx);
  void handleCodeAction(const Json& params, RequestContext ctx);
  void handleCodeActionResolve(const Json& params, RequestContext ctx);

  void pullConfiguration();
  void reloadConfig(const char* why);
  void installLogForwarder();

  boost::asio::io_context& io_;
  Transport& transport_;
  ServerOptions options_;
  std::shared_ptr<detail::Outbox> outbox_;

  std::map<std::string, RawRequestHandler> requests_;
  std::map<std::string, RawNotificationHandler> notifications_;
  std::map<std::string, CommandHandler> commands_;
  std::vector<std::string> declaredCommands_;
  std::vector<CodeActionEntry> codeActions_;
  std::vector<std::function<void(const DocumentEvent&)>> didOpen_, didChange_, didSave_, didClose_;
  std::vector<std::function<void()>> initializedHooks_, shutdownHooks_;
  std::vector<std::function<void(const core::Config&)>> configHooks_;

  State state_ = State::Uninitialized;
  bool shutdownReceived_ = false;
  bool finished_ = false;
  std::size_t framingErrors_ = 0;

  // In-flight client requests by id (dumped JSON, so 1 and "1" differ as they should).
  std::map<std::string, std::weak_ptr<detail::RequestState>> inFlight_;
  std::int64_t nextServerRequestId_ = 1;
  std::map<std::int64_t, PendingServerRequest> pendingServerRequests_;
  std::int64_t nextProgressToken_ = 1;
  std::map<std::string, std::weak_ptr<Progress>> progresses_;  // by dumped token

  protocol::ClientCapabilities capabilities_;
  protocol::PositionEncoding encoding_ = protocol::PositionEncoding::Utf16;
  std::optional<std::string> workspaceRoot_;
  core::ConfigLayers layers_;
  core::Config config_;
  core::DocumentStore documents_;
  support::ThreadPool pool_;  // last: destroyed (joined) first

  friend struct RequestContext;
};

}  // namespace greenlight::lsp
