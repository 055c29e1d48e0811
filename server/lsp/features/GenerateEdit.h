// The one workspace edit a successful generation sends: the verified code put where the target
// is in the document AS IT IS NOW. When the user typed elsewhere meanwhile, the target is found
// again by its text (refine::relocateTarget) and the edit is rebased onto the new text; when the
// target itself changed, there is no edit. Versioned (documentChanges) with the version the edit
// was computed against; optionally annotated with needsConfirmation (refine.preview, unverified
// code).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/refine/Engine.h"
#include "protocol/Positions.h"
#include "protocol/Workspace.h"

namespace greenlight::lsp {

inline constexpr const char* kAnnotationId = "greenlight";

struct PlannedEdit {
  std::optional<protocol::WorkspaceEdit> edit;  // nullopt: the target changed
  std::string newText;                          // the document after the edit
  bool rebased = false;                         // computed against text newer than the run's
};

PlannedEdit planEdit(const core::refine::RefineResult& result, const std::string& startText, const std::string& uri,
                     std::optional<std::int64_t> version, const std::string& currentText,
                     protocol::PositionEncoding encoding, bool needsConfirmation, const std::string& label,
                     const std::string& description);

}  // namespace greenlight::lsp
