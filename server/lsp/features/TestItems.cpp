#include "lsp/features/TestItems.h"

#include <algorithm>
#include <map>
#include <utility>

#include "protocol/Uri.h"

namespace greenlight::lsp {

namespace ct = core::testing;
using protocol::Json;

namespace {

// The node's lines as an LSP range: from the start of its first line to the end of its last.
Json rangeOf(const ct::TestNode& n, const std::string& text, const protocol::LineIndex& index, protocol::PositionEncoding enc) {
  auto line0 = static_cast<std::uint32_t>(std::max(1, n.line) - 1);
  auto last0 = static_cast<std::uint32_t>(std::max(n.line, n.endLine) - 1);
  if (last0 >= index.lineCount()) last0 = static_cast<std::uint32_t>(index.lineCount() - 1);
  if (line0 > last0) line0 = last0;
  std::size_t start = index.lineStart(last0), end = index.lineEnd(text, last0);
  auto width = static_cast<std::uint32_t>(protocol::measure(std::string_view(text).substr(start, end - start), enc));
  return Json{{"start", {{"line", line0}, {"character", 0}}}, {"end", {{"line", last0}, {"character", width}}}};
}

}  // namespace

Json testItemsJson(const std::vector<ct::TestNode>& nodes, const std::string& documentPath, const std::string& documentUri,
                   const ct::OverlayProvider& overlay, protocol::PositionEncoding encoding) {
  Json items = Json::array();
  std::map<std::string, std::pair<std::string, protocol::LineIndex>> texts;  // file -> text, index
  for (const auto& n : nodes) {
    auto it = texts.find(n.file);
    if (it == texts.end()) {
      std::string text = ct::readSource(n.file, overlay).value_or("");
      protocol::LineIndex index(text);
      it = texts.emplace(n.file, std::make_pair(std::move(text), std::move(index))).first;
    }
    items.push_back(Json{{"id", n.id},
                         {"label", n.label},
                         {"kind", std::string(ct::testNodeKindName(n.kind))},
                         {"uri", n.file == documentPath ? documentUri : protocol::uriFromPath(n.file)},
                         {"range", rangeOf(n, it->second.first, it->second.second, encoding)},
                         {"parent", n.parent.empty() ? Json() : Json(n.parent)}});
  }
  return items;
}

}  // namespace greenlight::lsp
