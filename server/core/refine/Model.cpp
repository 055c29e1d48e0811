#include "core/refine/Model.h"

#include <condition_variable>
#include <memory>
#include <mutex>

namespace greenlight::core::refine {

using namespace providers;

ProviderModel::ProviderModel(ChatClient& client, Endpoint endpoint) : client_(client), endpoint_(std::move(endpoint)) {}

bool ProviderModel::supportsChoices(const Endpoint& endpoint) {
  return endpoint.protocol == Protocol::OpenAIChat && endpoint.baseUrl.find("://api.openai.com") != std::string::npos;
}

std::string ProviderModel::describe() const {
  return endpoint_.name + " " + endpoint_.model + " at " + endpoint_.baseUrl;
}

std::vector<ChatResult> ProviderModel::complete(const ChatRequest& request, int n, support::CancellationToken token,
                                                std::function<void(int, std::string_view)> onDelta) {
  if (n < 1) n = 1;
  struct Shared {
    std::mutex mutex;
    std::condition_variable cv;
    int pending = 0;
    std::vector<ChatResult> results;
  };
  auto shared = std::make_shared<Shared>();
  shared->results.resize(static_cast<std::size_t>(n));
  auto launch = [&](int first, int count) {
    ChatRequest r = request;
    r.n = count;
    ChatCallbacks cb;
    cb.onDelta = [onDelta, first](std::string_view d) {
      if (onDelta) onDelta(first, d);
    };
    cb.onDone = [shared, first, count](ChatResult result) {
      std::lock_guard<std::mutex> lock(shared->mutex);
      // Choices 2..count land in the following slots; missing ones stay empty (topped up below).
      for (int i = 1; i < count && static_cast<std::size_t>(i - 1) < result.choices.size(); ++i) {
        ChatResult extra;
        extra.text = result.choices[static_cast<std::size_t>(i - 1)];
        extra.finish = FinishReason::Stop;
        extra.model = result.model;
        extra.attempts = result.attempts;
        shared->results[static_cast<std::size_t>(first + i)] = std::move(extra);
      }
      result.choices.clear();
      shared->results[static_cast<std::size_t>(first)] = std::move(result);
      --shared->pending;
      shared->cv.notify_all();
    };
    {
      std::lock_guard<std::mutex> lock(shared->mutex);
      ++shared->pending;
    }
    client_.start(endpoint_, std::move(r), std::move(cb), token);
  };
  auto waitAll = [&] {
    std::unique_lock<std::mutex> lock(shared->mutex);
    shared->cv.wait(lock, [&] { return shared->pending == 0; });
  };
  if (n > 1 && supportsChoices(endpoint_)) {
    launch(0, n);
    waitAll();
    // Top up what did not come back as choices (a proxy that ignores n, or a failure).
    std::vector<int> missing;
    {
      std::lock_guard<std::mutex> lock(shared->mutex);
      if (shared->results[0].ok()) {
        for (int i = 1; i < n; ++i) {
          if (shared->results[static_cast<std::size_t>(i)].text.empty()) missing.push_back(i);
        }
      }
    }
    if (!missing.empty() && !token.isCancelled()) {
      for (int i : missing) launch(i, 1);
      waitAll();
    }
    std::lock_guard<std::mutex> lock(shared->mutex);
    return shared->results;
  }
  for (int i = 0; i < n; ++i) launch(i, 1);
  waitAll();
  std::lock_guard<std::mutex> lock(shared->mutex);
  return shared->results;
}

}  // namespace greenlight::core::refine
