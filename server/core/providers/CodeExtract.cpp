#include "core/providers/CodeExtract.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <vector>

namespace greenlight::core::providers {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trimView(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) {
    out += l;
    out += '\n';
  }
  return out;
}

// Drops leading/trailing blank lines, keeps a final newline.
std::string tidy(std::string code) {
  auto lines = splitLines(code);
  std::size_t b = 0, e = lines.size();
  while (b < e && trimView(lines[b]).empty()) ++b;
  while (e > b && trimView(lines[e - 1]).empty()) --e;
  std::string out;
  for (std::size_t i = b; i < e; ++i) {
    std::string_view l = lines[i];
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
    out.append(l);
    out += '\n';
  }
  return out;
}

struct Block {
  std::string lang;  // normalised
  std::string code;
  std::set<std::string> defines;
  bool onlyImports = false;
};

bool isShellLike(const std::string& lang) {
  static const std::set<std::string> kShell = {"bash", "sh", "shell", "console", "zsh", "powershell",
                                               "cmd", "text", "txt", "output", "plaintext", "diff"};
  return kShell.count(lang) > 0;
}

bool looksLikeSession(const std::string& code) {
  int lines = 0, prompts = 0;
  for (auto l : splitLines(code)) {
    auto t = trimView(l);
    if (t.empty()) continue;
    ++lines;
    if (t.rfind("$ ", 0) == 0 || t.rfind("pip install", 0) == 0 || t.rfind("npm install", 0) == 0 ||
        t.rfind("apt-get ", 0) == 0)
      ++prompts;
  }
  return lines > 0 && prompts == lines;
}

std::set<std::string> definedNames(const std::string& code, const std::string& lang) {
  static const std::regex kPy(R"(^(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*))");
  static const std::regex kJs(
      R"(^(?:export\s+(?:default\s+)?)?(?:(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)|class\s+([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=))");
  static const std::regex kCpp(
      R"(^(?:template\s*<[^>]*>\s*)?(?:(?:static|inline|constexpr|virtual|extern)\s+)*[A-Za-z_][\w:<>,\s\*&]*?[\s\*&]([A-Za-z_~][\w:]*)\s*\([^;]*$)");
  static const std::regex kCppType(R"(^(?:class|struct|enum(?:\s+class)?)\s+([A-Za-z_]\w*))");
  std::set<std::string> names;
  for (auto lineView : splitLines(code)) {
    // A definition's first line is never this long; std::regex recurses per repeated character
    // and a long one (a one-line data table, a hostile reply) would overflow the stack.
    if (lineView.size() > 4096) continue;
    std::string line(lineView);
    if (line.empty() || std::isspace(static_cast<unsigned char>(line[0]))) continue;
    std::smatch m;
    if (lang == "python" || lang.empty()) {
      if (std::regex_search(line, m, kPy)) names.insert(m[1]);
    }
    if (lang == "javascript" || lang == "typescript" || lang.empty()) {
      if (std::regex_search(line, m, kJs))
        for (int i = 1; i <= 3; ++i)
          if (m[i].matched) names.insert(m[i]);
    }
    if (lang == "cpp" || lang == "c" || lang.empty()) {
      if (std::regex_search(line, m, kCppType)) {
        names.insert(m[1]);
      } else if (line[0] != '#' && line.rfind("//", 0) != 0 && line.rfind("return", 0) != 0 &&
                 std::regex_search(line, m, kCpp)) {
        std::string n = m[1];
        if (n != "if" && n != "for" && n != "while" && n != "switch" && n != "main") names.insert(n);
      }
    }
  }
  return names;
}

bool onlyImports(const std::string& code) {
  bool any = false;
  for (auto l : splitLines(code)) {
    auto t = trimView(l);
    if (t.empty() || t.rfind("//", 0) == 0 || (t[0] == '#' && t.rfind("#include", 0) != 0)) continue;
    if (t.rfind("import ", 0) == 0 || t.rfind("from ", 0) == 0 || t.rfind("#include", 0) == 0 ||
        t.rfind("using namespace", 0) == 0 || t.find("require(") != std::string_view::npos) {
      any = true;
      continue;
    }
    return false;
  }
  return any;
}

// --- unfenced replies ---------------------------------------------------------------------

bool startsWithWord(std::string_view t, std::initializer_list<std::string_view> words) {
  for (auto w : words) {
    if (t.size() >= w.size() && t.substr(0, w.size()) == w &&
        (t.size() == w.size() || !std::isalnum(static_cast<unsigned char>(t[w.size()])) || w.back() == ' '))
      return true;
  }
  return false;
}

enum class LineKind { Blank, Code, Prose };

LineKind classify(std::string_view line) {
  auto t = trimView(line);
  if (t.empty()) return LineKind::Blank;
  bool indented = std::isspace(static_cast<unsigned char>(line[0]));
  if (startsWithWord(t, {"def", "class", "import", "from", "return", "if", "elif", "else", "for", "while",
                         "try", "except", "finally", "with", "async", "await", "raise", "yield", "lambda",
                         "function", "const", "let", "var", "export", "module.exports", "#include",
                         "template", "namespace", "using", "struct", "static", "int", "void", "bool",
                         "double", "auto", "std::", "switch", "case", "public:", "private:"}))
    return LineKind::Code;
  char first = t.front(), last = t.back();
  if (first == '@' || first == '#' || first == '}' || first == ')' || first == ']' || t.rfind("//", 0) == 0 ||
      t.rfind("/*", 0) == 0 || t.rfind("*", 0) == 0)
    return LineKind::Code;
  if (last == ';' || last == '{' || last == '}' || last == ',' || last == '(' || last == '[')
    return LineKind::Code;
  // Prose: several plain words, few code symbols.
  int words = 0, symbols = 0;
  bool inWord = false;
  for (char c : t) {
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '\'') {
      if (!inWord) ++words;
      inWord = true;
    } else {
      inWord = false;
      if (std::string_view("(){}[]=;<>+*/%&|").find(c) != std::string_view::npos) ++symbols;
    }
  }
  if (indented && symbols > 0) return LineKind::Code;
  if (words >= 3 && symbols <= 1 && (last == '.' || last == ':' || last == '!' || last == '?' || words >= 5))
    return LineKind::Prose;
  if (symbols > 0 || indented) return LineKind::Code;
  return words >= 3 ? LineKind::Prose : LineKind::Code;
}

std::string unfencedCode(std::string_view text) {
  auto lines = splitLines(text);
  std::vector<LineKind> kinds;
  for (auto l : lines) kinds.push_back(classify(l));
  // The longest run of code lines (blanks allowed inside), broken by prose.
  std::size_t bestStart = 0, bestEnd = 0, bestCount = 0;
  for (std::size_t i = 0; i < lines.size();) {
    if (kinds[i] != LineKind::Code) {
      ++i;
      continue;
    }
    std::size_t j = i, lastCode = i, count = 0;
    while (j < lines.size() && kinds[j] != LineKind::Prose) {
      if (kinds[j] == LineKind::Code) {
        lastCode = j;
        ++count;
      }
      ++j;
    }
    if (count > bestCount) {
      bestStart = i;
      bestEnd = lastCode + 1;
      bestCount = count;
    }
    i = j;
  }
  std::vector<std::string> out;
  for (std::size_t i = bestStart; i < bestEnd; ++i) out.emplace_back(lines[i]);
  return tidy(joinLines(out));
}

}  // namespace

std::string normalizeLanguage(std::string_view tagIn) {
  std::string tag = lower(trimView(tagIn));
  while (!tag.empty() && (tag.front() == '{' || tag.front() == '.')) tag.erase(tag.begin());
  while (!tag.empty() && tag.back() == '}') tag.pop_back();
  if (tag == "py" || tag == "python3" || tag == "py3" || tag == "python") return "python";
  if (tag == "js" || tag == "node" || tag == "nodejs" || tag == "mjs" || tag == "cjs" || tag == "jsx" ||
      tag == "javascript" || tag == "ecmascript")
    return "javascript";
  if (tag == "ts" || tag == "typescript" || tag == "tsx") return "typescript";
  if (tag == "c++" || tag == "cpp" || tag == "cxx" || tag == "cc" || tag == "hpp" || tag == "hxx" || tag == "h++")
    return "cpp";
  if (tag == "shell" || tag == "sh" || tag == "bash" || tag == "zsh") return tag == "shell" ? "shell" : tag;
  return tag;
}

std::string stripReasoning(std::string_view reply) {
  std::string text(reply);
  for (std::string tag : {"think", "thinking", "reasoning"}) {
    std::string open = "<" + tag + ">", close = "</" + tag + ">";
    // A template that opened the section itself leaves only the closing tag in the reply.
    auto firstOpen = text.find(open), firstClose = text.find(close);
    if (firstClose != std::string::npos && (firstOpen == std::string::npos || firstClose < firstOpen))
      text.erase(0, firstClose + close.size());
    for (std::size_t pos; (pos = text.find(open)) != std::string::npos;) {
      auto end = text.find(close, pos + open.size());
      if (end == std::string::npos) {
        text.erase(pos);  // unterminated: the answer never came
        break;
      }
      text.erase(pos, end + close.size() - pos);
    }
  }
  return text;
}

ExtractedCode extractCode(std::string_view reply, std::string_view languageIn) {
  std::string language = normalizeLanguage(languageIn);
  std::string text = stripReasoning(reply);
  auto lines = splitLines(text);

  std::vector<Block> blocks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    std::string_view rest = line.substr(indent);
    if (rest.size() < 3 || (rest.substr(0, 3) != "```" && rest.substr(0, 3) != "~~~")) continue;
    char fenceChar = rest[0];
    std::size_t fenceLen = 0;
    while (fenceLen < rest.size() && rest[fenceLen] == fenceChar) ++fenceLen;
    std::string_view info = trimView(rest.substr(fenceLen));
    if (fenceChar == '`' && info.find('`') != std::string_view::npos) continue;  // inline code span
    std::string_view firstWord = info.substr(0, info.find_first_of(" \t{,"));
    if (firstWord.empty() && !info.empty() && info[0] == '{') firstWord = info.substr(1, info.find_first_of(" }") - 1);
    Block b;
    b.lang = normalizeLanguage(firstWord);
    std::vector<std::string> body;
    std::size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      std::string_view l = lines[j];
      std::string_view t = trimView(l);
      if (t.size() >= fenceLen && t.find_first_not_of(fenceChar) == std::string_view::npos) break;
      std::size_t strip = 0;
      while (strip < indent && strip < l.size() && l[strip] == ' ') ++strip;
      body.emplace_back(l.substr(strip));
    }
    b.code = tidy(joinLines(body));
    i = j;  // past the closing fence (or the end: an unclosed fence takes the rest)
    if (!b.code.empty()) blocks.push_back(std::move(b));
  }

  ExtractedCode result;
  if (blocks.empty()) {
    std::string t(trimView(text));
    result.code = unfencedCode(t);
    return result;
  }
  result.fenced = true;

  // Which blocks are candidates.
  std::vector<Block*> chosen;
  bool anyTagged = false;
  if (!language.empty())
    for (auto& b : blocks) anyTagged = anyTagged || b.lang == language;
  for (auto& b : blocks) {
    bool take;
    if (!language.empty()) take = anyTagged ? b.lang == language : (b.lang.empty() || b.lang == "code");
    else take = !isShellLike(b.lang);
    if (take && b.lang.empty() && looksLikeSession(b.code)) take = false;
    if (take) chosen.push_back(&b);
  }
  if (chosen.empty() && language.empty()) return result;
  if (chosen.empty()) {
    // Nothing tagged or untagged for this language: fall back to the non-shell blocks.
    for (auto& b : blocks)
      if (!isShellLike(b.lang) && !looksLikeSession(b.code)) chosen.push_back(&b);
    if (chosen.empty()) return result;
  }

  // Revisions replace, duplicates go, usage examples after the definitions go.
  std::vector<Block*> kept;
  bool sawDefinitions = false;
  for (Block* b : chosen) {
    b->defines = definedNames(b->code, language.empty() ? b->lang : language);
    b->onlyImports = onlyImports(b->code);
    if (std::any_of(kept.begin(), kept.end(), [&](Block* k) { return k->code == b->code; })) continue;
    if (!b->defines.empty()) {
      kept.erase(std::remove_if(kept.begin(), kept.end(),
                                [&](Block* k) {
                                  return std::any_of(k->defines.begin(), k->defines.end(),
                                                     [&](const std::string& n) { return b->defines.count(n) > 0; });
                                }),
                 kept.end());
      sawDefinitions = true;
    } else if (sawDefinitions && !b->onlyImports) {
      continue;  // "Example usage:" after the code
    }
    kept.push_back(b);
  }
  // Imports that came after their code belong at the top.
  std::stable_partition(kept.begin(), kept.end(), [](Block* b) { return b->onlyImports; });
  std::string code;
  for (Block* b : kept) {
    if (!code.empty()) code += '\n';
    code += b->code;
  }
  result.code = code;
  result.language = kept.empty() ? "" : kept.front()->lang;
  result.blocksUsed = static_cast<int>(kept.size());
  return result;
}

}  // namespace greenlight::core::providers
