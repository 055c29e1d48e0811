#include "protocol/TextEdits.h"

#include <algorithm>

namespace greenlight::protocol {

bool applyContentChanges(std::string& text, LineIndex& index,
                         const std::vector<TextDocumentContentChangeEvent>& changes,
                         PositionEncoding enc, std::string* error) {
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const auto& change = changes[i];
    if (!change.range) {
      text = change.text;
      index = LineIndex(text);
      continue;
    }
    std::size_t start = index.offset(text, change.range->start, enc);
    std::size_t end = index.offset(text, change.range->end, enc);
    if (change.range->end < change.range->start) {
      if (error) *error = "contentChanges[" + std::to_string(i) + "].range: end is before start";
      return false;
    }
    text.replace(start, end - start, change.text);
    index.applyEdit(start, end, change.text);
  }
  return true;
}

bool applyTextEdits(std::string& text, const std::vector<TextEdit>& edits, PositionEncoding enc,
                    std::string* error) {
  LineIndex index(text);
  struct Span {
    std::size_t start, end, order;
  };
  std::vector<Span> spans;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    if (edits[i].range.end < edits[i].range.start) {
      if (error) *error = "edits[" + std::to_string(i) + "].range: end is before start";
      return false;
    }
    spans.push_back({index.offset(text, edits[i].range.start, enc), index.offset(text, edits[i].range.end, enc), i});
  }
  // Stable by original order so insertions at the same point keep their order.
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  for (std::size_t k = 1; k < spans.size(); ++k) {
    if (spans[k].start < spans[k - 1].end) {
      if (error) *error = "edits[" + std::to_string(spans[k].order) + "].range: overlaps edits[" +
                          std::to_string(spans[k - 1].order) + "]";
      return false;
    }
  }
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const Span& s : spans) {
    out.append(text, at, s.start - at);
    out += edits[s.order].newText;
    at = s.end;
  }
  out.append(text, at, std::string::npos);
  text = std::move(out);
  return true;
}

}  // namespace greenlight::protocol
