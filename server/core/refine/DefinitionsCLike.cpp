// JavaScript and C++ definitions by braces. One pass over the code keeps a stack of scopes
// (file, namespace, class, function, other block) and, for each '{', the "head": the code since
// the last statement boundary of its scope (';', '{', '}', a preprocessor line). The head
// decides what the brace opens:
//   JavaScript  function declarations (export/default/async/generator), `const f = (...) => {`
//               and `const f = function (...) {`, methods in class bodies;
//   C++         namespaces, classes/structs/unions, and function definitions at namespace or
//               class scope: a declarator `name(...)` (qualified, operator, destructor) after a
//               return type (or a constructor's own name), then only qualifiers, a trailing
//               return type or a member-initialiser list.
// Without semicolons (JavaScript's ASI) a head may span several statements: each line start of
// the head is tried, earliest first.
#include <cctype>

#include "core/refine/Definitions.h"
#include "core/refine/RegexLimits.h"
#include "core/testing/AssertMessages.h"
#include "support/Regex.h"

namespace greenlight::core::refine {

namespace {

enum class Scope { File, Namespace, Class, Function, Block };

struct Frame {
  Scope kind = Scope::File;
  std::size_t boundary = 0;   // where the next head starts
  int parens = 0;             // ( and [ depth inside this scope (';' inside them is no boundary)
  std::string className;      // Scope::Class
  int def = -1;               // index into the output while a definition's body is open
  std::size_t open = 0;       // the '{' that opened this scope
};

bool isKeyword(const std::string& w, testing::Language lang) {
  static const char* kCommon[] = {"if", "for", "while", "switch", "catch", "return", "else", "do", "new", "delete",
                                  "throw", "typeof", "sizeof", "decltype", "alignof", "alignas", "static_assert",
                                  "function", "try", "case", "default", "with", "await", "yield", "void"};
  for (const char* k : kCommon) {
    if (w == k) return true;
  }
  (void)lang;
  return false;
}

struct HeadMatch {
  std::string name, className;
  bool function = false, classBody = false, namespaceBody = false;
};

// Removes a leading `template <...>` (angle brackets matched).
std::string stripTemplate(const std::string& h, std::size_t* consumed) {
  static const std::regex kTemplate = support::regex(R"(^template\s*<)");
  std::smatch m;
  std::string rest = h;
  *consumed = 0;
  while (std::regex_search(rest, m, kTemplate)) {
    int depth = 0;
    std::size_t k = static_cast<std::size_t>(m.length(0)) - 1;
    for (; k < rest.size(); ++k) {
      if (rest[k] == '<') ++depth;
      else if (rest[k] == '>' && --depth == 0) break;
    }
    if (k >= rest.size()) return rest;
    std::size_t next = rest.find_first_not_of(' ', k + 1);
    if (next == std::string::npos) next = rest.size();
    *consumed += next;
    rest = rest.substr(next);
  }
  return rest;
}

HeadMatch classifyCxx(const std::string& head, const Frame& parent) {
  HeadMatch out;
  static const std::regex kNamespace = support::regex(R"(^(inline\s+)?namespace\b|^extern\s+"[^"]*"\s*$)");
  if (std::regex_search(head, kNamespace)) {
    out.namespaceBody = true;
    return out;
  }
  std::size_t consumed = 0;
  std::string h = stripTemplate(head, &consumed);
  static const std::regex kClass = support::regex(R"(^(class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(?:alignas\s*\([^)]*\)\s*)?([A-Za-z_]\w*))");
  std::smatch m;
  if (std::regex_search(h, m, kClass) && h.find('(') == std::string::npos) {
    out.classBody = true;
    out.className = m[2];
    return out;
  }
  if (parent.kind == Scope::Function || parent.kind == Scope::Block) return out;
  // The declarator: the first '(' outside template arguments, preceded by a name.
  int angle = 0;
  std::size_t open = std::string::npos;
  for (std::size_t k = 0; k < h.size(); ++k) {
    char c = h[k];
    if (c == '<' && k > 0 && (std::isalnum(static_cast<unsigned char>(h[k - 1])) || h[k - 1] == ' ' || h[k - 1] == '_')) ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (c == '(' && angle == 0) {
      open = k;
      break;
    } else if (c == '=' && angle == 0) {
      // `x = {`, `auto f = [] {`: an initialiser, unless part of `operator=`/`operator==`.
      std::size_t op = h.rfind("operator", k);
      if (op == std::string::npos || k - op > 12) return out;
    }
  }
  if (open == std::string::npos) return out;
  static const std::regex kName = support::regex(R"(((?:[A-Za-z_]\w*\s*::\s*)*)(~?[A-Za-z_]\w*|operator\s*(?:\(\s*\)|[^\s(]+))\s*$)");
  std::string before = h.substr(0, open);
  if (!std::regex_search(before, m, kName)) return out;
  std::string qualifier = testing::normalizeSpace(m[1].str());
  std::string name = testing::normalizeSpace(m[2].str());
  std::string prefix = testing::normalizeSpace(before.substr(0, static_cast<std::size_t>(m.position(0))));
  if (isKeyword(name, testing::Language::Cxx)) return out;
  // Close the parameter list.
  int depth = 0;
  std::size_t close = std::string::npos;
  for (std::size_t k = open; k < h.size(); ++k) {
    if (h[k] == '(') ++depth;
    else if (h[k] == ')' && --depth == 0) {
      close = k;
      break;
    }
  }
  if (close == std::string::npos) return out;
  static const std::regex kTail = support::regex(
      R"(^((\s|const\b|volatile\b|override\b|final\b|mutable\b|&&|&|noexcept\s*(\([^)]*\))?|=\s*0)*)(->.*|:.*|try\s*)?$)");
  if (!std::regex_match(h.substr(close + 1), kTail)) return out;
  std::string qual = qualifier;
  while (!qual.empty() && (qual.back() == ':' || qual.back() == ' ')) qual.pop_back();
  std::string lastQual = qual.substr(qual.rfind(':') == std::string::npos ? 0 : qual.rfind(':') + 1);
  bool ctor = !name.empty() && (name[0] == '~' || (!lastQual.empty() && lastQual == name) ||
                                (parent.kind == Scope::Class && name == parent.className));
  if (prefix.empty() && !ctor) return out;  // a macro invocation such as TEST_CASE("x")
  static const std::regex kBadPrefix = support::regex(R"(^(return|else|do|case|goto|typedef|using|friend\s+class)\b|[=;{}])");
  if (std::regex_search(prefix, kBadPrefix)) return out;
  out.function = true;
  out.name = name;
  out.className = !lastQual.empty() ? lastQual : (parent.kind == Scope::Class ? parent.className : "");
  return out;
}

HeadMatch classifyJs(const std::string& h, const Frame& parent) {
  HeadMatch out;
  std::smatch m;
  static const std::regex kClass = support::regex(R"((^|[=(,:?]\s*)(export\s+(default\s+)?)?class(\s+([A-Za-z_$][\w$]*))?(\s|$))");
  if (std::regex_search(h, m, kClass)) {
    out.classBody = true;
    out.className = m[5];
    return out;
  }
  // TypeScript too: generics (`f<T>(`), a return type after the parameters (`): string`), a
  // const's type annotation, `declare`, and the class members' modifiers.
  static const std::regex kDecl = support::regex(
      R"(^(export\s+(default\s+)?)?(declare\s+)?(async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*(<.*>)?\s*\(.*\)(\s*:\s*[^=]+)?$)");
  static const std::regex kVar = support::regex(
      R"(^(export\s+)?(const|let|var)\s+([A-Za-z_$][\w$]*)\s*(:(?:[^=]|=>)+)?=\s*(async\s+)?(function\s*\*?\s*[\w$]*\s*(<.*>)?\s*\(.*\)(\s*:\s*[^=]+)?|(<.*>\s*)?\(.*\)(\s*:\s*[^=]+)?\s*=>|[A-Za-z_$][\w$]*\s*=>)$)");
  static const std::regex kMethod = support::regex(
      R"(^((public|private|protected|static|async|override|abstract|readonly|declare)\s+)*(\*\s*)?((get|set)\s+)?(#?[A-Za-z_$][\w$]*)\s*(<.*>)?\s*\(.*\)(\s*:\s*[^=]+)?$)");
  if (std::regex_match(h, m, kDecl)) {
    out.function = true;
    out.name = m[5];
  } else if (std::regex_match(h, m, kVar)) {
    out.function = true;
    out.name = m[3];
  } else if (parent.kind == Scope::Class && std::regex_match(h, m, kMethod) && !isKeyword(m[6], testing::Language::JavaScript)) {
    out.function = true;
    out.name = m[6];
    out.className = parent.className;
  }
  return out;
}

bool isStubBody(const std::string& shape) {
  if (shape.empty()) return true;
  if (shape.rfind("throw", 0) != 0 || (shape.size() > 5 && (std::isalnum(static_cast<unsigned char>(shape[5])) || shape[5] == '_')))
    return false;
  std::size_t semi = shape.find(';');
  return semi == std::string::npos || semi == shape.size() - 1;
}

}  // namespace

std::vector<Definition> clikeDefinitions(const ScannedSource& s) {
  const bool js = s.language() == testing::Language::JavaScript;
  std::vector<Definition> out;
  std::string_view text = s.text();
  std::vector<Frame> stack(1);
  auto atLineStartOnly = [&](std::size_t pos) {  // only whitespace before pos on its line
    int ln = s.lineOf(pos);
    for (std::size_t k = s.line(ln).begin; k < pos; ++k) {
      if (!std::isspace(static_cast<unsigned char>(text[k])) && s.at(k) == CharClass::Code) return false;
    }
    return true;
  };
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (s.at(k) != CharClass::Code) continue;
    char c = text[k];
    Frame& top = stack.back();
    if (c == '(' || c == '[') {
      ++top.parens;
    } else if (c == ')' || c == ']') {
      if (top.parens > 0) --top.parens;
    } else if (c == ';' && top.parens == 0) {
      top.boundary = k + 1;
    } else if (c == '#' && !js && atLineStartOnly(k)) {
      // A preprocessor line is a boundary of its own.
      int ln = s.lineOf(k);
      top.boundary = s.line(ln).end;
      k = s.line(ln).end;
    } else if (c == '{') {
      Frame frame;
      frame.kind = Scope::Block;
      frame.boundary = k + 1;
      frame.open = k;
      if (top.parens == 0) {
        // The head's candidate starts: each line start between the boundary and the brace.
        int firstLine = s.lineOf(top.boundary), braceLine = s.lineOf(k);
        HeadMatch best;
        std::size_t headStart = std::string::npos;
        for (int ln = firstLine; ln <= braceLine; ++ln) {
          std::size_t from = ln == firstLine ? top.boundary : s.line(ln).begin;
          std::string head = testing::normalizeSpace(s.masked(from, k));
          // No real header is this long (a minified statement or a data literal is): not a
          // definition, and too long for the regexes below.
          if (head.empty() || head.size() > kRegexSubjectMax) continue;
          if (!js) {
            // Labels (public:, private:) and stray preprocessor text end where the head starts.
            static const std::regex kAccess = support::regex(R"(^(public|private|protected)\s*:\s*)");
            std::smatch am;
            if (std::regex_search(head, am, kAccess)) head = head.substr(static_cast<std::size_t>(am.length(0)));
            if (head.empty()) continue;
          }
          HeadMatch m = js ? classifyJs(head, top) : classifyCxx(head, top);
          if (m.function || m.classBody || m.namespaceBody) {
            best = m;
            // The first code character of the head.
            headStart = from;
            while (headStart < k && (s.at(headStart) != CharClass::Code || std::isspace(static_cast<unsigned char>(text[headStart])))) ++headStart;
            if (!js) {
              static const std::regex kAccessRaw = support::regex(R"(^\s*(public|private|protected)\s*:)");
              std::string rest = regexSubject(text.substr(headStart, k - headStart));
              std::smatch am;
              if (std::regex_search(rest, am, kAccessRaw)) {
                headStart += static_cast<std::size_t>(am.length(0));
                while (headStart < k && std::isspace(static_cast<unsigned char>(text[headStart]))) ++headStart;
              }
            }
            break;
          }
        }
        if (best.namespaceBody) frame.kind = Scope::Namespace;
        else if (best.classBody) {
          frame.kind = Scope::Class;
          frame.className = best.className;
        } else if (best.function) {
          frame.kind = Scope::Function;
          Definition d;
          d.name = best.name;
          d.className = best.className;
          d.first = d.headerFirst = s.lineOf(headStart);
          d.headerLast = s.lineOf(k);
          d.indent = s.indentOf(d.first);
          d.signature = testing::normalizeSpace(text.substr(headStart, k - headStart));
          // Whole lines are replaced: the head must start its line.
          d.stub = atLineStartOnly(headStart);
          frame.def = static_cast<int>(out.size());
          out.push_back(std::move(d));
        }
      }
      stack.push_back(frame);
    } else if (c == '}') {
      if (stack.size() > 1) {
        Frame done = stack.back();
        stack.pop_back();
        if (done.def >= 0) {
          Definition& d = out[static_cast<std::size_t>(done.def)];
          d.last = s.lineOf(k);
          bool stub = d.stub && isStubBody(s.shape(done.open + 1, k));
          // Nothing but `;`, `,` or a comment may follow the closing brace on its line.
          const auto& L = s.line(d.last);
          for (std::size_t q = k + 1; q < L.end; ++q) {
            if (s.at(q) == CharClass::Code && !std::isspace(static_cast<unsigned char>(text[q])) && text[q] != ';' && text[q] != ',')
              stub = false;
          }
          d.stub = stub;
        }
      }
      stack.back().boundary = k + 1;
    }
  }
  // Definitions whose body never closed are dropped.
  std::vector<Definition> closed;
  for (auto& d : out) {
    if (d.last >= d.first && d.last > 0) closed.push_back(std::move(d));
  }
  return closed;
}

}  // namespace greenlight::core::refine
