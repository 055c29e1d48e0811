#include "core/providers/Protocol.h"

#include <nlohmann/json.hpp>

namespace greenlight::core::providers {
namespace {

using nlohmann::json;

std::string trimSlash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

std::string hostOf(const std::string& url) {
  auto start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  auto end = url.find_first_of(":/?#", start);
  return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// OpenAI's reasoning models take max_completion_tokens and reject a temperature.
bool isOpenAIReasoningModel(const std::string& model) {
  return startsWith(model, "o1") || startsWith(model, "o3") || startsWith(model, "o4") ||
         startsWith(model, "gpt-5");
}

std::string snippet(std::string_view s, std::size_t max = 120) {
  std::string out(s.substr(0, max));
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > max) out += "...";
  return out;
}

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::string stringAt(const json& j, const char* key) {
  const json* v = member(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::optional<int> intAt(const json& j, const char* key) {
  const json* v = member(j, key);
  if (v && v->is_number()) return static_cast<int>(v->get<double>());
  return std::nullopt;
}

bool retryableType(const std::string& type) {
  return type == "overloaded_error" || type == "api_error" || type == "server_error" ||
         type == "rate_limit_error" || type == "internal_server_error" || type == "service_unavailable";
}

// {"error": {...}} or {"type":"error","error":{...}} or {"error":"text"}.
bool readErrorObject(const json& j, ReplyFailure& out) {
  const json* e = member(j, "error");
  if (!e) return false;
  if (e->is_string()) {
    out.message = e->get<std::string>();
  } else if (e->is_object()) {
    out.message = stringAt(*e, "message");
    out.type = stringAt(*e, "type");
    if (out.type.empty()) {
      if (const json* code = member(*e, "code")) out.type = code->is_string() ? code->get<std::string>() : code->dump();
    }
  } else {
    out.message = e->dump();
  }
  if (out.message.empty()) out.message = snippet(e->dump(), 300);
  out.retryable = retryableType(out.type);
  return true;
}

}  // namespace

std::string requestUrl(const Endpoint& endpoint) {
  std::string base = trimSlash(endpoint.baseUrl);
  if (endpoint.protocol == Protocol::AnthropicMessages) {
    // Accept a baseUrl given with the version segment too.
    if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0) base.resize(base.size() - 3);
    return base + "/v1/messages";
  }
  return base + "/chat/completions";
}

HttpRequest buildHttpRequest(const Endpoint& ep, const ChatRequest& rq) {
  HttpRequest http;
  http.url = requestUrl(ep);
  std::string model = rq.model.value_or(ep.model);
  double temperature = rq.temperature.value_or(ep.temperature);
  int maxTokens = rq.maxTokens.value_or(ep.maxTokens);
  std::string system = rq.system;
  json messages = json::array();
  for (const auto& m : rq.messages) {
    if (m.role == "system" && ep.protocol == Protocol::AnthropicMessages) {
      system += (system.empty() ? "" : "\n\n") + m.content;
      continue;
    }
    messages.push_back({{"role", m.role}, {"content", m.content}});
  }
  json body;
  http.headers.emplace_back("Content-Type", "application/json");
  if (rq.stream) http.headers.emplace_back("Accept", "text/event-stream");
  else http.headers.emplace_back("Accept", "application/json");
  if (ep.protocol == Protocol::OpenAIChat) {
    if (!system.empty()) messages.insert(messages.begin(), json{{"role", "system"}, {"content", system}});
    body = {{"model", model}, {"messages", messages}};
    bool official = hostOf(ep.baseUrl) == "api.openai.com";
    bool reasoning = official && isOpenAIReasoningModel(model);
    if (!reasoning) body["temperature"] = temperature;
    body[official ? "max_completion_tokens" : "max_tokens"] = maxTokens;
    if (!rq.stop.empty()) body["stop"] = rq.stop;
    if (rq.n > 1) body["n"] = rq.n;
    body["stream"] = rq.stream;
    if (rq.stream) body["stream_options"] = {{"include_usage", true}};
    if (!ep.apiKey.empty()) http.headers.emplace_back("Authorization", "Bearer " + ep.apiKey);
  } else {
    body = {{"model", model}, {"max_tokens", maxTokens}, {"messages", messages}};
    if (!system.empty()) body["system"] = system;
    body["temperature"] = temperature;
    if (!rq.stop.empty()) body["stop_sequences"] = rq.stop;
    body["stream"] = rq.stream;
    if (!ep.apiKey.empty()) http.headers.emplace_back("x-api-key", ep.apiKey);
    http.headers.emplace_back("anthropic-version", "2023-06-01");
  }
  http.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return http;
}

bool StreamDecoder::fail(std::string why, const SseEvent& event) {
  malformed_ = why + " in stream event " + std::to_string(events_) + " (" +
               (event.event == "message" ? std::string() : "event: " + event.event + ", ") +
               "data: " + snippet(event.data) + ")";
  return false;
}

bool StreamDecoder::onEvent(const SseEvent& event, std::string& delta) {
  ++events_;
  if (done_) return true;  // anything after the end marker is ignored
  return protocol_ == Protocol::OpenAIChat ? onOpenAI(event, delta) : onAnthropic(event, delta);
}

bool StreamDecoder::onOpenAI(const SseEvent& event, std::string& delta) {
  if (event.data == "[DONE]") {
    done_ = true;
    return true;
  }
  json j = json::parse(event.data, nullptr, false);
  if (j.is_discarded()) return fail("malformed JSON", event);
  if (!j.is_object()) return fail("expected a JSON object", event);
  if (event.event == "error" || member(j, "error")) {
    if (!readErrorObject(j, failure_)) failure_.message = snippet(event.data, 300);
    failed_ = true;
    return false;
  }
  if (auto m = stringAt(j, "model"); !m.empty()) result_.model = m;
  if (const json* usage = member(j, "usage"); usage && usage->is_object()) {
    if (auto v = intAt(*usage, "prompt_tokens")) result_.usage.inputTokens = v;
    if (auto v = intAt(*usage, "completion_tokens")) result_.usage.outputTokens = v;
  }
  const json* choices = member(j, "choices");
  if (!choices) return true;  // e.g. a usage-only chunk
  if (!choices->is_array()) return fail("\"choices\" is not an array", event);
  for (const auto& choice : *choices) {
    if (!choice.is_object()) return fail("a choice is not an object", event);
    // Choices after the first (a request with n > 1) are collected aside; only the first
    // streams through `delta` and decides the finish reason.
    if (auto idx = intAt(choice, "index"); idx && *idx != 0) {
      if (*idx < 0 || *idx > 64) continue;
      auto slot = static_cast<std::size_t>(*idx - 1);
      if (result_.choices.size() <= slot) result_.choices.resize(slot + 1);
      if (const json* d = member(choice, "delta"); d && d->is_object()) {
        if (const json* c = member(*d, "content"); c && c->is_string()) result_.choices[slot] += c->get<std::string>();
      }
      continue;
    }
    if (const json* d = member(choice, "delta")) {
      if (!d->is_object()) return fail("\"delta\" is not an object", event);
      if (const json* c = member(*d, "content")) {
        if (!c->is_string()) return fail("\"delta.content\" is not a string", event);
        delta += c->get<std::string>();
      }
      for (const char* key : {"reasoning_content", "reasoning"})
        if (const json* r = member(*d, key); r && r->is_string()) result_.reasoning += r->get<std::string>();
    }
    if (const json* f = member(choice, "finish_reason"); f && f->is_string()) {
      result_.finishRaw = f->get<std::string>();
      result_.finish = finishReasonFrom(result_.finishRaw);
      finishSeen_ = true;
    }
  }
  result_.text += delta;
  return true;
}

bool StreamDecoder::onAnthropic(const SseEvent& event, std::string& delta) {
  json j = json::parse(event.data, nullptr, false);
  if (j.is_discarded()) return fail("malformed JSON", event);
  if (!j.is_object()) return fail("expected a JSON object", event);
  std::string type = event.event != "message" ? event.event : stringAt(j, "type");
  if (type == "error" || (type.empty() && member(j, "error"))) {
    if (!readErrorObject(j, failure_)) failure_.message = snippet(event.data, 300);
    failed_ = true;
    return false;
  }
  if (type == "ping" || type == "content_block_stop") return true;
  if (type == "message_start") {
    const json* m = member(j, "message");
    if (!m || !m->is_object()) return fail("\"message\" missing", event);
    if (auto model = stringAt(*m, "model"); !model.empty()) result_.model = model;
    if (const json* u = member(*m, "usage"); u && u->is_object()) {
      if (auto v = intAt(*u, "input_tokens")) result_.usage.inputTokens = v;
      if (auto v = intAt(*u, "output_tokens")) result_.usage.outputTokens = v;
    }
    return true;
  }
  if (type == "content_block_start") {
    if (const json* b = member(j, "content_block"); b && b->is_object() && stringAt(*b, "type") == "text")
      delta += stringAt(*b, "text");
    result_.text += delta;
    return true;
  }
  if (type == "content_block_delta") {
    const json* d = member(j, "delta");
    if (!d || !d->is_object()) return fail("\"delta\" missing", event);
    std::string kind = stringAt(*d, "type");
    if (kind == "text_delta") {
      const json* t = member(*d, "text");
      if (!t || !t->is_string()) return fail("\"delta.text\" is not a string", event);
      delta += t->get<std::string>();
    } else if (kind == "thinking_delta") {
      result_.reasoning += stringAt(*d, "thinking");
    }
    result_.text += delta;
    return true;
  }
  if (type == "message_delta") {
    if (const json* d = member(j, "delta"); d && d->is_object()) {
      if (auto reason = stringAt(*d, "stop_reason"); !reason.empty()) {
        result_.finishRaw = reason;
        result_.finish = finishReasonFrom(reason);
        finishSeen_ = true;
      }
    }
    if (const json* u = member(j, "usage"); u && u->is_object()) {
      if (auto v = intAt(*u, "output_tokens")) result_.usage.outputTokens = v;
      if (auto v = intAt(*u, "input_tokens")) result_.usage.inputTokens = v;
    }
    return true;
  }
  if (type == "message_stop") {
    done_ = true;
    return true;
  }
  return true;  // new event types are ignored, as Anthropic's versioning policy asks
}

bool parseWholeReply(Protocol protocol, std::string_view body, ChatResult& out,
                     std::string& malformed, ReplyFailure& failure) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    malformed = "the reply is not a JSON object (" + snippet(body) + ")";
    return false;
  }
  if (readErrorObject(j, failure)) return false;
  if (auto m = stringAt(j, "model"); !m.empty()) out.model = m;
  if (protocol == Protocol::OpenAIChat) {
    const json* choices = member(j, "choices");
    if (!choices || !choices->is_array() || choices->empty() || !(*choices)[0].is_object()) {
      malformed = "\"choices\" is missing or empty (" + snippet(body) + ")";
      return false;
    }
    for (std::size_t i = 1; i < choices->size() && i <= 64; ++i) {
      const json* m = member((*choices)[i], "message");
      out.choices.push_back(m ? stringAt(*m, "content") : std::string());
    }
    const json& c = (*choices)[0];
    const json* msg = member(c, "message");
    if (!msg || !msg->is_object()) {
      malformed = "\"choices[0].message\" is missing";
      return false;
    }
    if (const json* content = member(*msg, "content")) {
      if (!content->is_string()) {
        malformed = "\"choices[0].message.content\" is not a string";
        return false;
      }
      out.text = content->get<std::string>();
    }
    for (const char* key : {"reasoning_content", "reasoning"}) out.reasoning += stringAt(*msg, key);
    out.finishRaw = stringAt(c, "finish_reason");
    if (const json* u = member(j, "usage"); u && u->is_object()) {
      out.usage.inputTokens = intAt(*u, "prompt_tokens");
      out.usage.outputTokens = intAt(*u, "completion_tokens");
    }
  } else {
    const json* content = member(j, "content");
    if (!content || !content->is_array()) {
      malformed = "\"content\" is missing or not an array (" + snippet(body) + ")";
      return false;
    }
    for (const auto& block : *content) {
      if (!block.is_object()) continue;
      std::string type = stringAt(block, "type");
      if (type == "text") out.text += stringAt(block, "text");
      else if (type == "thinking") out.reasoning += stringAt(block, "thinking");
    }
    out.finishRaw = stringAt(j, "stop_reason");
    if (const json* u = member(j, "usage"); u && u->is_object()) {
      out.usage.inputTokens = intAt(*u, "input_tokens");
      out.usage.outputTokens = intAt(*u, "output_tokens");
    }
  }
  out.finish = out.finishRaw.empty() ? FinishReason::Unknown : finishReasonFrom(out.finishRaw);
  return true;
}

std::string providerErrorMessage(std::string_view body) {
  json j = json::parse(body, nullptr, false);
  std::string message;
  if (!j.is_discarded() && j.is_object()) {
    ReplyFailure f;
    if (readErrorObject(j, f)) message = f.type.empty() || f.message.find(f.type) != std::string::npos
                                             ? f.message
                                             : f.type + ": " + f.message;
    else if (auto m = stringAt(j, "message"); !m.empty()) message = m;
    else if (auto d = stringAt(j, "detail"); !d.empty()) message = d;
  }
  if (message.empty()) {
    std::string_view s = body;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    message = std::string(s);
  }
  return snippet(message, 300);
}

}  // namespace greenlight::core::providers
