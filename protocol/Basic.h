// Basic LSP structures: positions, ranges, locations, document identifiers, text edits.
// clangd Protocol.h style: only the fields greenlight uses, the JSON mapping right under each
// struct, wire quirks noted at the field. Decoders throw JsonError naming the JSON path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/Json.h"

namespace greenlight::protocol {

// A DocumentUri as the client sent it ("file:///home/a%20b/x.py"). Kept verbatim so replies
// echo exactly what the client knows; convert with protocol/Uri.h when a path is needed.
using DocumentUri = std::string;

struct Position {
  // Zero-based line. A line past the end of the document means the document end.
  std::uint32_t line = 0;
  // Zero-based column in the NEGOTIATED position encoding: UTF-16 code units by default (an
  // emoji counts 2), bytes when the client offered and we chose "utf-8". A character past the
  // end of its line means the line end (see protocol/Positions.h).
  std::uint32_t character = 0;

  friend bool operator==(const Position&, const Position&) = default;
  friend auto operator<=>(const Position&, const Position&) = default;
};
void fromJson(const Json& j, Position& out, const JsonPath& path);
void to_json(Json& j, const Position& p);

struct Range {
  Position start;
  Position end;  // exclusive
  friend bool operator==(const Range&, const Range&) = default;
};
void fromJson(const Json& j, Range& out, const JsonPath& path);
void to_json(Json& j, const Range& r);

struct Location {
  DocumentUri uri;
  Range range;
  friend bool operator==(const Location&, const Location&) = default;
};
void fromJson(const Json& j, Location& out, const JsonPath& path);
void to_json(Json& j, const Location& l);

struct TextDocumentIdentifier {
  DocumentUri uri;
};
void fromJson(const Json& j, TextDocumentIdentifier& out, const JsonPath& path);
void to_json(Json& j, const TextDocumentIdentifier& t);

struct VersionedTextDocumentIdentifier {
  DocumentUri uri;
  std::int64_t version = 0;
};
void fromJson(const Json& j, VersionedTextDocumentIdentifier& out, const JsonPath& path);
void to_json(Json& j, const VersionedTextDocumentIdentifier& t);

// In WorkspaceEdit.documentChanges: version null means "whatever the client has".
struct OptionalVersionedTextDocumentIdentifier {
  DocumentUri uri;
  std::optional<std::int64_t> version;
};
void fromJson(const Json& j, OptionalVersionedTextDocumentIdentifier& out, const JsonPath& path);
void to_json(Json& j, const OptionalVersionedTextDocumentIdentifier& t);

struct TextDocumentItem {
  DocumentUri uri;
  std::string languageId;
  std::int64_t version = 0;
  std::string text;
};
void fromJson(const Json& j, TextDocumentItem& out, const JsonPath& path);
void to_json(Json& j, const TextDocumentItem& t);

struct TextEdit {
  Range range;
  std::string newText;
  // Set: an AnnotatedTextEdit (LSP 3.16), pointing into WorkspaceEdit::changeAnnotations.
  std::optional<std::string> annotationId = std::nullopt;
  friend bool operator==(const TextEdit&, const TextEdit&) = default;
};
void fromJson(const Json& j, TextEdit& out, const JsonPath& path);
void to_json(Json& j, const TextEdit& e);

}  // namespace greenlight::protocol
