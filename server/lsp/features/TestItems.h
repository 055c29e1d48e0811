// The items of the editors' test views as greenlight/listTests and greenlight/listWorkspaceTests
// send them: {"id", "label", "kind", "uri", "range", "parent": id | null}, one per TestNode, in
// the order given (parents first). Thread-safety: pure (reads the nodes' files through overlay).
#pragma once

#include <string>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/TestIds.h"
#include "protocol/Json.h"
#include "protocol/Positions.h"

namespace greenlight::lsp {

// `documentPath`/`documentUri`: a node of that file gets the URI the client sent (its spelling
// kept); other files get uriFromPath. Ranges are in `encoding`.
protocol::Json testItemsJson(const std::vector<core::testing::TestNode>& nodes, const std::string& documentPath,
                             const std::string& documentUri, const core::testing::OverlayProvider& overlay,
                             protocol::PositionEncoding encoding);

}  // namespace greenlight::lsp
