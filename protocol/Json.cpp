#include "protocol/Json.h"

#include <limits>

namespace greenlight::protocol {

std::string JsonPath::str() const {
  std::vector<const JsonPath*> chain;
  for (const JsonPath* p = this; p && p->parent_; p = p->parent_) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const JsonPath* p = *it;
    if (p->index_ >= 0) {
      out += '[';
      out += std::to_string(p->index_);
      out += ']';
    } else {
      if (!out.empty()) out += '.';
      out.append(p->key_.data(), p->key_.size());
    }
  }
  return out;
}

static std::string render(const JsonPath& path, const std::string& what) {
  std::string p = path.str();
  return p.empty() ? what : p + ": " + what;
}

JsonError::JsonError(const JsonPath& path, const std::string& what)
    : std::runtime_error(render(path, what)) {}

void requireObject(const Json& j, const JsonPath& path) {
  if (!j.is_object()) throw JsonError(path, "expected an object");
}

void fromJson(const Json& j, std::string& out, const JsonPath& path) {
  if (!j.is_string()) throw JsonError(path, "expected a string");
  out = j.get_ref<const std::string&>();
}

void fromJson(const Json& j, bool& out, const JsonPath& path) {
  if (!j.is_boolean()) throw JsonError(path, "expected a boolean");
  out = j.get<bool>();
}

void fromJson(const Json& j, std::int64_t& out, const JsonPath& path) {
  if (j.is_number_integer()) {
    out = j.get<std::int64_t>();
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw JsonError(path, "integer out of range");
    return;
  }
  // 3.0 is an integer on the wire for some clients (JavaScript numbers).
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (d == static_cast<double>(static_cast<std::int64_t>(d)) && d >= -9.2e18 && d <= 9.2e18) {
      out = static_cast<std::int64_t>(d);
      return;
    }
  }
  throw JsonError(path, "expected an integer");
}

void fromJson(const Json& j, int& out, const JsonPath& path) {
  std::int64_t v = 0;
  fromJson(j, v, path);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw JsonError(path, "integer out of range");
  out = static_cast<int>(v);
}

void fromJsonUnsigned(const Json& j, std::uint32_t& out, const JsonPath& path) {
  std::int64_t v = 0;
  try {
    fromJson(j, v, path);
  } catch (const JsonError&) {
    throw JsonError(path, "expected a non-negative integer");
  }
  if (v < 0 || v > std::numeric_limits<std::int32_t>::max())
    throw JsonError(path, "expected a non-negative integer");
  out = static_cast<std::uint32_t>(v);
}

void fromJson(const Json& j, double& out, const JsonPath& path) {
  if (!j.is_number()) throw JsonError(path, "expected a number");
  out = j.get<double>();
}

void fromJson(const Json& j, Json& out, const JsonPath&) { out = j; }

}  // namespace greenlight::protocol
