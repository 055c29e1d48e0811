// Applying edits to document text: didChange content changes (in order, each against the result
// of the previous one) and TextEdit lists (all relative to the same original text, as in a
// WorkspaceEdit). Ranges are converted with the negotiated encoding and clamped as the spec
// says (protocol/Positions.h). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "protocol/Positions.h"
#include "protocol/TextSync.h"

namespace greenlight::protocol {

// Applies `changes` to `text`, keeping `index` in sync incrementally. Returns false with `error`
// naming the change ("contentChanges[1].range: end is before start") and leaves the changes
// before it applied — the caller decides whether to keep the result (the DocumentStore does
// not: it applies to a copy only when a later change could fail, see DocumentStore.cpp).
bool applyContentChanges(std::string& text, LineIndex& index,
                         const std::vector<TextDocumentContentChangeEvent>& changes,
                         PositionEncoding enc, std::string* error);

// Applies non-overlapping `edits`, all expressed against `text` as given. Returns false with
// `error` when two edits overlap or a range is inverted.
bool applyTextEdits(std::string& text, const std::vector<TextEdit>& edits, PositionEncoding enc,
                    std::string* error);

}  // namespace greenlight::protocol
