#include "lsp/features/GenerateEdit.h"

#include "core/refine/Splice.h"

namespace greenlight::lsp {

namespace rf = core::refine;

PlannedEdit planEdit(const rf::RefineResult& result, const std::string& startText, const std::string& uri,
                     std::optional<std::int64_t> version, const std::string& currentText,
                     protocol::PositionEncoding encoding, bool needsConfirmation, const std::string& label,
                     const std::string& description) {
  PlannedEdit out;
  if (!result.target || !result.edit) return out;
  rf::TextEdit e = *result.edit;
  if (currentText != startText) {
    // Typed elsewhere meanwhile: the same comment / stub, found again, gets the same code.
    auto moved = rf::relocateTarget(*result.target, currentText);
    if (!moved) return out;
    e = rf::splice(currentText, *moved, result.code).edit;
    out.rebased = true;
  }
  protocol::LineIndex index(currentText);
  protocol::TextEdit te;
  te.range.start = index.position(currentText, e.begin, encoding);
  te.range.end = index.position(currentText, e.end, encoding);
  te.newText = e.newText;
  if (needsConfirmation) te.annotationId = kAnnotationId;
  protocol::TextDocumentEdit doc;
  doc.textDocument.uri = uri;
  doc.textDocument.version = version;
  doc.edits.push_back(std::move(te));
  protocol::WorkspaceEdit edit;
  edit.documentChanges = std::vector<protocol::TextDocumentEdit>{std::move(doc)};
  if (needsConfirmation) {
    protocol::ChangeAnnotation a;
    a.label = label;
    a.needsConfirmation = true;
    a.description = description;
    edit.changeAnnotations = std::map<std::string, protocol::ChangeAnnotation>{{kAnnotationId, a}};
  }
  out.edit = std::move(edit);
  out.newText = currentText.substr(0, e.begin) + e.newText + currentText.substr(e.end);
  return out;
}

}  // namespace greenlight::lsp
