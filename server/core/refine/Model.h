// The model as the refine loop sees it: "n completions of this conversation", streamed, each
// whole or failed, cancellable. ProviderModel is the real one (ChatClient + a resolved
// Endpoint); tests may also fake this interface, though the end-to-end tests use a real HTTP
// server that speaks the providers' protocols.
//
// ProviderModel asks for n completions in one request (`n`) where the provider is OpenAI's own
// API, which supports it, and tops up with separate concurrent requests for whatever did not
// come back that way (every other OpenAI-compatible server and Anthropic answer one choice).
//
// Threading: complete() blocks the calling thread (never the ChatClient's I/O thread) until
// every completion finished, failed or was cancelled; onDelta is called on the ChatClient's I/O
// thread, one call at a time. A cancelled token makes every request stop within one I/O loop
// turn.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "core/providers/ChatClient.h"
#include "core/providers/Endpoint.h"
#include "core/providers/Types.h"
#include "support/Cancellation.h"

namespace greenlight::core::refine {

class Model {
 public:
  virtual ~Model() = default;
  // `index` in onDelta says which completion the text belongs to (0..n-1).
  virtual std::vector<providers::ChatResult> complete(const providers::ChatRequest& request, int n,
                                                      support::CancellationToken token,
                                                      std::function<void(int index, std::string_view delta)> onDelta) = 0;
  // The API key in use (for redaction), "" when none.
  virtual std::string secret() const { return ""; }
  // "openai gpt-4o-mini at https://..." for logs and the JSON; never the key.
  virtual std::string describe() const = 0;
};

class ProviderModel : public Model {
 public:
  // `client` must outlive this object.
  ProviderModel(providers::ChatClient& client, providers::Endpoint endpoint);
  std::vector<providers::ChatResult> complete(const providers::ChatRequest& request, int n,
                                              support::CancellationToken token,
                                              std::function<void(int, std::string_view)> onDelta) override;
  std::string secret() const override { return endpoint_.apiKey; }
  std::string describe() const override;

  // Whether one request may ask for n choices (OpenAI's API itself).
  static bool supportsChoices(const providers::Endpoint& endpoint);

 private:
  providers::ChatClient& client_;
  providers::Endpoint endpoint_;
};

}  // namespace greenlight::core::refine
