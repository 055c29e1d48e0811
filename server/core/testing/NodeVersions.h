// Which node a project pins, the way nvm and npm read it: `.nvmrc` / `.node-version` (nearest
// from the project root upward; "v20", "20.11.1", "lts/*" is left to PATH) and package.json's
// `engines.node` range (npm's semver ranges: `>=18`, `^20.1`, `~18.2.0`, `18.x`, `16 || 18`,
// `>=18 <21`, `18 - 20`). A pinned version is looked for among nvm's installed versions.
//
// Thread-safety: pure functions (they read files).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace greenlight::core::testing {

struct NodeVersion {
  int major = 0, minor = 0, patch = 0;
};

std::optional<NodeVersion> parseNodeVersion(const std::string& text);  // "v20.11.1", "20.11.1"

// Whether `version` satisfies the npm range `range`; an unreadable range is satisfied (it pins
// nothing greenlight can act on).
bool satisfiesRange(const NodeVersion& version, const std::string& range);

// The version spec of the nearest .nvmrc or .node-version from `root` upward ("" when none).
std::string nodeVersionFile(const std::string& root, std::string* file = nullptr);

// package.json's engines.node at `root` ("" when none).
std::string enginesNode(const std::string& root);

// nvm's installed node binaries (<nvmDir>/versions/node/vX.Y.Z/bin/node), newest first.
std::vector<std::pair<NodeVersion, std::string>> nvmNodes(const std::string& nvmDir);

// The newest installed node matching `spec` (".nvmrc" style: "20", "v20.11", "20.11.1"),
// "" when none.
std::string nvmNodeMatching(const std::string& nvmDir, const std::string& spec);

}  // namespace greenlight::core::testing
