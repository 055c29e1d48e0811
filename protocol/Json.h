// Path-aware JSON decoding shared by every LSP value type (the idea of llvm::json::Path and
// ObjectMapper in clangd's Protocol.cpp, on top of nlohmann/json).
//
// Each value type T in protocol/ has, right under its struct,
//   void fromJson(const nlohmann::json& j, T& out, const JsonPath& path);   // throws JsonError
//   void to_json(nlohmann::json& j, const T& value);                         // nlohmann ADL hook
// so `nlohmann::json j = value;` serialises and `parse<T>(j)` decodes. A decoding failure throws
// JsonError whose message names the path from the root of the params object, e.g.
// "textDocument.position.line: expected a non-negative integer". Unknown fields are ignored
// (the spec lets clients send more than we use); missing optional fields keep their defaults.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace greenlight::protocol {

using Json = nlohmann::json;

// A node in the path from the root to the value being decoded. Lives on the stack of the
// decoding functions, so building paths costs nothing until an error is rendered.
class JsonPath {
 public:
  JsonPath() = default;
  JsonPath field(std::string_view name) const { return JsonPath(this, name, -1); }
  JsonPath index(std::size_t i) const { return JsonPath(this, {}, static_cast<std::int64_t>(i)); }
  // "textDocument.position.line", "contentChanges[2].text"; "" for the root.
  std::string str() const;

 private:
  JsonPath(const JsonPath* parent, std::string_view key, std::int64_t index)
      : parent_(parent), key_(key), index_(index) {}
  const JsonPath* parent_ = nullptr;
  std::string_view key_;
  std::int64_t index_ = -1;
};

class JsonError : public std::runtime_error {
 public:
  JsonError(const JsonPath& path, const std::string& what);
};

// Primitive decoders. Each throws JsonError naming `path` on a type mismatch.
void fromJson(const Json& j, std::string& out, const JsonPath& path);
void fromJson(const Json& j, bool& out, const JsonPath& path);
void fromJson(const Json& j, std::int64_t& out, const JsonPath& path);
void fromJson(const Json& j, int& out, const JsonPath& path);
void fromJson(const Json& j, double& out, const JsonPath& path);
void fromJson(const Json& j, Json& out, const JsonPath& path);  // any value, copied

// uinteger in the spec (line/character and the like): 0 .. 2^31-1.
void fromJsonUnsigned(const Json& j, std::uint32_t& out, const JsonPath& path);

template <typename T>
void fromJson(const Json& j, std::vector<T>& out, const JsonPath& path) {
  if (!j.is_array()) throw JsonError(path, "expected an array");
  out.clear();
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    T item{};
    fromJson(j[i], item, path.index(i));
    out.push_back(std::move(item));
  }
}

template <typename T>
void fromJson(const Json& j, std::optional<T>& out, const JsonPath& path) {
  if (j.is_null()) {
    out.reset();
    return;
  }
  T value{};
  fromJson(j, value, path);
  out = std::move(value);
}

// Object field helpers: `obj` must already be known to be an object.
void requireObject(const Json& j, const JsonPath& path);

template <typename T>
void requiredField(const Json& obj, const char* key, T& out, const JsonPath& path) {
  auto it = obj.find(key);
  JsonPath sub = path.field(key);
  if (it == obj.end()) throw JsonError(sub, "missing required field");
  fromJson(*it, out, sub);
}

// Absent or null leaves `out` untouched.
template <typename T>
void optionalField(const Json& obj, const char* key, T& out, const JsonPath& path) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return;
  fromJson(*it, out, path.field(key));
}

// Decodes a whole value; throws JsonError.
template <typename T>
T parse(const Json& j, const JsonPath& root = JsonPath()) {
  T value{};
  fromJson(j, value, root);
  return value;
}

// Non-throwing form: nullopt and `error` set to "path: message".
template <typename T>
std::optional<T> tryParse(const Json& j, std::string* error) {
  try {
    return parse<T>(j);
  } catch (const JsonError& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

}  // namespace greenlight::protocol
