#include "core/refine/ReplyText.h"

#include <algorithm>
#include <cctype>

#include "core/refine/LineLexer.h"
#include "core/refine/LineRoles.h"
#include "support/TextLines.h"

namespace greenlight::core::refine {

using support::lineViews;
using support::trimView;

using testing::Language;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool blank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') return false;
  }
  return true;
}

std::size_t leadingSpaces(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

int indentWidth(std::string_view line) {
  int w = 0;
  for (char c : line) {
    if (c == ' ') ++w;
    else if (c == '\t') w += 8 - w % 8;
    else break;
  }
  return w;
}

// Lines [b, e) joined, each first without up to `strip` leading blanks (a fence's own
// indentation), blank lines at either end dropped, the common leading whitespace of the
// non-blank lines removed, ending in '\n'.
std::string tidy(const std::vector<std::string_view>& lines, std::size_t b, std::size_t e, std::size_t strip = 0) {
  auto stripped = [&](std::string_view l) {
    std::size_t k = 0;
    while (k < strip && k < l.size() && (l[k] == ' ' || l[k] == '\t')) ++k;
    return l.substr(k);
  };
  while (b < e && blank(lines[b])) ++b;
  while (e > b && blank(lines[e - 1])) --e;
  std::size_t common = std::string_view::npos, bytes = 0;
  for (std::size_t i = b; i < e; ++i) {
    bytes += lines[i].size() + 1;
    if (!blank(lines[i])) common = std::min(common, leadingSpaces(stripped(lines[i])));
  }
  if (common == std::string_view::npos) common = 0;
  if (b < e && strip == 0 && common == 0) {
    // Nothing to take away: the lines as they are in the text (one copy), unless a line lost a
    // '\r' (CRLF text) or a blank line carries spaces.
    const char* from = lines[b].data();
    const char* to = lines[e - 1].data() + lines[e - 1].size();
    std::string_view raw(from, static_cast<std::size_t>(to - from));
    bool plain = raw.find('\r') == std::string_view::npos;
    for (std::size_t i = b; plain && i < e; ++i) plain = lines[i].empty() || !blank(lines[i]);
    if (plain) {
      std::string out;
      out.reserve(raw.size() + 1);
      out.append(raw);
      out += '\n';
      return out;
    }
  }
  std::string out;
  out.reserve(bytes);
  for (std::size_t i = b; i < e; ++i) {
    std::string_view l = stripped(lines[i]);
    if (blank(l)) l = {};
    else l.remove_prefix(std::min(common, l.size()));
    out.append(l);
    out += '\n';
  }
  return out;
}

bool matchesLanguage(const std::string& tag, Language language) {
  switch (language) {
    case Language::Python: return tag == "python";
    case Language::JavaScript: return tag == "javascript" || tag == "typescript";
    case Language::Cxx: return tag == "cpp" || tag == "c";
    case Language::Command: return false;
  }
  return false;
}

bool looksLikeSession(std::string_view code) {
  int lines = 0, prompts = 0;
  for (auto l : lineViews(code, true)) {
    auto t = trimView(l);
    if (t.empty()) continue;
    ++lines;
    if (t.rfind("$ ", 0) == 0 || t.rfind("pip install", 0) == 0 || t.rfind("pip3 install", 0) == 0 ||
        t.rfind("npm install", 0) == 0 || t.rfind("npm i ", 0) == 0 || t.rfind("apt-get ", 0) == 0 ||
        t.rfind("python -m ", 0) == 0 || t.rfind("python3 ", 0) == 0 || t.rfind("node ", 0) == 0 ||
        t.rfind("g++ ", 0) == 0 || t.rfind("./", 0) == 0)
      ++prompts;
  }
  return lines > 0 && prompts == lines;
}

bool looksLikeDiff(std::string_view code) {
  bool header = false, hunk = false;
  int changes = 0, n = 0;
  for (auto l : lineViews(code, true)) {
    if (++n > 4000) break;
    if (l.rfind("--- ", 0) == 0 || l.rfind("+++ ", 0) == 0) header = true;
    else if (l.rfind("@@ ", 0) == 0 && l.find(" @@", 3) != std::string_view::npos) hunk = true;
    else if (!l.empty() && (l[0] == '+' || l[0] == '-')) ++changes;
  }
  return hunk && (header || changes > 0);
}

// Whether an untagged block holds code of the language (not prose, not another language).
bool looksLikeLanguage(std::string_view code, Language language) {
  int code_lines = 0, prose = 0, strong = 0;
  LineLexer lexer(language);
  int n = 0;
  for (auto l : lineViews(code, true)) {
    if (++n > 2000) break;
    if (lexer.atTopLevel()) {
      auto role = lineRole(l, language);
      if (role == LineRole::Strong) ++strong;
      if (role == LineRole::Code || role == LineRole::Strong) ++code_lines;
      if (role == LineRole::Prose) ++prose;
    }
    lexer.feed(l);
  }
  return strong > 0 || (code_lines > 0 && code_lines >= prose);
}

struct Fence {
  std::size_t open = 0, close = 0;  // line indexes: the opening fence, the closing one (or the end)
  std::string tag;
  std::string body;
};

std::vector<Fence> fences(const std::vector<std::string_view>& lines) {
  std::vector<Fence> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    std::size_t indent = leadingSpaces(line);
    std::string_view rest = line.substr(indent);
    if (rest.size() < 3 || (rest.substr(0, 3) != "```" && rest.substr(0, 3) != "~~~")) continue;
    const char fenceChar = rest[0];
    std::size_t fenceLen = 0;
    while (fenceLen < rest.size() && rest[fenceLen] == fenceChar) ++fenceLen;
    std::string_view info = trimView(rest.substr(fenceLen));
    if (fenceChar == '`' && info.find('`') != std::string_view::npos) continue;  // an inline code span
    std::string_view first = info.substr(0, info.find_first_of(" \t,"));
    if (!first.empty() && first[0] == '{') first = first.substr(1, first.find_first_of(" }") == std::string_view::npos
                                                                     ? std::string_view::npos
                                                                     : first.find_first_of(" }") - 1);
    // `python title="x.py"`, `python:solution.py`: the language is before the first separator.
    first = first.substr(0, first.find_first_of(":="));
    Fence f;
    f.open = i;
    f.tag = normalizeLanguage(first);
    std::size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      std::string_view t = trimView(lines[j]);
      if (t.size() >= fenceLen && t.find_first_not_of(fenceChar) == std::string_view::npos) break;
    }
    f.close = j;
    // Body lines lose the fence's own indentation (a fence inside a list item).
    f.body = tidy(lines, i + 1, j, indent);
    out.push_back(std::move(f));
    i = j;  // past the closing fence (an unclosed fence takes the rest: a reply cut at max tokens)
  }
  return out;
}

// The runs of code in lines [from, to) that are not inside a fence (`fenced[i]`), by the
// language's line rules. A run begins at a line that starts a definition or an import (or, for
// Python, a REPL transcript at the top level) and takes the code lines right above it; it ends
// at the first top-level line of prose at its own indentation or less.
void unfencedRuns(const std::vector<std::string_view>& lines, const std::vector<bool>& fenced, Language language,
                  std::vector<ReplyUnit>& out) {
  const std::size_t n = lines.size();
  std::size_t i = 0;
  std::size_t previousEnd = 0;
  while (i < n) {
    if (fenced[i] || blank(lines[i])) {
      ++i;
      continue;
    }
    std::string_view line = lines[i];
    std::string_view t = line.substr(leadingSpaces(line));
    if (language == Language::Python && t.rfind(">>> ", 0) == 0) {
      // A transcript: the `>>>` / `...` lines and the output lines after them, until a blank
      // line that is not followed by another prompt.
      std::size_t j = i;
      while (j < n && !fenced[j]) {
        if (blank(lines[j])) {
          std::size_t k = j;
          while (k < n && !fenced[k] && blank(lines[k])) ++k;
          if (k < n && !fenced[k] && trimView(lines[k]).rfind(">>>", 0) == 0) {
            j = k;
            continue;
          }
          break;
        }
        ++j;
      }
      std::string text = tidy(lines, i, j);
      std::string code = transcriptCode(text);
      if (!trimView(code).empty()) {
        ReplyUnit u;
        u.code = std::move(code);
        u.transcript = true;
        out.push_back(std::move(u));
      }
      previousEnd = i = j;
      continue;
    }
    if (lineRole(line, language) != LineRole::Strong) {
      ++i;
      continue;
    }
    const int base = indentWidth(line);
    // Code right above the start at the same indentation (constants, comments, decorators).
    std::size_t start = i;
    for (std::size_t k = i; k > previousEnd;) {
      --k;
      if (fenced[k]) break;
      if (blank(lines[k])) continue;
      auto role = lineRole(lines[k], language);
      if (indentWidth(lines[k]) != base || (role != LineRole::Code && role != LineRole::Neutral)) break;
      start = k;
    }
    LineLexer lexer(language);
    std::size_t j = start, last = i;
    for (; j < n && !fenced[j]; ++j) {
      std::string_view l = lines[j];
      if (lexer.atTopLevel() && !blank(l)) {
        int w = indentWidth(l);
        if (w < base) break;
        if (w == base) {
          auto role = lineRole(l, language);
          if (role == LineRole::Prose) break;
          if (language == Language::Python && trimView(l).rfind(">>>", 0) == 0) break;
          if (role != LineRole::Neutral) last = j;
        } else {
          last = j;
        }
      } else if (!blank(l)) {
        last = j;
      }
      lexer.feed(l);
    }
    ReplyUnit u;
    u.code = tidy(lines, start, last + 1);
    if (!u.code.empty()) out.push_back(std::move(u));
    previousEnd = i = std::max(last + 1, i + 1);
  }
}

}  // namespace

std::string normalizeLanguage(std::string_view tagIn) {
  std::string tag = lower(trimView(tagIn));
  while (!tag.empty() && (tag.front() == '{' || tag.front() == '.')) tag.erase(tag.begin());
  while (!tag.empty() && tag.back() == '}') tag.pop_back();
  if (tag == "py" || tag == "python3" || tag == "py3" || tag == "python" || tag == "python2") return "python";
  if (tag == "pycon" || tag == "pyrepl" || tag == "python-repl") return "pycon";
  if (tag == "js" || tag == "node" || tag == "nodejs" || tag == "mjs" || tag == "cjs" || tag == "jsx" ||
      tag == "javascript" || tag == "ecmascript" || tag == "es6")
    return "javascript";
  if (tag == "ts" || tag == "typescript" || tag == "tsx" || tag == "mts" || tag == "cts") return "typescript";
  if (tag == "c++" || tag == "cpp" || tag == "cxx" || tag == "cc" || tag == "hpp" || tag == "hxx" || tag == "h++" ||
      tag == "h" || tag == "hh")
    return "cpp";
  if (tag == "patch" || tag == "udiff" || tag == "diff") return "diff";
  if (tag == "shell" || tag == "sh" || tag == "bash" || tag == "zsh") return tag;
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

std::string transcriptCode(std::string_view text) {
  std::string out;
  for (auto l : lineViews(text, true)) {
    std::string_view t = l.substr(leadingSpaces(l));
    if (t.rfind(">>> ", 0) == 0 || t == ">>>") {
      out.append(t.substr(std::min<std::size_t>(4, t.size())));
    } else if (t.rfind("... ", 0) == 0 || t == "...") {
      out.append(t.substr(std::min<std::size_t>(4, t.size())));
    } else {
      continue;  // the REPL's output
    }
    out += '\n';
  }
  return out;
}

ReplyUnits replyUnits(std::string_view reply, Language language) {
  ReplyUnits result;
  // Most replies have no reasoning section: no copy of them then.
  std::string stripped;
  std::string_view text = reply;
  if (reply.find("</think") != std::string_view::npos || reply.find("<think") != std::string_view::npos ||
      reply.find("</reasoning") != std::string_view::npos || reply.find("<reasoning") != std::string_view::npos) {
    stripped = stripReasoning(reply);
    text = stripped;
  }
  const auto lines = lineViews(text, true);
  const auto blocks = fences(lines);
  std::vector<bool> fenced(lines.size(), false);
  for (const auto& f : blocks) {
    for (std::size_t k = f.open; k <= f.close && k < lines.size(); ++k) fenced[k] = true;
  }

  // Fenced blocks first: those tagged with the language, diffs, REPL transcripts, and untagged
  // blocks whose lines read as the language.
  for (const auto& f : blocks) {
    if (f.body.empty()) continue;
    ++result.fencedBlocks;
    ReplyUnit u;
    u.fenced = true;
    u.tag = f.tag;
    const bool untagged = f.tag.empty() || f.tag == "code";
    if (f.tag == "diff" || (untagged && looksLikeDiff(f.body))) {
      u.diff = true;
      u.code = f.body;
    } else if (language == Language::Python && (f.tag == "pycon" || ((f.tag == "python" || untagged) &&
                                                                      trimView(f.body).rfind(">>> ", 0) == 0))) {
      u.transcript = true;
      u.code = transcriptCode(f.body);
    } else if (matchesLanguage(f.tag, language)) {
      u.code = f.body;
    } else if (untagged && !looksLikeSession(f.body) && looksLikeLanguage(f.body, language)) {
      u.code = f.body;
    } else {
      // another language, a shell session, output
      std::string tag = f.tag.empty() ? "untagged" : f.tag;
      if (std::find(result.otherTags.begin(), result.otherTags.end(), tag) == result.otherTags.end()) result.otherTags.push_back(tag);
      continue;
    }
    if (!trimView(u.code).empty()) result.units.push_back(std::move(u));
  }
  if (!result.units.empty()) return result;
  // No usable fence: the code is in the text itself.
  unfencedRuns(lines, fenced, language, result.units);
  return result;
}

}  // namespace greenlight::core::refine
