// textDocument/codeLens, in the conventions of rust-analyzer's Run lenses:
//  - `▶ Run tests` above each tested function of a source file (a nearby test names it or calls
//    it) and above each test function; after a run, a second lens says what the last run said
//    of those tests: `✔ 3 passed`, `✘ 1 failed, 2 passed`;
//  - `✨ Generate` above each stub.
// Lenses are complete when listed (no codeLens/resolve). When a test run changes what a lens
// says, the server sends workspace/codeLens/refresh (clients that announced refreshSupport).
//
// Threading: the handler looks up the document's TargetFinder (cached per version) and the
// board's last results on the loop, then computes the lenses on the pool (discovery reads the
// nearby test files) and replies from there.

#include "core/testing/Coverage.h"
#include "core/testing/Discovery.h"
#include "core/testing/adapters/TestJob.h"
#include "lsp/Server.h"
#include "lsp/features/Features.h"
#include "lsp/features/RunTestsSourceFor.h"
#include "lsp/features/TargetCache.h"
#include "lsp/features/TestBoard.h"
#include "protocol/CodeLens.h"
#include "protocol/Uri.h"
#include "support/Regex.h"

#include <filesystem>

namespace greenlight::lsp {
namespace {

namespace ct = core::testing;
namespace rf = core::refine;
namespace fs = std::filesystem;

using Results = std::map<std::string, ct::TestStatus>;

std::string lower(std::string s) {
  std::string out;
  for (char c : s) {
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

protocol::CodeLens lens(int line0, const std::string& title, const std::string& command, const Json& args) {
  protocol::CodeLens l;
  l.range.start = {static_cast<std::uint32_t>(line0), 0};
  l.range.end = {static_cast<std::uint32_t>(line0), 0};
  l.command = protocol::Command{title, command, {args}};
  return l;
}

std::string statusTitle(int passed, int failed, int skipped) {
  const std::string skips = skipped ? ", " + std::to_string(skipped) + " skipped" : "";
  if (failed > 0) return "✘ " + std::to_string(failed) + " failed" + (passed ? ", " + std::to_string(passed) + " passed" : "") + skips;
  if (passed == 0) return "⊘ " + std::to_string(skipped) + " skipped";  // nothing ran: never a green tick
  return "✔ " + std::to_string(passed) + " passed" + skips;
}

// Which tests exercise `name`: the test's name contains it, or its body calls it.
std::vector<std::string> testsOf(const std::string& name, const std::vector<ct::StaticTest>& tests,
                                 const std::map<std::string, std::vector<std::string>>& linesOf) {
  std::vector<std::string> out;
  if (name.empty()) return out;
  const std::string key = lower(name);
  std::regex call = support::regex("(^|[^\\w$])" + std::regex_replace(name, support::regex(R"([\$\.\^\*\+\?\(\)\[\]\{\}\|\\])"), "\\$&") + "\\s*\\(");
  for (const auto& t : tests) {
    bool byName = lower(t.name).find(key) != std::string::npos;
    bool byCall = false;
    auto it = linesOf.find(t.file);
    if (it != linesOf.end()) {
      for (int l = t.line + 1; l <= t.endLine && l <= static_cast<int>(it->second.size()) && !byCall; ++l)
        byCall = std::regex_search(it->second[static_cast<std::size_t>(l - 1)], call);
    }
    if (byName || byCall) out.push_back(t.name);
  }
  return out;
}

std::vector<protocol::CodeLens> computeLenses(const std::string& uri, const std::string& path,
                                              const std::shared_ptr<const rf::TargetFinder>& finder, const core::Config& config,
                                              const std::string& root, const ct::OverlayProvider& overlay,
                                              const std::optional<Results>& results,
                                              const std::optional<ct::FileCoverage>& coverage) {
  std::vector<protocol::CodeLens> out;
  auto args = [&](int line0) { return Json{{"uri", uri}, {"position", protocol::Position{static_cast<std::uint32_t>(line0), 0}}}; };
  for (const auto& stub : finder->stubs()) out.push_back(lens(stub.headerFirst - 1, "✨ Generate", "greenlight.generate", args(stub.headerFirst - 1)));

  ct::DiscoveryRequest dr;
  dr.path = path;
  dr.workspaceRoot = root;
  dr.config = &config;
  dr.overlay = overlay;
  std::string error;
  auto plan = ct::discoverTests(dr, &error);
  if (!plan || plan->empty()) return out;
  std::map<std::string, std::vector<std::string>> linesOf;
  for (const auto& t : plan->staticTests) {
    if (linesOf.count(t.file)) continue;
    auto text = ct::readSource(t.file, overlay);
    std::vector<std::string> lines;
    if (text) {
      std::size_t start = 0;
      while (start <= text->size()) {
        std::size_t nl = text->find('\n', start);
        lines.push_back(text->substr(start, nl == std::string::npos ? std::string::npos : nl - start));
        if (nl == std::string::npos) break;
        start = nl + 1;
      }
    }
    linesOf[t.file] = std::move(lines);
  }
  // " · 75% of lines": how much of the function [first, last] its tests' last run executed.
  auto percentOf = [&](int first, int last) -> std::string {
    if (!coverage) return "";
    auto t = ct::targetCoverage({*coverage}, coverage->file, first, last);
    if (!t || t->lines.empty()) return "";
    return " · " + std::to_string(t->percent()) + "% of lines";
  };
  auto status = [&](const std::vector<std::string>& names, int line0, const std::string& suffix = "") {
    if (!results) return;
    int passed = 0, failed = 0, skipped = 0;
    for (const auto& n : names) {
      auto it = results->find(n);
      if (it == results->end()) continue;
      if (it->second == ct::TestStatus::Passed) ++passed;
      else if (it->second == ct::TestStatus::Skipped) ++skipped;
      else ++failed;
    }
    if (passed + failed + skipped > 0)
      out.push_back(lens(line0, statusTitle(passed, failed, skipped) + suffix, "greenlight.runTests", args(line0)));
  };
  // Test functions written in this file (a test file, or Python tests beside the code).
  for (const auto& t : plan->staticTests) {
    if (t.file != path) continue;
    out.push_back(lens(t.line - 1, "▶ Run tests", "greenlight.runTests", args(t.line - 1)));
    status({t.name}, t.line - 1);
  }
  if (plan->sourceIsTestFile) return out;
  // Tested functions of the source.
  for (const auto& fn : finder->functions()) {
    if (fn.stub || fn.name.empty() || fn.name.rfind("test", 0) == 0) continue;
    auto tests = testsOf(fn.name, plan->staticTests, linesOf);
    bool doctested = plan->hasDoctests && fn.className.empty();
    if (tests.empty() && !doctested) continue;
    if (tests.empty()) {
      // Doctests only: a >>> inside this function's lines.
      const std::string& text = finder->text();
      bool has = false;
      int line = 1;
      for (std::size_t k = 0; k < text.size() && line <= fn.last && !has; ++k) {
        if (line >= fn.first && text.compare(k, 3, ">>>") == 0) has = true;
        if (text[k] == '\n') ++line;
      }
      if (!has) continue;
      tests.push_back("doctest:" + fn.name);
    }
    out.push_back(lens(fn.line - 1, "▶ Run tests", "greenlight.runTests", args(fn.line - 1)));
    status(tests, fn.line - 1, percentOf(fn.first, fn.last));
  }
  return out;
}

}  // namespace

void registerCodeLens(Server& server, const std::shared_ptr<TargetCache>& cache, const std::shared_ptr<TestBoard>& board) {
  server.onRequest<protocol::CodeLensParams>(
      "textDocument/codeLens", [&server, cache, board](const protocol::CodeLensParams& params, RequestContext ctx) {
        const std::string uri = params.textDocument.uri;
        auto finder = cache->get(server.documents(), uri);
        auto doc = server.documents().get(uri);
        if (!finder || !doc) {
          ctx.reply.result(Json::array());
          return;
        }
        const std::string path = fs::path(doc->path).lexically_normal().string();
        std::optional<Results> results;
        // A test file's results are recorded under the source it tests.
        std::string key = sourceFor(path, [&server](const std::string& p) {
                            std::error_code ec;
                            return server.documents().getByPath(p).has_value() || fs::is_regular_file(p, ec);
                          }).value_or(path);
        if (const Results* r = board->results(key)) results = *r;
        std::optional<ct::FileCoverage> coverage;
        if (const ct::FileCoverage* c = board->coverage(key); c && c->file == path) coverage = *c;
        std::string root;
        if (const auto& r = server.workspaceRoot()) {
          auto rel = fs::path(path).lexically_relative(fs::path(*r).lexically_normal());
          if (!rel.empty() && *rel.begin() != "..") root = fs::path(*r).lexically_normal().string();
        }
        core::Config config = server.config();
        core::DocumentStore* documents = &server.documents();
        bool posted = server.threadPool().post([=]() mutable {
          if (ctx.cancel.isCancelled()) return;
          ct::OverlayProvider overlay = [documents](const std::string& p) { return documents->textForPath(p); };
          Json list = Json::array();
          try {
            for (const auto& l : computeLenses(uri, path, finder, config, root, overlay, results, coverage)) list.push_back(l);
          } catch (const std::exception& e) {
            ctx.reply.error(protocol::ErrorCode::InternalError, std::string("textDocument/codeLens: ") + e.what());
            return;
          }
          ctx.reply.result(std::move(list));
        });
        if (!posted) ctx.reply.error(protocol::ErrorCode::RequestCancelled, "the server is shutting down");
      });
  board->onResults([&server](const std::string&) {
    if (server.clientCapabilities().codeLensRefresh)
      server.sendRequest("workspace/codeLens/refresh", nullptr, [](const Json&) {}, [](const protocol::ResponseError&) {});
  });
}

}  // namespace greenlight::lsp
