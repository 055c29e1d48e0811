// RefineResult -> the `greenlight generate --json` object of DESIGN.md (also the result of the
// LSP's greenlight.generate / greenlight.fix), and the unified diff `generate --diff` prints.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/refine/Engine.h"

namespace greenlight::core::refine {

// `applied`: whether the edit was written (CLI --apply) or applied by the editor.
nlohmann::ordered_json refineResultToJson(const RefineResult& result, bool applied);

// A unified diff (3 lines of context) between two texts of `path`, labelled a/ and b/;
// "" when they are equal.
std::string unifiedDiff(std::string_view before, std::string_view after, const std::string& path);

// "slugify: 7/7 tests passed in 2 rounds" (the edit's label and the progress' end message).
std::string resultHeadline(const RefineResult& result);

}  // namespace greenlight::core::refine
