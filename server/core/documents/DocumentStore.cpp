#include "core/documents/DocumentStore.h"

#include <filesystem>

#include "protocol/TextEdits.h"
#include "protocol/Uri.h"

namespace greenlight::core {

std::string DocumentStore::normalisePath(const std::string& path) {
  if (path.empty()) return path;
  std::string out = std::filesystem::path(path).lexically_normal().string();
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

void DocumentStore::open(const protocol::TextDocumentItem& item) {
  Document doc;
  doc.data.uri = item.uri;
  doc.data.path = normalisePath(protocol::pathFromUri(item.uri).value_or(""));
  doc.data.languageId = item.languageId;
  doc.data.version = item.version;
  doc.data.text = item.text;
  doc.index = protocol::LineIndex(doc.data.text);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto old = byUri_.find(item.uri); old != byUri_.end() && !old->second.data.path.empty())
    uriByPath_.erase(old->second.data.path);
  if (!doc.data.path.empty()) uriByPath_[doc.data.path] = item.uri;
  byUri_[item.uri] = std::move(doc);
}

bool DocumentStore::change(const protocol::VersionedTextDocumentIdentifier& id,
                           const std::vector<protocol::TextDocumentContentChangeEvent>& changes,
                           protocol::PositionEncoding encoding, std::string* error,
                           std::string* warning) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byUri_.find(id.uri);
  if (it == byUri_.end()) {
    if (error) *error = "textDocument.uri: document is not open: " + id.uri;
    return false;
  }
  Document& doc = it->second;
  if (warning && id.version <= doc.data.version)
    *warning = "textDocument.version " + std::to_string(id.version) + " does not increase (was " +
               std::to_string(doc.data.version) + ")";
  // Validate every change before touching the text, so a bad change leaves the document as it
  // was (the common case, one valid change, then edits in place with no copy).
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (changes[i].range && changes[i].range->end < changes[i].range->start) {
      if (error) *error = "contentChanges[" + std::to_string(i) + "].range: end is before start";
      return false;
    }
  }
  if (!protocol::applyContentChanges(doc.data.text, doc.index, changes, encoding, error)) return false;
  doc.data.version = id.version;
  return true;
}

bool DocumentStore::close(const std::string& uri) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byUri_.find(uri);
  if (it == byUri_.end()) return false;
  if (!it->second.data.path.empty()) {
    auto p = uriByPath_.find(it->second.data.path);
    if (p != uriByPath_.end() && p->second == uri) uriByPath_.erase(p);
  }
  byUri_.erase(it);
  return true;
}

bool DocumentStore::isOpen(const std::string& uri) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return byUri_.count(uri) != 0;
}

std::optional<std::int64_t> DocumentStore::version(const std::string& uri) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byUri_.find(uri);
  if (it == byUri_.end()) return std::nullopt;
  return it->second.data.version;
}

std::optional<DocumentSnapshot> DocumentStore::get(const std::string& uri) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byUri_.find(uri);
  if (it == byUri_.end()) return std::nullopt;
  return it->second.data;
}

std::optional<DocumentSnapshot> DocumentStore::getByPath(const std::string& path) const {
  std::string key = normalisePath(path);
  std::lock_guard<std::mutex> lock(mutex_);
  auto p = uriByPath_.find(key);
  if (p == uriByPath_.end()) return std::nullopt;
  auto it = byUri_.find(p->second);
  if (it == byUri_.end()) return std::nullopt;
  return it->second.data;
}

std::optional<std::string> DocumentStore::textForPath(const std::string& path) const {
  auto doc = getByPath(path);
  if (!doc) return std::nullopt;
  return std::move(doc->text);
}

std::vector<DocumentSnapshot> DocumentStore::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<DocumentSnapshot> out;
  out.reserve(byUri_.size());
  for (const auto& [uri, doc] : byUri_) out.push_back(doc.data);
  return out;
}

std::size_t DocumentStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return byUri_.size();
}

std::optional<std::size_t> DocumentStore::offsetAt(const std::string& uri, protocol::Position pos,
                                                   protocol::PositionEncoding enc) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byUri_.find(uri);
  if (it == byUri_.end()) return std::nullopt;
  return it->second.index.offset(it->second.data.text, pos, enc);
}

std::optional<protocol::Position> DocumentStore::positionAt(const std::string& uri, std::size_t offset,
                                                            protocol::PositionEncoding enc) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byUri_.find(uri);
  if (it == byUri_.end()) return std::nullopt;
  return it->second.index.position(it->second.data.text, offset, enc);
}

std::optional<std::string> DocumentStore::lineText(const std::string& uri, std::uint32_t line) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byUri_.find(uri);
  if (it == byUri_.end()) return std::nullopt;
  const auto& doc = it->second;
  if (line >= doc.index.lineCount()) return std::string();
  std::size_t start = doc.index.lineStart(line);
  return doc.data.text.substr(start, doc.index.lineEnd(doc.data.text, line) - start);
}

}  // namespace greenlight::core
