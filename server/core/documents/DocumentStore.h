// The open documents, as the editor has them (unsaved text included).
//
// The LSP layer feeds didOpen/didChange/didClose; everyone else reads: the test runners run a
// file's UNSAVED text when it is open (`textForPath`), and long work takes a consistent
// `snapshot()` of every open document before leaving the loop thread.
//
// Performance: a document keeps its text and a LineIndex that is updated incrementally, so an
// incremental didChange on a 20,000-line document costs one memmove of the text tail and an
// add over the line starts after the edit — no rescan, no copy of the text.
//
// Thread-safety: every member may be called from any thread (one mutex; readers copy out what
// they need). Readers get copies, so nothing they hold changes under them.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "protocol/Positions.h"
#include "protocol/TextSync.h"

namespace greenlight::core {

struct DocumentSnapshot {
  std::string uri;    // as the client sent it
  std::string path;   // absolute path for file: URIs; empty otherwise
  std::string languageId;
  std::int64_t version = 0;
  std::string text;
};

class DocumentStore {
 public:
  // Opens (or re-opens, replacing) a document. Never fails: a non-file URI gets an empty path
  // (it is tracked, but textForPath cannot find it).
  void open(const protocol::TextDocumentItem& item);

  // Applies content changes in order. Fails (document unchanged, `error` names the change) when
  // the document is not open or a change is invalid. A version that does not increase is
  // accepted with a warning in `warning` (clients have been seen to repeat versions).
  bool change(const protocol::VersionedTextDocumentIdentifier& doc,
              const std::vector<protocol::TextDocumentContentChangeEvent>& changes,
              protocol::PositionEncoding encoding, std::string* error, std::string* warning = nullptr);

  // Returns false when the document was not open.
  bool close(const std::string& uri);

  bool isOpen(const std::string& uri) const;
  std::optional<std::int64_t> version(const std::string& uri) const;
  std::optional<DocumentSnapshot> get(const std::string& uri) const;
  // By absolute path (lexically normalised): the unsaved text when the file is open.
  std::optional<std::string> textForPath(const std::string& path) const;
  std::optional<DocumentSnapshot> getByPath(const std::string& path) const;
  // Every open document, copied.
  std::vector<DocumentSnapshot> snapshot() const;
  std::size_t size() const;

  // Position helpers against the current text of `uri` (nullopt when not open).
  std::optional<std::size_t> offsetAt(const std::string& uri, protocol::Position pos,
                                      protocol::PositionEncoding enc) const;
  std::optional<protocol::Position> positionAt(const std::string& uri, std::size_t offset,
                                               protocol::PositionEncoding enc) const;
  // The text of one line without its terminator (clamped like positions).
  std::optional<std::string> lineText(const std::string& uri, std::uint32_t line) const;

 private:
  struct Document {
    DocumentSnapshot data;
    protocol::LineIndex index;
  };
  static std::string normalisePath(const std::string& path);

  mutable std::mutex mutex_;
  std::map<std::string, Document> byUri_;
  std::map<std::string, std::string> uriByPath_;
};

}  // namespace greenlight::core
