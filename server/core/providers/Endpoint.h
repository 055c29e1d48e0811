// Where and how to reach one provider: the result of provider resolution, the input of
// ChatClient. Holds the API key in memory only; nothing prints an Endpoint's apiKey.
//
// Thread-safety: a plain value.
#pragma once

#include <string>

#include "core/providers/Types.h"

namespace greenlight::core::providers {

struct Endpoint {
  Protocol protocol = Protocol::OpenAIChat;
  std::string name;       // "openai", "anthropic", "ollama", "llama.cpp", "openai-compatible"
  std::string baseUrl;    // "https://api.openai.com/v1", "https://api.anthropic.com", ...
  std::string model;
  std::string apiKeyEnv;  // the variable the key comes from ("" when none is needed)
  std::string apiKey;     // secret: never log, never pass to the sandbox
  double timeoutSeconds = 120;  // the whole call, retries included
  double stallSeconds = 60;     // a stream silent this long is abandoned
  double connectSeconds = 10;
  int maxRetries = 3;
  double temperature = 0.2;     // used when the request does not say
  int maxTokens = 2048;
};

// The URL requests go to: {baseUrl}/chat/completions or {baseUrl}/v1/messages.
std::string requestUrl(const Endpoint& endpoint);

}  // namespace greenlight::core::providers
