// The top-level items of a piece of code (a reply's block, or a whole file): imports,
// definitions, assignments, exports, and the statements a model adds to show its code off (the
// "demo": prints, asserts, `if __name__ == "__main__":`, `console.log`, `int main()`, bare calls).
// Each item knows the names it binds and the names it reads, so the reply reader can take the
// target's definition and exactly the helpers and imports it needs.
//
// Python items follow indentation (a statement at column 0 and the indented lines under it;
// `else:`/`except:` continue it; comments and decorators directly above belong to it);
// JavaScript and C++ items end at a `;` or at the `}` that closes a declaration's block at depth
// 0 (JavaScript's automatic semicolons at a line break are honoured). Strings and comments never
// count (ScannedSource).
//
// Thread-safety: pure functions.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::refine {

enum class ItemKind { Import, Definition, Assignment, Export, Demo, Other };

struct CodeItem {
  ItemKind kind = ItemKind::Other;
  int lead = 0;    // 1-based: the first line, comments and decorators directly above included
  int first = 0;   // 1-based: the first line of the item's own code
  int last = 0;    // 1-based: its last line
  // The same as byte offsets: where line `lead` and line `first` begin, and the end of line
  // `last` (past its '\n' when it has one).
  std::size_t leadOffset = 0, firstOffset = 0, endOffset = 0;
  std::vector<std::string> names;  // what it binds: the definition's name, assigned or imported names
  std::string qualifier;           // C++ `Shape::area`: "Shape"
  bool isType = false;             // a class, struct, enum, interface or type alias
  std::string_view exportPrefix;   // JavaScript: "export " / "export default " on the definition itself (static text)
  // Export items: the names the module exports (the outside names) and the local names they
  // read; `module.exports = {...}` replaces the whole export object (wholeObject).
  std::vector<std::string> exported;
  bool wholeObject = false;
  bool sideEffectImport = false;   // `import 'x'`, `#include` (C++ includes bind no name we know)
  std::vector<std::string> uses;   // Export items: the identifiers they read, sorted (identifiersUsed() for others)
};

std::vector<CodeItem> codeItems(std::string_view code, testing::Language language);

// The identifiers `code` reads (outside strings and comments, not member accesses), and the
// members it reaches through `self.` / `this.` (a method's calls of its class's other methods).
std::set<std::string> identifiersUsed(std::string_view code, testing::Language language);
// What a definition binds inside itself (parameters, assignments, loop and `as` variables,
// declarations), approximately: the names it reads that no helper can provide.
std::set<std::string> identifiersBoundInside(std::string_view code, testing::Language language);
// Names the language (or its standard library) provides without an import.
bool isBuiltinName(std::string_view name, testing::Language language);
std::set<std::string> selfMembersUsed(std::string_view code, testing::Language language);

// Where each line of a text starts, to cut lines out of it in O(1) (a reply can hold tens of
// thousands of items). The text must outlive it.
class LineTable {
 public:
  explicit LineTable(std::string_view text);
  // Lines [first, last] (1-based, clamped), each with its '\n'.
  std::string lines(int first, int last) const;
  std::string item(const CodeItem& item, bool withLead = true) const {
    return lines(withLead ? item.lead : item.first, item.last);
  }

 private:
  std::string_view text_;
  std::vector<std::size_t> starts_;
};

// Lines [item.lead or item.first, item.last] of `code` (the text the item was listed from),
// each with its '\n'.
std::string itemText(std::string_view code, const CodeItem& item, bool withLead = true);

}  // namespace greenlight::core::refine
