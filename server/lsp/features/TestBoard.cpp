#include "lsp/features/TestBoard.h"

#include "lsp/Server.h"
#include "protocol/Uri.h"

namespace greenlight::lsp {

void TestBoard::publish(const std::string& source, const std::map<std::string, FileDiagnostics>& fresh) {
  std::map<std::string, std::vector<protocol::Diagnostic>>& mine = bySource_[source];
  std::set<std::string> touched;
  for (const auto& [path, diags] : mine) touched.insert(path);
  mine.clear();
  std::map<std::string, std::optional<std::int64_t>> versions;
  for (const auto& [path, fd] : fresh) {
    touched.insert(path);
    if (!fd.uri.empty()) uriOf_[path] = fd.uri;
    versions[path] = fd.version;
    if (!fd.diagnostics.empty()) mine[path] = fd.diagnostics;
  }
  if (mine.empty()) bySource_.erase(source);
  for (const auto& path : touched) {
    std::vector<protocol::Diagnostic> all;
    for (const auto& [src, files] : bySource_) {
      auto it = files.find(path);
      if (it != files.end()) all.insert(all.end(), it->second.begin(), it->second.end());
    }
    // Publish what changed: new diagnostics, or an empty list where some were shown.
    if (all.empty() && !shown_.count(path)) continue;
    if (all.empty()) shown_.erase(path);
    else shown_.insert(path);
    std::string& uri = uriOf_[path];
    if (uri.empty()) uri = protocol::uriFromPath(path);
    std::optional<std::int64_t> version;
    if (auto v = versions.find(path); v != versions.end()) version = v->second;
    else version = server_.documents().version(uri);
    server_.publishDiagnostics(uri, version, std::move(all));
  }
}

void TestBoard::recordResults(const std::string& source, const core::testing::RunResult& result) {
  auto& mine = results_[source];
  std::map<std::string, core::testing::TestStatus> fresh;
  for (const auto& t : result.tests) fresh[t.name] = t.status;
  // The run's coverage of the file under test (CodeLens percentages); a run that measured
  // nothing leaves no stale figure behind.
  const core::testing::FileCoverage* cov = nullptr;
  for (const auto& c : result.coverage) {
    if (c.file == source) cov = &c;
  }
  bool coverageChanged = false;
  if (cov) {
    auto& had = coverage_[source];
    coverageChanged = had.hits != cov->hits;
    had = *cov;
  } else {
    coverageChanged = coverage_.erase(source) > 0;
  }
  if (fresh == mine && !coverageChanged) return;
  mine = std::move(fresh);
  for (const auto& l : listeners_) l(source);
}

const std::map<std::string, core::testing::TestStatus>* TestBoard::results(const std::string& source) const {
  auto it = results_.find(source);
  return it == results_.end() ? nullptr : &it->second;
}

const core::testing::FileCoverage* TestBoard::coverage(const std::string& source) const {
  auto it = coverage_.find(source);
  return it == coverage_.end() ? nullptr : &it->second;
}

std::size_t TestBoard::cancel(const std::optional<std::string>& path, const std::string& why) {
  std::size_t n = 0;
  for (const auto& c : cancellers_) n += c(path, why);
  return n;
}

}  // namespace greenlight::lsp
