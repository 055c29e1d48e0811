// What "generate at LINE" means in a file (DESIGN.md "Generate → run → refine", Trigger and
// Target): a comment block that asks for code, or a stub definition.
//
//  - Comment block: consecutive `#` lines (Python), `//` lines or one `/* */` (JavaScript,
//    C++). Followed (blank lines allowed) by a stub, the target is that stub. Otherwise the
//    code is inserted on the line after the block. A block directly above non-stub code (no
//    blank line between) documents that code and is not a trigger.
//  - Stub: a definition whose body is empty or only `pass` / `...` / a docstring /
//    `raise NotImplementedError(...)` (Python), `{}` or only a `throw` (JavaScript: function
//    declarations incl. export/async/generators, `const f = (...) => {}` and function
//    expressions, class methods; C++: free and member functions, in-class or out-of-class,
//    templates). LINE may be any line of the stub's header (decorators and template lines
//    included) or of its body, or of the comment above it.
//
// A Target carries its text (comment and stub) so that callers can find it again after edits
// elsewhere (relocateTarget), never only its line numbers.
//
// Thread-safety: pure functions.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

enum class TargetKind { Stub, Insert };
std::string_view targetKindName(TargetKind kind);  // "stub" | "insert"

struct Target {
  testing::Language language = testing::Language::Python;
  TargetKind kind = TargetKind::Insert;
  std::string name;         // the function's name when the stub or the comment says it; else ""
  std::string className;    // enclosing class (methods, C++ Class::method), else ""
  // 1-based lines. commentFirst/Last: the comment block (0 when a stub has none above it).
  int commentFirst = 0, commentLast = 0;
  // Stub: the whole definition (decorators / template lines .. closing line). Insert: the
  // line the code goes before (commentLast + 1), and last = first - 1 (nothing replaced).
  int first = 0, last = 0;
  int headerFirst = 0, headerLast = 0;  // stub: the header's lines (what LINE may point at)
  std::string indent;       // indentation of the definition (stub) or of the comment (insert)
  std::string comment;      // the comment's words, markers and common indentation removed
  std::string commentText;  // the block's lines verbatim (with their newlines)
  std::string stubText;     // stub: lines first..last verbatim (with their newlines); insert: ""
  std::string signature;    // stub: the header as written, joined to one line; insert: ""
};

struct TargetLookup {
  std::optional<Target> target;
  std::string error;  // when !target: one sentence saying what is expected at that line
};

TargetLookup findTarget(std::string_view text, int line, testing::Language language);

struct FunctionInfo {
  std::string name, className;
  int line = 0;         // the header's first line
  int first = 0, last = 0;
  bool stub = false;
};

class ScannedSource;
struct Definition;
struct FinderIndex;

// findTarget & co. over one text scanned once: the LSP keeps one per document version, so code
// actions and code lenses cost a lookup, not a scan, per request. Not copyable (the scan points
// into the owned text).
class TargetFinder {
 public:
  TargetFinder(std::string text, testing::Language language);
  ~TargetFinder();
  TargetFinder(const TargetFinder&) = delete;
  TargetFinder& operator=(const TargetFinder&) = delete;

  TargetLookup find(int line) const;     // findTarget
  TargetLookup findFix(int line) const;  // findFixTarget
  std::vector<Target> stubs() const;     // findStubs
  std::optional<Target> relocate(const Target& target) const;  // relocateTarget
  std::vector<FunctionInfo> functions() const;  // every definition, in order
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  testing::Language language_;
  std::unique_ptr<ScannedSource> scan_;
  std::vector<Definition> defs_;
  std::unique_ptr<FinderIndex> index_;  // what each lookup would otherwise walk the file for
};

// The target a fix works on: the innermost definition enclosing `line` (whatever its body),
// with the comment above it; kind Stub (the definition is replaced).
TargetLookup findFixTarget(std::string_view text, int line, testing::Language language);

// Every stub of the file (for CodeLens), in order. Comment-only triggers are not listed.
std::vector<Target> findStubs(std::string_view text, testing::Language language);

// Finds `target` again in `text` (the same comment and stub text, the occurrence nearest to
// where it was); nullopt when it changed or disappeared. The result has updated lines.
std::optional<Target> relocateTarget(const Target& target, std::string_view text);

// The names a comment mentions as functions: `name(`, `def name`, `function name`, backticked
// identifiers, `>>> name(`; first first.
std::vector<std::string> namesInComment(std::string_view comment);

}  // namespace greenlight::core::refine
