// Text document synchronisation notifications (didOpen/didChange/didSave/didClose).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/Basic.h"

namespace greenlight::protocol {

struct DidOpenTextDocumentParams {
  TextDocumentItem textDocument;
};
void fromJson(const Json& j, DidOpenTextDocumentParams& out, const JsonPath& path);
void to_json(Json& j, const DidOpenTextDocumentParams& p);

// One change: with a range it is incremental (replace the range with `text`); without, `text`
// is the whole new document. Changes in one notification apply in order, each against the
// result of the previous one (protocol/TextEdits.h).
struct TextDocumentContentChangeEvent {
  std::optional<Range> range;
  // Deprecated by the spec and ignored: its units are ambiguous; `range` is authoritative.
  std::optional<std::int64_t> rangeLength;
  std::string text;
};
void fromJson(const Json& j, TextDocumentContentChangeEvent& out, const JsonPath& path);
void to_json(Json& j, const TextDocumentContentChangeEvent& c);

struct DidChangeTextDocumentParams {
  VersionedTextDocumentIdentifier textDocument;
  std::vector<TextDocumentContentChangeEvent> contentChanges;
};
void fromJson(const Json& j, DidChangeTextDocumentParams& out, const JsonPath& path);
void to_json(Json& j, const DidChangeTextDocumentParams& p);

struct DidSaveTextDocumentParams {
  TextDocumentIdentifier textDocument;
  std::optional<std::string> text;  // only when the client was asked to include it (we do not)
};
void fromJson(const Json& j, DidSaveTextDocumentParams& out, const JsonPath& path);
void to_json(Json& j, const DidSaveTextDocumentParams& p);

struct DidCloseTextDocumentParams {
  TextDocumentIdentifier textDocument;
};
void fromJson(const Json& j, DidCloseTextDocumentParams& out, const JsonPath& path);
void to_json(Json& j, const DidCloseTextDocumentParams& p);

}  // namespace greenlight::protocol
