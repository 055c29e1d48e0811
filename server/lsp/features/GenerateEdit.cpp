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
  std::vector<rf::TextEdit> edits = result.edits.empty() ? std::vector<rf::TextEdit>{*result.edit} : result.edits;
  std::string newText = result.newText;
  if (currentText != startText) {
    // Typed elsewhere meanwhile: the same comment / stub, found again, gets the same code; the
    // imports are merged into the file as it is now.
    auto moved = rf::relocateTarget(*result.target, currentText);
    if (!moved) return out;
    auto spliced = rf::splice(currentText, *moved, result.code, result.additions);
    edits = spliced.edits;
    newText = spliced.text;
    out.rebased = true;
  }
  protocol::LineIndex index(currentText);
  protocol::TextDocumentEdit doc;
  doc.textDocument.uri = uri;
  doc.textDocument.version = version;
  for (const auto& e : edits) {
    protocol::TextEdit te;
    te.range.start = index.position(currentText, e.begin, encoding);
    te.range.end = index.position(currentText, e.end, encoding);
    te.newText = e.newText;
    if (needsConfirmation) te.annotationId = kAnnotationId;
    doc.edits.push_back(std::move(te));
  }
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
  out.newText = std::move(newText);
  return out;
}

}  // namespace greenlight::lsp
