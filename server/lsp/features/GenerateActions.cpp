// The code actions that start the refine loop (cheap: a lookup in the document's cached
// TargetFinder, no process, no model):
//  - `greenlight.generate` (kind refactor.rewrite.greenlight) on every line of a trigger comment
//    block or a stub: "Generate slugify() from comment, verified by tests", "Implement slugify()
//    stub, verified by tests";
//  - `greenlight.fix` (kind quickfix) on each greenlight diagnostic of a failing test, crash,
//    timeout, memory limit or compile error: "Fix slugify() until test_basic passes", with
//    `diagnostics` set and isPreferred when it is the only fix.
// VS Code lists quickfix and refactor kinds under Ctrl+. and the light bulb (source.* only under
// "Source Action…"), which is why these two are not source actions.
//
// Each action carries data = {"greenlight": {"provider", "uri", "position", "title", ...}} so
// codeAction/resolve rebuilds it from data alone, idempotently.
#include <set>

#include "lsp/Server.h"
#include "lsp/features/Features.h"
#include "lsp/features/FixLocation.h"
#include "lsp/features/TargetCache.h"

namespace greenlight::lsp {
namespace {

namespace rf = core::refine;

constexpr const char* kGenerateKind = "refactor.rewrite.greenlight";
constexpr const char* kFixKind = "quickfix";

protocol::CodeAction generateAction(const std::string& uri, const protocol::Position& position, const std::string& title) {
  protocol::CodeAction a;
  a.title = title;
  a.kind = kGenerateKind;
  a.command = protocol::Command{title, "greenlight.generate", {Json{{"uri", uri}, {"position", position}}}};
  a.data = Json{{"greenlight", {{"provider", "generate"}, {"uri", uri}, {"position", position}, {"title", title}}}};
  return a;
}

protocol::CodeAction fixAction(const std::string& uri, const protocol::Diagnostic& d, const std::string& title, bool preferred) {
  protocol::CodeAction a;
  a.title = title;
  a.kind = kFixKind;
  a.diagnostics = {d};
  if (preferred) a.isPreferred = true;
  Json args{{"uri", uri}, {"position", d.range.start}, {"diagnostic", d}};
  a.command = protocol::Command{title, "greenlight.fix", {args}};
  a.data = Json{{"greenlight", {{"provider", "fix"}, {"uri", uri}, {"title", title}, {"diagnostic", d}, {"preferred", preferred}}}};
  return a;
}

std::string generateTitle(const rf::Target& t) {
  if (t.kind == rf::TargetKind::Stub) return "Implement " + t.name + "() stub, verified by tests";
  if (!t.name.empty()) return "Generate " + t.name + "() from comment, verified by tests";
  return "Generate code from comment, verified by tests";
}

bool fixable(const protocol::Diagnostic& d) {
  static const std::set<std::string> kCodes = {"test-failed", "runtime-error", "timeout", "memory-limit", "compile-error"};
  return d.source && *d.source == "greenlight" && d.code.is_string() && kCodes.count(d.code.get<std::string>());
}

std::string fixTitle(const protocol::Diagnostic& d, const std::string& function) {
  const std::string what = function.empty() ? std::string("the code") : function + "()";
  const std::string code = d.code.get<std::string>();
  std::string test;
  if (d.data.is_object() && d.data.contains("test") && d.data["test"].is_string()) test = d.data["test"].get<std::string>();
  if (code == "compile-error") return "Fix " + what + " until it compiles and its tests pass";
  if (!test.empty() && test != "(run)") return "Fix " + what + " until " + test + " passes";
  return "Fix " + what + " until its tests pass";
}

}  // namespace

void registerGenerateActions(Server& server, const std::shared_ptr<TargetCache>& cache) {
  server.declareCommand("greenlight.generate");
  server.addCodeActionProvider(
      "generate", {kGenerateKind},
      [&server, cache](const protocol::CodeActionParams& params, std::vector<protocol::CodeAction>& out) {
        auto finder = cache->get(server.documents(), params.textDocument.uri);
        if (!finder) return;
        auto found = finder->find(static_cast<int>(params.range.start.line) + 1);
        if (!found.target) return;
        protocol::Position at{params.range.start.line, 0};
        out.push_back(generateAction(params.textDocument.uri, at, generateTitle(*found.target)));
      },
      [](protocol::CodeAction action) {
        const Json& g = action.data["greenlight"];
        protocol::JsonPath root;
        protocol::JsonPath gp = root.field("data").field("greenlight");
        protocol::requireObject(g, gp);
        std::string uri, title;
        protocol::Position position;
        protocol::requiredField(g, "uri", uri, gp);
        protocol::requiredField(g, "position", position, gp);
        protocol::requiredField(g, "title", title, gp);
        return generateAction(uri, position, title);
      });

  server.declareCommand("greenlight.fix");
  server.addCodeActionProvider(
      "fix", {kFixKind},
      [&server, cache](const protocol::CodeActionParams& params, std::vector<protocol::CodeAction>& out) {
        std::vector<std::pair<protocol::Diagnostic, std::string>> fixes;
        for (const auto& d : params.context.diagnostics) {
          if (!fixable(d)) continue;
          std::string function;
          if (d.data.is_object() && d.data.contains("origin") && d.data["origin"].is_object() &&
              d.data["origin"].contains("function") && d.data["origin"]["function"].is_string())
            function = d.data["origin"]["function"].get<std::string>();
          if (function.empty()) function = calleeInMessage(d.message);
          if (function.empty()) {
            if (auto finder = cache->get(server.documents(), params.textDocument.uri)) {
              if (auto t = finder->findFix(static_cast<int>(d.range.start.line) + 1).target) function = t->name;
            }
          }
          if (auto dot = function.rfind('.'); dot != std::string::npos) function = function.substr(dot + 1);
          fixes.emplace_back(d, function);
        }
        for (const auto& [d, function] : fixes)
          out.push_back(fixAction(params.textDocument.uri, d, fixTitle(d, function), fixes.size() == 1));
      },
      [](protocol::CodeAction action) {
        const Json& g = action.data["greenlight"];
        protocol::JsonPath root;
        protocol::JsonPath gp = root.field("data").field("greenlight");
        protocol::requireObject(g, gp);
        std::string uri, title;
        protocol::Diagnostic d;
        bool preferred = false;
        protocol::requiredField(g, "uri", uri, gp);
        protocol::requiredField(g, "title", title, gp);
        protocol::requiredField(g, "diagnostic", d, gp);
        protocol::optionalField(g, "preferred", preferred, gp);
        return fixAction(uri, d, title, preferred);
      });
}

}  // namespace greenlight::lsp
