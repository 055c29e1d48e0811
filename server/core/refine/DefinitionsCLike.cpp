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
#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

#include "core/refine/Definitions.h"
#include "core/refine/RegexLimits.h"
#include "core/testing/AssertMessages.h"
#include "support/Regex.h"

namespace greenlight::core::refine {

namespace {

// Every pattern below that starts with `^` is searched with kAtStart: std::regex_search
// otherwise sets up a fresh attempt (a result vector allocated, the visited states reset) at
// every position of the subject although only the first can match, which made each head cost
// its length in allocations.
constexpr auto kAtStart = std::regex_constants::match_continuous;

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

bool spaceChar(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool nameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// kName ends its subject: qualifiers joined by "::" and a name, '~' name or operator. The earliest
// offset a match can start at: before it the names, "::" and the spaces that may join them
// (around "::", after "operator"), walking back from the end or from an operator's keyword.
std::size_t nameSearchFrom(const std::string& s) {
  auto chainStart = [&](std::size_t end) {
    std::size_t b = end;
    while (b > 0) {
      const char c = s[b - 1];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '~') {
        --b;
        continue;
      }
      if (!spaceChar(c)) break;
      std::size_t a = b - 1;
      while (a > 0 && spaceChar(s[a - 1])) --a;
      const bool joins = (b < s.size() && s[b] == ':') || (a > 0 && s[a - 1] == ':') ||
                         (a >= 8 && s.compare(a - 8, 8, "operator") == 0);
      if (!joins) break;
      b = a;
    }
    return b;
  };
  std::size_t e = s.size();
  while (e > 0 && spaceChar(s[e - 1])) --e;
  std::size_t from = chainStart(e);
  // An operator's keyword starts one of the last three words ("operator<<", "operator <<",
  // "operator ( )"); what follows it may be any character. A walk back from the leftmost one
  // there ends no later than one from any other.
  std::size_t words = e;
  for (int w = 0; w < 3 && words > 0; ++w) {
    while (words > 0 && spaceChar(s[words - 1])) --words;
    while (words > 0 && !spaceChar(s[words - 1])) --words;
  }
  if (std::size_t op = s.find("operator", words); op != std::string::npos && op < e) from = std::min(from, chainStart(op));
  return from;
}

// std::regex_search(before, m, kName), trying only the offsets a match can start at: from
// nameSearchFrom on, a '~' or the start of a name (inside a name only "operator" can start a
// match the name's own start does not), each as the search's own later attempts are made.
bool searchName(const std::string& before, std::smatch& m, const std::regex& kName) {
  const std::size_t from = nameSearchFrom(before);
  for (std::size_t p = from; p < before.size(); ++p) {
    const char c = before[p];
    if (c != '~' && !nameStart(c)) continue;
    if (c != '~' && p > from && nameStart(before[p - 1]) && before.compare(p, 8, "operator") != 0) continue;
    auto flags = p == 0 ? kAtStart : kAtStart | std::regex_constants::match_prev_avail;
    if (std::regex_search(before.cbegin() + static_cast<long>(p), before.cend(), m, kName, flags)) return true;
  }
  return false;
}

// std::regex_search(h, m, kClass) for JavaScript's class pattern, trying only the offsets a match
// can start at: the start, and a [=(,:?] followed by `export` or `class`.
bool searchJsClass(const std::string& h, std::smatch& m, const std::regex& kClass) {
  if (h.find("class") == std::string::npos) return false;
  if (std::regex_search(h, m, kClass, kAtStart)) return true;
  for (std::size_t p = 1; p < h.size(); ++p) {
    if (std::string_view("=(,:?").find(h[p]) == std::string_view::npos) continue;
    std::size_t q = p + 1;
    while (q < h.size() && spaceChar(h[q])) ++q;
    if (h.compare(q, 5, "class") != 0 && h.compare(q, 6, "export") != 0) continue;
    if (std::regex_search(h.cbegin() + static_cast<long>(p), h.cend(), m, kClass, kAtStart | std::regex_constants::match_prev_avail))
      return true;
  }
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
  while (std::regex_search(rest, m, kTemplate, kAtStart)) {
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
  if (std::regex_search(head, kNamespace, kAtStart)) {
    out.namespaceBody = true;
    return out;
  }
  std::size_t consumed = 0;
  std::string h = stripTemplate(head, &consumed);
  static const std::regex kClass = support::regex(R"(^(class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(?:alignas\s*\([^)]*\)\s*)?([A-Za-z_]\w*))");
  std::smatch m;
  if (std::regex_search(h, m, kClass, kAtStart) && h.find('(') == std::string::npos) {
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
  if (!searchName(before, m, kName)) return out;
  std::string qualifier = testing::normalizeSpace(m[1].str());
  std::string name = testing::normalizeSpace(m[2].str());
  std::string prefix = testing::normalizeSpace(before.substr(0, static_cast<std::size_t>(m[0].first - before.cbegin())));
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
  static const std::regex kBadPrefix = support::regex(R"(^(return|else|do|case|goto|typedef|using|friend\s+class)\b)");
  if (std::regex_search(prefix, kBadPrefix, kAtStart) || prefix.find_first_of("=;{}") != std::string::npos) return out;
  out.function = true;
  out.name = name;
  out.className = !lastQual.empty() ? lastQual : (parent.kind == Scope::Class ? parent.className : "");
  return out;
}

HeadMatch classifyJs(const std::string& h, const Frame& parent) {
  HeadMatch out;
  std::smatch m;
  static const std::regex kClass = support::regex(R"((^|[=(,:?]\s*)(export\s+(default\s+)?)?class(\s+([A-Za-z_$][\w$]*))?(\s|$))");
  if (searchJsClass(h, m, kClass)) {
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
  // The first code character of the last line asked about: a line of many '#' after a long
  // comment asks for each of them.
  int codeLine = 0;
  std::size_t codeAt = 0;
  auto atLineStartOnly = [&](std::size_t pos) {  // only whitespace before pos on its line
    int ln = s.lineOf(pos);
    if (ln != codeLine) {
      codeLine = ln;
      codeAt = s.line(ln).begin;
      while (codeAt < s.line(ln).end && (std::isspace(static_cast<unsigned char>(text[codeAt])) || s.at(codeAt) != CharClass::Code)) ++codeAt;
    }
    return pos <= codeAt;
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
        // Each line start's head is a suffix of the first one's (a line starts after a '\n', a
        // space to normalizeSpace): mask and normalise the text once, with the offset each
        // character came from, and cut each line's head out of it. (Masking and normalising
        // per line cost the lines times the text: 330 s for 32,000 lines before one brace.)
        const std::string masked = s.masked(top.boundary, k);
        std::string normalized;            // testing::normalizeSpace(masked)
        std::vector<std::size_t> source;   // normalized[j] stands for masked[source[j]] (a space: for what follows it)
        normalized.reserve(masked.size());
        source.reserve(masked.size());
        bool space = false;
        for (std::size_t q = 0; q < masked.size(); ++q) {
          if (spaceChar(masked[q])) {
            space = !normalized.empty();
            continue;
          }
          if (space) {
            normalized += ' ';
            source.push_back(q);
          }
          space = false;
          normalized += masked[q];
          source.push_back(q);
        }
        std::size_t j = 0;
        for (int ln = firstLine; ln <= braceLine; ++ln) {
          std::size_t from = ln == firstLine ? top.boundary : s.line(ln).begin;
          while (j < normalized.size() && (source[j] < from - top.boundary || normalized[j] == ' ')) ++j;
          // No real header is this long (a minified statement or a data literal is): not a
          // definition, and too long for the regexes below.
          if (j == normalized.size() || normalized.size() - j > kRegexSubjectMax) continue;
          std::string head = normalized.substr(j);
          if (!js) {
            // Labels (public:, private:) and stray preprocessor text end where the head starts.
            static const std::regex kAccess = support::regex(R"(^(public|private|protected)\s*:\s*)");
            std::smatch am;
            if (std::regex_search(head, am, kAccess, kAtStart)) head = head.substr(static_cast<std::size_t>(am.length(0)));
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
              if (std::regex_search(rest, am, kAccessRaw, kAtStart)) {
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
