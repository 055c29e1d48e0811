#include "core/testing/NodeVersions.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/testing/Discovery.h"

namespace greenlight::core::testing {
namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

int compare(const NodeVersion& a, const NodeVersion& b) {
  if (a.major != b.major) return a.major < b.major ? -1 : 1;
  if (a.minor != b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch != b.patch) return a.patch < b.patch ? -1 : 1;
  return 0;
}

// A partial version "20", "20.1", "20.x", "*": the parts given (-1 for a wildcard or absent).
struct Partial {
  int part[3] = {-1, -1, -1};
  int given = 0;  // leading parts that are numbers
};

std::optional<Partial> parsePartial(std::string s) {
  if (!s.empty() && (s[0] == 'v' || s[0] == '=')) s.erase(0, 1);
  Partial p;
  if (s.empty() || s == "*" || s == "x" || s == "X") return p;
  std::stringstream ss(s);
  std::string item;
  for (int i = 0; i < 3 && std::getline(ss, item, '.'); ++i) {
    auto dash = item.find_first_of("-+");  // a pre-release or build tag: ignored
    if (dash != std::string::npos) item.resize(dash);
    if (item == "x" || item == "X" || item == "*") break;
    if (item.empty() || !std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); }))
      return std::nullopt;
    p.part[i] = std::stoi(item);
    p.given = i + 1;
  }
  return p;
}

NodeVersion lowest(const Partial& p) {
  return {std::max(p.part[0], 0), std::max(p.part[1], 0), std::max(p.part[2], 0)};
}

// The first version past the partial's range: "20" -> 21.0.0, "20.1" -> 20.2.0.
NodeVersion pastEnd(const Partial& p) {
  if (p.given == 0) return {1 << 30, 0, 0};
  if (p.given == 1) return {p.part[0] + 1, 0, 0};
  if (p.given == 2) return {p.part[0], p.part[1] + 1, 0};
  return {p.part[0], p.part[1], p.part[2] + 1};
}

// One comparator ("^20.1", ">=18", "18.x"); nullopt when unreadable.
std::optional<bool> comparator(const NodeVersion& v, const std::string& c) {
  std::string op;
  std::size_t i = 0;
  while (i < c.size() && std::string_view("<>=~^").find(c[i]) != std::string_view::npos) op += c[i++];
  auto p = parsePartial(c.substr(i));
  if (!p) return std::nullopt;
  const NodeVersion lo = lowest(*p);
  if (op.empty() || op == "=") return compare(v, lo) >= 0 && compare(v, pastEnd(*p)) < 0;
  if (op == ">=") return compare(v, lo) >= 0;
  if (op == ">") return compare(v, pastEnd(*p)) >= 0;
  if (op == "<") return compare(v, lo) < 0;
  if (op == "<=") return compare(v, pastEnd(*p)) < 0;
  if (op == "~" || op == "~>") {
    Partial q = *p;
    q.given = std::min(p->given, 2);
    return compare(v, lo) >= 0 && compare(v, pastEnd(q)) < 0;
  }
  if (op == "^") {
    // Up to the next change of the first non-zero part given.
    Partial q = *p;
    q.given = p->part[0] > 0 || p->given <= 1 ? 1 : (p->part[1] > 0 || p->given <= 2 ? 2 : 3);
    return compare(v, lo) >= 0 && compare(v, pastEnd(q)) < 0;
  }
  return std::nullopt;
}

}  // namespace

std::optional<NodeVersion> parseNodeVersion(const std::string& text) {
  auto p = parsePartial(trim(text));
  if (!p || p->given == 0) return std::nullopt;
  return lowest(*p);
}

bool satisfiesRange(const NodeVersion& version, const std::string& range) {
  std::string rest = range;
  bool anyReadable = false;
  while (true) {
    auto bar = rest.find("||");
    std::string alt = trim(rest.substr(0, bar));
    std::vector<std::string> parts;
    std::stringstream ss(alt);
    for (std::string w; ss >> w;) parts.push_back(w);
    // "a - b": a hyphen range.
    if (parts.size() == 3 && parts[1] == "-") parts = {">=" + parts[0], "<=" + parts[2]};
    // ">= 18": an operator standing apart from its version.
    std::vector<std::string> joined;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i + 1 < parts.size() && parts[i].find_first_not_of("<>=~^") == std::string::npos) {
        joined.push_back(parts[i] + parts[i + 1]);
        ++i;
      } else {
        joined.push_back(parts[i]);
      }
    }
    bool all = true, readable = true;
    for (const auto& c : joined) {
      auto ok = comparator(version, c);
      if (!ok) readable = false;
      else if (!*ok) all = false;
    }
    if (readable) {
      anyReadable = true;
      if (all) return true;
    }
    if (bar == std::string::npos) break;
    rest = rest.substr(bar + 2);
  }
  return !anyReadable;
}

std::string nodeVersionFile(const std::string& root, std::string* file) {
  if (root.empty()) return "";
  for (fs::path dir = root;; dir = dir.parent_path()) {
    for (const char* name : {".nvmrc", ".node-version"}) {
      std::string text = trim(readFile((dir / name).string()).value_or(""));
      auto nl = text.find('\n');
      if (nl != std::string::npos) text = trim(text.substr(0, nl));
      if (!text.empty()) {
        if (file) *file = (dir / name).string();
        return text;
      }
    }
    if (dir == dir.parent_path()) break;
  }
  return "";
}

std::string enginesNode(const std::string& root) {
  auto j = nlohmann::json::parse(readFile((fs::path(root) / "package.json").string()).value_or(""), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "";
  auto e = j.find("engines");
  if (e == j.end() || !e->is_object()) return "";
  auto n = e->find("node");
  return n != e->end() && n->is_string() ? n->get<std::string>() : "";
}

std::vector<std::pair<NodeVersion, std::string>> nvmNodes(const std::string& nvmDir) {
  std::vector<std::pair<NodeVersion, std::string>> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(nvmDir) / "versions" / "node", ec)) {
    auto v = parseNodeVersion(entry.path().filename().string());
    const std::string bin = (entry.path() / "bin" / "node").string();
    if (v && ::access(bin.c_str(), X_OK) == 0) out.emplace_back(*v, bin);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return compare(a.first, b.first) > 0; });
  return out;
}

std::string nvmNodeMatching(const std::string& nvmDir, const std::string& spec) {
  auto p = parsePartial(trim(spec));
  if (!p || p->given == 0) return "";  // "lts/*", "node", aliases: nvm's own business
  for (const auto& [version, bin] : nvmNodes(nvmDir)) {
    if (compare(version, lowest(*p)) >= 0 && compare(version, pastEnd(*p)) < 0) return bin;
  }
  return "";
}

}  // namespace greenlight::core::testing
