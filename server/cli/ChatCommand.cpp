// `greenlight chat [--provider P] [--model M] PROMPT`: one prompt to the resolved provider, the
// reply streamed to stdout as it arrives. Exit 0 on a complete reply, 1 on a provider error (the
// message on stderr), 2 on a usage or configuration error, 130 when interrupted.
//
// Ctrl-C (cli/Interrupt.h): the main thread waits on the interrupt pipe and on the call's
// completion, cancels the call, and the provider I/O thread aborts the transfer at once. A
// second Ctrl-C kills the process outright.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>

#include "cli/Commands.h"
#include "cli/Interrupt.h"
#include "core/providers/ChatClient.h"
#include "core/providers/Resolve.h"
#include "support/Cancellation.h"
#include "support/Log.h"

namespace greenlight::cli {
namespace {

using namespace core::providers;

const char kChatUsage[] =
    "usage: greenlight chat [options] PROMPT...\n"
    "  Sends PROMPT (the arguments joined by spaces; \"-\" reads standard input) to the configured\n"
    "  LLM provider and streams the reply to standard output.\n"
    "options:\n"
    "  --provider P       auto, openai, anthropic, ollama or llama.cpp (default: greenlight.provider)\n"
    "  --model M          model name (default: greenlight.model, else the provider's default)\n"
    "  --base-url URL     API base URL (default: greenlight.baseUrl)\n"
    "  --system TEXT      system prompt\n"
    "  --max-tokens N     reply length limit (default: greenlight.maxTokens)\n"
    "  --temperature T    sampling temperature (default: greenlight.temperature)\n"
    "  --timeout S        whole-call timeout in seconds (default: greenlight.timeoutSeconds)\n"
    "  --no-stream        ask for the whole reply at once\n"
    "  --usage            print the model, finish reason and token counts on stderr\n"
    "  --workspace DIR    read DIR/.greenlight.json (default: the current directory)\n"
    "  --log-level L      trace, debug, info, warn (default), error\n"
    "exit: 0 reply complete, 1 provider error, 2 usage/config error, 130 interrupted\n";

int usageError(const std::string& message) {
  std::fprintf(stderr, "greenlight chat: %s\n\n%s", message.c_str(), kChatUsage);
  return 2;
}

std::optional<double> parseNumber(const std::string& s) {
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || errno != 0) return std::nullopt;
  return v;
}

}  // namespace

int chatCommand(const Args& args) {
  nlohmann::json overrides = nlohmann::json::object();
  std::map<std::string, std::string> flagOrigin;
  std::string localProvider, system, workspace = ".";
  std::optional<int> maxTokens;
  std::optional<double> temperature;
  bool stream = true, showUsage = false;
  std::string prompt;
  bool promptGiven = false;
  support::setLogLevel(support::LogLevel::Warn);

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      (void)flag;
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kChatUsage, stdout);
      return 0;
    }
    if (a == "--no-stream") {
      stream = false;
    } else if (a == "--usage") {
      showUsage = true;
    } else if (a == "--provider" || a == "--model" || a == "--base-url" || a == "--system" ||
               a == "--max-tokens" || a == "--temperature" || a == "--timeout" || a == "--workspace" ||
               a == "--log-level") {
      auto v = value(a.c_str());
      if (!v) return usageError(a + " needs a value");
      if (a == "--provider") {
        if (*v == "ollama" || *v == "llama.cpp" || *v == "llamacpp") {
          localProvider = *v == "ollama" ? "ollama" : "llama.cpp";
          overrides["provider"] = "auto";
        } else if (*v == "auto" || *v == "openai" || *v == "anthropic") {
          overrides["provider"] = *v;
        } else {
          return usageError("unknown provider '" + *v + "' (auto, openai, anthropic, ollama, llama.cpp)");
        }
        flagOrigin["provider"] = "--provider";
      } else if (a == "--model") {
        overrides["model"] = *v;
        flagOrigin["model"] = "--model";
      } else if (a == "--base-url") {
        overrides["baseUrl"] = *v;
        flagOrigin["baseUrl"] = "--base-url";
      } else if (a == "--system") {
        system = *v;
      } else if (a == "--max-tokens") {
        auto n = parseNumber(*v);
        if (!n || *n < 1 || *n != static_cast<int>(*n)) return usageError("--max-tokens needs a positive integer");
        maxTokens = static_cast<int>(*n);
      } else if (a == "--temperature") {
        temperature = parseNumber(*v);
        if (!temperature || *temperature < 0) return usageError("--temperature needs a number >= 0");
      } else if (a == "--timeout") {
        auto t = parseNumber(*v);
        if (!t || *t <= 0) return usageError("--timeout needs a number of seconds > 0");
        overrides["timeoutSeconds"] = *t;
      } else if (a == "--workspace") {
        workspace = *v;
      } else {
        auto level = support::parseLogLevel(*v);
        if (!level) return usageError("unknown log level '" + *v + "'");
        support::setLogLevel(*level);
      }
    } else if (a == "--") {
      for (++i; i < args.size(); ++i) prompt += (prompt.empty() ? "" : " ") + args[i], promptGiven = true;
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      return usageError("unknown option " + a);
    } else {
      prompt += (prompt.empty() ? "" : " ") + a;
      promptGiven = true;
    }
  }
  if (prompt == "-") {
    prompt.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  if (!promptGiven || prompt.find_first_not_of(" \t\r\n") == std::string::npos)
    return usageError("no prompt given");

  std::string error;
  if (!localProvider.empty() && !overrides.contains("baseUrl")) {
    auto env = core::relevantEnvironment();
    overrides["baseUrl"] = localProvider == "ollama"
                               ? ollamaBaseUrl(env.count("OLLAMA_HOST") ? env["OLLAMA_HOST"] : "") + "/v1"
                               : std::string(kLlamaCppDefaultUrl) + "/v1";
    flagOrigin["baseUrl"] = "--provider";
  }
  auto config = configForCommandLine(workspace, overrides, flagOrigin, &error);
  if (!config) {
    std::fprintf(stderr, "greenlight chat: configuration error: %s\n", error.c_str());
    return 2;
  }
  ResolvedProvider resolved = resolveProvider(*config);
  if (!resolved.found) {
    std::fprintf(stderr, "greenlight chat: no LLM provider is configured or running locally.\n  hint: %s\n",
                 resolved.hint.c_str());
    for (const auto& t : resolved.tried) std::fprintf(stderr, "  tried %s\n", t.c_str());
    return 1;
  }
  if (!localProvider.empty()) resolved.endpoint.name = localProvider;
  if (!resolved.problem.empty()) {
    std::fprintf(stderr, "greenlight chat: %s (%s at %s): %s.\n  hint: %s\n", resolved.problem.c_str(),
                 resolved.endpoint.name.c_str(), resolved.endpoint.baseUrl.c_str(), resolved.source.c_str(),
                 resolved.hint.c_str());
    return 1;
  }
  GL_LOG(Info, "chat: " << resolved.endpoint.name << " " << resolved.endpoint.model << " at "
                        << resolved.endpoint.baseUrl << " (" << resolved.source << ")");

  ChatRequest request;
  request.system = system;
  request.messages.push_back({"user", prompt});
  request.maxTokens = maxTokens;
  request.temperature = temperature;
  request.stream = stream;

  Interrupts interrupts;
  if (!interrupts.ok()) {
    std::fprintf(stderr, "greenlight chat: %s\n", interrupts.error().c_str());
    return 1;
  }

  support::CancellationSource cancel;
  support::CancellationSource finished;  // its fd wakes the main thread when the call is over
  std::mutex mutex;
  ChatResult result;
  bool endsWithNewline = true;
  int exitCode;
  {
    ChatClient client;
    ChatCallbacks cb;
    cb.onDelta = [&](std::string_view d) {
      std::fwrite(d.data(), 1, d.size(), stdout);
      std::fflush(stdout);
      endsWithNewline = d.back() == '\n';
    };
    cb.onRetry = [](int attempt, std::chrono::milliseconds wait, const ProviderError& why) {
      std::fprintf(stderr, "greenlight chat: attempt %d failed: %s\n  retrying in %.1f s\n", attempt,
                   why.message.c_str(), static_cast<double>(wait.count()) / 1000.0);
    };
    cb.onDone = [&](ChatResult r) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        result = std::move(r);
      }
      finished.cancel();
    };
    client.start(resolved.endpoint, std::move(request), std::move(cb), cancel.token());

    const bool interrupted = waitUnlessInterrupted(
        finished.token().fd(), interrupts, [](void* c) { static_cast<support::CancellationSource*>(c)->cancel(); }, &cancel);
    std::lock_guard<std::mutex> lock(mutex);
    if (!endsWithNewline) std::fputc('\n', stdout);
    std::fflush(stdout);
    if (result.ok()) {
      if (showUsage) {
        std::fprintf(stderr, "[%s, finish %s, %s input / %s output tokens, %d attempt%s]\n",
                     (result.model.empty() ? resolved.endpoint.model : result.model).c_str(),
                     result.finishRaw.empty() ? "unknown" : result.finishRaw.c_str(),
                     result.usage.inputTokens ? std::to_string(*result.usage.inputTokens).c_str() : "?",
                     result.usage.outputTokens ? std::to_string(*result.usage.outputTokens).c_str() : "?",
                     result.attempts, result.attempts == 1 ? "" : "s");
      }
      if (result.finish == FinishReason::Length)
        std::fprintf(stderr, "greenlight chat: warning: the reply was cut at the token limit (raise --max-tokens)\n");
      exitCode = 0;
    } else if (result.error.kind == ErrorKind::Cancelled || interrupted) {
      std::fprintf(stderr, "greenlight chat: interrupted; the reply is incomplete\n");
      exitCode = 130;
    } else {
      std::fprintf(stderr, "greenlight chat: %s\n", result.error.message.c_str());
      exitCode = 1;
    }
  }
  return exitCode;
}

}  // namespace greenlight::cli
