#include "core/testing/cmake/FrameworkReports.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>

#include "core/testing/AssertMessages.h"

namespace greenlight::core::testing::cmake {
namespace {

// `r` with only its identity, timing and output kept: the new status and message, no failure.
TestResult cleared(const TestResult& r, TestStatus status, std::string message) {
  TestResult out;
  out.name = r.name;
  out.file = r.file;
  out.line = r.line;
  out.status = status;
  out.message = std::move(message);
  out.durationMs = r.durationMs;
  out.output = r.output;
  return out;
}


constexpr std::size_t kOutputCap = 8192;
constexpr std::size_t kDetailsCap = 4096;

std::string cap(std::string s, std::size_t n) {
  if (s.size() <= n) return s;
  std::size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  s.resize(cut);
  s += "\n[... cut]";
  return s;
}

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

std::string oneLine(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : trim(s)) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ') {
      if (space) continue;
      space = true;
    } else {
      space = false;
    }
    out += c;
  }
  return out;
}

// Dedents an XML element's text: Catch2 and doctest indent their <Original>/<Expanded>.
std::string blockText(std::string_view s) {
  std::istringstream in{std::string(s)};
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  while (!lines.empty() && trim(lines.front()).empty()) lines.erase(lines.begin());
  while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + trim(lines[i]);
  return out;
}

// ---- a small XML reader that tolerates a truncated document (a killed test binary) and stray
// text (what a doctest test printed to stdout).

struct Node {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<Node>> children;
  std::string text;    // all character data directly inside, concatenated
  bool closed = false;  // its end tag (or "/>") was seen

  std::string attr(const std::string& k) const {
    auto it = attrs.find(k);
    return it == attrs.end() ? std::string() : it->second;
  }
  const Node* child(std::string_view n) const {
    for (const auto& c : children)
      if (c->name == n) return c.get();
    return nullptr;
  }
};

std::string unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    auto semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) {
      out += s[i];
      continue;
    }
    std::string_view ent = s.substr(i + 1, semi - i - 1);
    if (ent == "lt") out += '<';
    else if (ent == "gt") out += '>';
    else if (ent == "amp") out += '&';
    else if (ent == "quot") out += '"';
    else if (ent == "apos") out += '\'';
    else if (!ent.empty() && ent[0] == '#') {
      long cp = ent.size() > 1 && (ent[1] == 'x' || ent[1] == 'X') ? std::strtol(std::string(ent.substr(2)).c_str(), nullptr, 16)
                                                                   : std::strtol(std::string(ent.substr(1)).c_str(), nullptr, 10);
      if (cp < 0x80) {
        out += static_cast<char>(cp);
      } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      }
    } else {
      out += s.substr(i, semi - i + 1);
    }
    i = semi;
  }
  return out;
}

bool nameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' || c == '.'; }

std::unique_ptr<Node> parseXml(std::string_view s) {
  auto root = std::make_unique<Node>();
  root->name = "#document";
  std::vector<Node*> stack{root.get()};
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] != '<') {
      auto lt = s.find('<', i);
      if (lt == std::string_view::npos) lt = s.size();
      stack.back()->text += unescape(s.substr(i, lt - i));
      i = lt;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      auto e = s.find("-->", i);
      i = e == std::string_view::npos ? s.size() : e + 3;
      continue;
    }
    if (s.compare(i, 9, "<![CDATA[") == 0) {
      auto e = s.find("]]>", i);
      std::size_t end = e == std::string_view::npos ? s.size() : e;
      stack.back()->text += s.substr(i + 9, end - i - 9);
      i = e == std::string_view::npos ? s.size() : e + 3;
      continue;
    }
    if (s.compare(i, 2, "<?") == 0 || s.compare(i, 2, "<!") == 0) {
      auto e = s.find('>', i);
      i = e == std::string_view::npos ? s.size() : e + 1;
      continue;
    }
    if (i + 1 < s.size() && s[i + 1] == '/') {
      std::size_t j = i + 2;
      while (j < s.size() && nameChar(s[j])) ++j;
      std::string name(s.substr(i + 2, j - i - 2));
      auto e = s.find('>', j);
      i = e == std::string_view::npos ? s.size() : e + 1;
      // Close up to the matching open element; an unmatched end tag is ignored.
      for (std::size_t k = stack.size(); k-- > 1;) {
        if (stack[k]->name == name) {
          stack[k]->closed = true;
          stack.resize(k);
          break;
        }
      }
      continue;
    }
    if (i + 1 >= s.size() || !nameStart(s[i + 1])) {  // a stray '<' in text
      stack.back()->text += '<';
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < s.size() && nameChar(s[j])) ++j;
    auto node = std::make_unique<Node>();
    node->name = std::string(s.substr(i + 1, j - i - 1));
    bool selfClosing = false, complete = false;
    while (j < s.size()) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j >= s.size()) break;
      if (s[j] == '>') {
        ++j;
        complete = true;
        break;
      }
      if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '>') {
        j += 2;
        selfClosing = complete = true;
        break;
      }
      std::size_t k = j;
      while (k < s.size() && nameChar(s[k])) ++k;
      if (k == j) {
        ++j;
        continue;
      }
      std::string key(s.substr(j, k - j));
      j = k;
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      std::string value;
      if (j < s.size() && s[j] == '=') {
        ++j;
        while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
        if (j < s.size() && (s[j] == '"' || s[j] == '\'')) {
          char q = s[j];
          auto e = s.find(q, j + 1);
          if (e == std::string_view::npos) {
            j = s.size();
            break;
          }
          value = unescape(s.substr(j + 1, e - j - 1));
          j = e + 1;
        }
      }
      node->attrs[key] = value;
    }
    i = j;
    if (!complete) break;  // truncated inside a tag: drop it
    Node* raw = node.get();
    stack.back()->children.push_back(std::move(node));
    if (selfClosing) {
      raw->closed = true;
    } else {
      stack.push_back(raw);
    }
  }
  root->closed = true;
  return root;
}

void collect(const Node& n, std::string_view name, std::vector<const Node*>& out) {
  for (const auto& c : n.children) {
    if (c->name == name) out.push_back(c.get());
    collect(*c, name, out);
  }
}

int toInt(const std::string& s) { return std::atoi(s.c_str()); }

std::string joinPath(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " > ") + p;
  return out;
}

void addDetails(CaseResult& r, const std::string& block) {
  if (block.empty()) return;
  if (!r.details.empty()) r.details += "\n";
  r.details += block;
  r.details = cap(r.details, kDetailsCap);
}

// doctest's binary assertions (CHECK_EQ(a, b)): "a, b" -> "a == b".
std::string binaryOp(std::string_view type) {
  static const std::pair<const char*, const char*> ops[] = {{"_EQ", "=="}, {"_NE", "!="}, {"_GT", ">"},
                                                            {"_LT", "<"},  {"_GE", ">="}, {"_LE", "<="}};
  for (auto [suffix, op] : ops) {
    std::string_view sf(suffix);
    if (type.size() > sf.size() && type.substr(type.size() - sf.size()) == sf) return op;
  }
  return "";
}

// Splits "a, b" at its top-level comma (outside (), [], {}, <>, quotes).
std::pair<std::string, std::string> splitArgs(std::string_view s) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) return {trim(s.substr(0, i)), trim(s.substr(i + 1))};
  }
  return {trim(s), ""};
}

// A failed Catch2/doctest expression -> message, expected, actual.
void describeExpression(CaseResult& r, const std::string& type, std::string original, std::string expanded) {
  if (std::string op = binaryOp(type); !op.empty()) {
    auto [l, rr] = splitArgs(original);
    auto [el, er] = splitArgs(expanded);
    if (!rr.empty() && !er.empty()) {
      original = l + " " + op + " " + rr;
      expanded = el + " " + op + " " + er;
    }
  }
  const std::string prefix = type.empty() ? std::string() : type + ": ";
  if (auto d = describeCatchExpansion(original, expanded)) {
    r.result.message = prefix + d->message;
    r.result.expected = d->expected;
    r.result.actual = d->actual;
  } else if (expanded.empty() || normalizeSpace(expanded) == normalizeSpace(original)) {
    r.result.message = oneLine(type + "( " + original + " ) failed");
  } else {
    r.result.message = oneLine(type + "( " + original + " ) is " + expanded);
  }
}

void setSection(CaseResult& r, const std::vector<std::string>& path) {
  if (path.empty() || !r.section.empty()) return;
  r.section = joinPath(path);
}

void finishMessage(CaseResult& r) {
  if (!r.section.empty() && !r.result.message.empty()) r.result.message = "[" + r.section + "] " + r.result.message;
}

// ---- Catch2

struct CatchWalk {
  CaseResult& r;
  bool failed = false;  // a failure was described already
  std::vector<std::string> path;
  std::vector<std::string> infos;
};

void catchVisit(const Node& n, CatchWalk& w);

void catchFailure(CatchWalk& w, const std::string& file, int line, const std::function<void()>& describe,
                  const std::string& block) {
  CaseResult& r = w.r;
  addDetails(r, (file.empty() ? std::string() : file + ":" + std::to_string(line) + ": ") + block);
  if (w.failed) return;
  w.failed = true;
  setSection(r, w.path);
  describe();
  if (!file.empty()) r.result.frames = {{file, line, 0, r.result.name}};
}

void catchVisit(const Node& n, CatchWalk& w) {
  for (const auto& cp : n.children) {
    const Node& c = *cp;
    if (c.name == "Section") {
      w.path.push_back(c.attr("name"));
      catchVisit(c, w);
      w.path.pop_back();
    } else if (c.name == "Info") {
      w.infos.push_back(blockText(c.text));
    } else if (c.name == "Expression" && c.attr("success") == "false") {
      const std::string type = c.attr("type");
      const std::string original = blockText(c.child("Original") ? c.child("Original")->text : "");
      const std::string expanded = blockText(c.child("Expanded") ? c.child("Expanded")->text : "");
      const Node* ex = c.child("Exception");
      std::string exText = ex ? blockText(ex->text) : "";
      const bool fastCompileNote = exText.find("Exception translation was disabled") != std::string::npos;
      if (type.empty() && original == "{Unknown expression after the reported line}") {
        // CATCH_CONFIG_FAST_COMPILE: the exception's text arrives in this second expression.
        if (w.failed && !exText.empty() && w.r.result.status == TestStatus::Error &&
            w.r.result.message.find("threw") != std::string::npos &&
            w.r.result.message.find("Exception translation was disabled") != std::string::npos) {
          auto at = w.r.result.message.rfind("threw: ");
          w.r.result.message = w.r.result.message.substr(0, at) + "threw: " + oneLine(exText);
          if (!w.infos.empty()) w.r.result.message += " (" + oneLine(w.infos.back()) + ")";
          addDetails(w.r, "exception: " + exText);
          w.infos.clear();
          continue;
        }
      }
      const std::string file = c.attr("filename");
      const int line = toInt(c.attr("line"));
      std::string block = type + "( " + original + " )";
      if (!expanded.empty() && expanded != original) block += "\nwith expansion:\n  " + expanded;
      if (ex) block += "\nthrew: " + exText;
      for (const auto& i : w.infos) block += "\nwith message: " + i;
      catchFailure(
          w, file, line,
          [&] {
            if (ex) {
              w.r.result.status = TestStatus::Error;
              w.r.result.kind = FailureKind::Exception;
              w.r.result.message = oneLine(type + "( " + original + " ) threw: " + exText);
              (void)fastCompileNote;
            } else {
              w.r.result.status = TestStatus::Failed;
              w.r.result.kind = FailureKind::Assertion;
              describeExpression(w.r, type, original, expanded);
            }
            if (!w.infos.empty()) w.r.result.message += " (" + oneLine(w.infos.back()) + ")";
          },
          block);
      w.infos.clear();
    } else if (c.name == "Expression") {
      w.infos.clear();
    } else if (c.name == "Exception") {
      const std::string text = blockText(c.text);
      catchFailure(
          w, c.attr("filename"), toInt(c.attr("line")),
          [&] {
            w.r.result.status = TestStatus::Error;
            w.r.result.kind = FailureKind::Exception;
            w.r.result.message = "unexpected exception: " + oneLine(text);
          },
          "unexpected exception: " + text);
    } else if (c.name == "FatalErrorCondition") {
      const std::string text = blockText(c.text);
      catchFailure(
          w, c.attr("filename"), toInt(c.attr("line")),
          [&] {
            w.r.result.status = TestStatus::Error;
            w.r.result.kind = FailureKind::Exception;
            w.r.result.message = "crashed: " + oneLine(text);
            w.r.outcome = "crashed";
          },
          "fatal error: " + text);
    } else if (c.name == "Failure") {  // FAIL("...")
      const std::string text = blockText(c.text);
      catchFailure(
          w, c.attr("filename"), toInt(c.attr("line")),
          [&] {
            w.r.result.status = TestStatus::Failed;
            w.r.result.kind = FailureKind::Assertion;
            w.r.result.message = "FAIL: " + oneLine(text);
          },
          "FAIL: " + text);
    } else if (c.name == "Skip") {  // Catch2 v3 SKIP()
      w.r.reason = blockText(c.text);
    } else if (c.name == "OverallResult") {
      std::string out;
      if (const Node* o = c.child("StdOut")) out += blockText(o->text) + "\n";
      if (const Node* e = c.child("StdErr")) out += blockText(e->text) + "\n";
      if (!out.empty()) w.r.result.output = cap(out, kOutputCap);
    }
  }
}

// ---- doctest

struct DoctestWalk {
  CaseResult& r;
  bool failed = false;
  std::vector<std::string> path;
};

void doctestFailure(DoctestWalk& w, const std::string& file, int line, const std::function<void()>& describe,
                    const std::string& block) {
  addDetails(w.r, (file.empty() ? std::string() : file + ":" + std::to_string(line) + ": ") + block);
  if (w.failed) return;
  w.failed = true;
  setSection(w.r, w.path);
  describe();
  if (!file.empty()) w.r.result.frames = {{file, line, 0, w.r.result.name}};
}

void doctestVisit(const Node& n, DoctestWalk& w) {
  for (const auto& cp : n.children) {
    const Node& c = *cp;
    if (c.name == "SubCase") {
      w.path.push_back(c.attr("name"));
      doctestVisit(c, w);
      w.path.pop_back();
    } else if (c.name == "Expression" && c.attr("success") == "false") {
      const std::string type = c.attr("type");
      const std::string original = blockText(c.child("Original") ? c.child("Original")->text : "");
      const Node* expandedNode = c.child("Expanded");
      const std::string expanded = blockText(expandedNode ? expandedNode->text : "");
      const Node* ex = c.child("Exception");
      const Node* expectedEx = c.child("ExpectedException");
      const Node* expectedMsg = c.child("ExpectedExceptionString");
      std::vector<std::string> infos;
      for (const auto& i : c.children)
        if (i->name == "Info") infos.push_back(blockText(i->text));
      std::string block = type + "( " + original + " )";
      if (expandedNode) block += " is NOT correct!\n  values: " + type + "( " + expanded + " )";
      if (ex) block += "\n  threw: " + blockText(ex->text);
      if (expectedEx) block += "\n  did NOT throw " + blockText(expectedEx->text);
      for (const auto& i : infos) block += "\n  logged: " + i;
      doctestFailure(
          w, c.attr("filename"), toInt(c.attr("line")),
          [&] {
            if (ex) {
              w.r.result.status = TestStatus::Error;
              w.r.result.kind = FailureKind::Exception;
              std::string what = blockText(ex->text);
              if (what.size() >= 2 && what.front() == '"' && what.back() == '"') what = what.substr(1, what.size() - 2);
              w.r.result.message = oneLine(type + "( " + original + " ) threw: " + what);
            } else if (expectedEx || expectedMsg) {
              w.r.result.status = TestStatus::Failed;
              w.r.result.kind = FailureKind::Assertion;
              std::string want = blockText(expectedEx ? expectedEx->text : expectedMsg->text);
              w.r.result.message = oneLine(type + "( " + original + " ) did not throw " + want);
              w.r.result.expected = "throws " + want;
              w.r.result.actual = "no exception";
            } else {
              w.r.result.status = TestStatus::Failed;
              w.r.result.kind = FailureKind::Assertion;
              describeExpression(w.r, type, original, expanded);
            }
            if (!infos.empty()) w.r.result.message += " (" + oneLine(infos.back()) + ")";
          },
          block);
    } else if (c.name == "Message" && (c.attr("type") == "ERROR" || c.attr("type") == "FATAL ERROR")) {
      const std::string text = blockText(c.child("Text") ? c.child("Text")->text : c.text);
      doctestFailure(
          w, c.attr("filename"), toInt(c.attr("line")),
          [&] {
            w.r.result.status = TestStatus::Failed;
            w.r.result.kind = FailureKind::Assertion;
            w.r.result.message = "FAIL: " + oneLine(text);
          },
          "FAIL: " + text);
    } else if (c.name == "Exception") {
      const std::string text = blockText(c.text);
      const bool crash = c.attr("crash") == "true";
      doctestFailure(
          w, "", 0,
          [&] {
            w.r.result.status = TestStatus::Error;
            w.r.result.kind = FailureKind::Exception;
            w.r.result.message = (crash ? "crashed: " : "unexpected exception: ") + oneLine(text);
            if (crash) w.r.outcome = "crashed";
          },
          (crash ? "crashed: " : "unexpected exception: ") + text);
    }
  }
}

std::string stripOwnXmlIndent(const std::string& text) {
  // Stray text inside <TestCase> is what the test printed; the reporter's own indentation
  // between elements is whitespace only.
  std::istringstream in(text);
  std::string out;
  for (std::string l; std::getline(in, l);)
    if (!trim(l).empty()) out += l + "\n";
  return out;
}

CaseResult newCase(std::string_view target, const std::string& name, const std::string& file, int line) {
  CaseResult r;
  r.result.name = name;
  r.result.file = file;
  r.result.line = line;
  r.id = std::string(target) + "::" + name;
  r.parent = file;
  return r;
}

void markUnfinished(CaseResult& r) {
  r.result.status = TestStatus::Error;
  r.result.kind = FailureKind::Exception;
  r.outcome = "crashed";
  if (r.result.message.empty()) r.result.message = "the test binary died in this test (no result reported)";
}

}  // namespace

std::string_view frameworkName(Framework framework) {
  switch (framework) {
    case Framework::GoogleTest: return "gtest";
    case Framework::Catch2: return "catch2";
    case Framework::Doctest: return "doctest";
    case Framework::BoostTest: return "boost";
    case Framework::Plain: break;
  }
  return "plain";
}

nlohmann::json toResultEvent(const CaseResult& r) {
  const TestResult& t = r.result;
  nlohmann::json e = {{"ev", "result"}, {"id", r.id}, {"name", t.name}, {"file", t.file}, {"line", t.line},
                      {"status", std::string(testStatusName(t.status))}, {"duration_ms", t.durationMs}};
  if (!r.parent.empty()) e["parent"] = r.parent;
  if (!r.outcome.empty()) e["outcome"] = r.outcome;
  if (!r.reason.empty()) e["reason"] = r.reason;
  if (t.kind != FailureKind::None) {
    static const char* kinds[] = {"", "assertion", "exception", "timeout", "compile", "sandbox", "memory"};
    e["kind"] = kinds[static_cast<int>(t.kind)];
  }
  if (!t.message.empty()) e["message"] = t.message;
  if (!r.details.empty()) e["details"] = r.details;
  if (!t.expected.empty()) e["expected"] = t.expected;
  if (!t.actual.empty()) e["actual"] = t.actual;
  if (!t.frames.empty()) {
    nlohmann::json frames = nlohmann::json::array();
    for (const auto& f : t.frames) {
      nlohmann::json fj = {{"file", f.file}, {"line", f.line}};
      if (f.column > 0) fj["column"] = f.column;
      if (!f.function.empty()) fj["function"] = f.function;
      frames.push_back(fj);
    }
    e["frames"] = frames;
  }
  if (!t.output.empty()) e["output"] = t.output;
  return e;
}

std::string catchSpecEscape(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '\\' || c == ',' || c == '[' || c == ']' || c == '*' || c == '"' || (c == '~' && i == 0)) out += '\\';
    out += c;
  }
  return out;
}

std::string catchSpecUnescape(std::string_view spec) {
  std::string out;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == '\\' && i + 1 < spec.size()) ++i;
    out += spec[i];
  }
  return out;
}

std::vector<std::string> reportArguments(Framework framework, const std::string& reportPath) {
  switch (framework) {
    case Framework::GoogleTest: return {"--gtest_output=json:" + reportPath, "--gtest_color=no"};
    case Framework::Catch2: return {"--reporter", "xml", "--durations", "yes"};
    case Framework::Doctest: return {"--reporters=xml", "--duration=true", "--no-colors=true"};
    case Framework::BoostTest: return {"--log_format=XML", "--log_level=all", "--report_level=no"};
    case Framework::Plain: break;
  }
  return {};
}

std::vector<std::string> selectArguments(Framework framework, const std::vector<std::string>& names) {
  if (names.empty()) return {};
  switch (framework) {
    case Framework::GoogleTest: {
      std::string filter = "--gtest_filter=";
      bool disabled = false;
      for (std::size_t i = 0; i < names.size(); ++i) {
        filter += (i ? ":" : "") + names[i];
        if (names[i].find("DISABLED_") != std::string::npos) disabled = true;
      }
      std::vector<std::string> out{filter};
      if (disabled) out.push_back("--gtest_also_run_disabled_tests");
      return out;
    }
    case Framework::Catch2: {
      std::string spec;
      for (std::size_t i = 0; i < names.size(); ++i) spec += (i ? "," : "") + catchSpecEscape(names[i]);
      return {spec};
    }
    case Framework::Doctest: {
      std::string arg = "--test-case=";
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) arg += ',';
        for (char c : names[i]) {
          if (c == ',') arg += '\\';
          arg += c;
        }
      }
      return {arg};
    }
    case Framework::BoostTest: {
      std::string arg = "--run_test=";
      for (std::size_t i = 0; i < names.size(); ++i) arg += (i ? ":" : "") + names[i];
      return {arg};
    }
    case Framework::Plain: break;
  }
  return {};
}

// ---- GoogleTest

std::vector<CaseResult> parseGtestJson(std::string_view json, std::string_view target) {
  std::vector<CaseResult> out;
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return out;
  for (const auto& suite : j.value("testsuites", nlohmann::json::array())) {
    const std::string suiteName = suite.value("name", "");
    for (const auto& t : suite.value("testsuite", nlohmann::json::array())) {
      CaseResult r = newCase(target, suiteName + "." + t.value("name", ""), t.value("file", ""), t.value("line", 0));
      r.parent = std::string(target) + "::" + suiteName;
      const std::string status = t.value("status", "RUN"), result = t.value("result", "COMPLETED");
      r.result.durationMs = std::atof(t.value("time", "0s").c_str()) * 1000;
      if (status == "NOTRUN" || result == "SUPPRESSED") {
        r.result.status = TestStatus::Skipped;
        r.outcome = "disabled";
        r.reason = "DISABLED_";
      } else if (result == "SKIPPED") {
        r.result.status = TestStatus::Skipped;
        r.outcome = "skipped";
      }
      for (const auto& f : t.value("failures", nlohmann::json::array())) {
        const std::string text = f.value("failure", "");
        const auto nl = text.find('\n');
        const std::string where = text.substr(0, nl);
        const std::string what = nl == std::string::npos ? "" : text.substr(nl + 1);
        addDetails(r, text);
        if (r.result.status == TestStatus::Failed || r.result.status == TestStatus::Error) continue;
        const auto colon = where.rfind(':');
        if (where != "unknown file" && colon != std::string::npos) {
          r.result.frames = {{where.substr(0, colon), std::atoi(where.c_str() + colon + 1), 0, r.result.name}};
        }
        if (what.rfind("C++ exception with description ", 0) == 0 || what.rfind("Unknown C++ exception", 0) == 0 ||
            what.find("exception thrown in") != std::string::npos) {
          r.result.status = TestStatus::Error;
          r.result.kind = FailureKind::Exception;
          std::string m = what;
          if (m.rfind("C++ exception with description \"", 0) == 0) {
            auto end = m.rfind("\" thrown in ");
            if (end != std::string::npos) m = "uncaught exception: " + m.substr(32, end - 32) + m.substr(end + 1);
          }
          r.result.message = oneLine(m);
          continue;
        }
        r.result.status = TestStatus::Failed;
        r.result.kind = FailureKind::Assertion;
        if (auto d = describeGtestFailure(what)) {
          r.result.message = d->message;
          r.result.expected = d->expected;
          r.result.actual = d->actual;
        } else {
          r.result.message = oneLine(what);
        }
      }
      out.push_back(std::move(r));
    }
  }
  return out;
}

GtestConsole parseGtestConsole(std::string_view text) {
  GtestConsole c;
  std::istringstream in{std::string(text)};
  std::string current, line;
  std::string failureName;  // collecting a "file:line: Failure"/"Skipped" block for `current`
  bool inSkip = false;
  auto tagged = [](const std::string& l, std::string_view tag, std::string& name) {
    if (l.rfind(tag, 0) != 0) return false;
    name = l.substr(tag.size());
    auto sp = name.find(" (");
    auto comma = name.find(", where ");
    name = name.substr(0, std::min(sp, comma));
    return true;
  };
  while (std::getline(in, line)) {
    std::string name;
    if (tagged(line, "[ RUN      ] ", name)) {
      current = name;
      c.started.push_back(name);
      c.running = name;
      inSkip = false;
      continue;
    }
    if (!current.empty() && (tagged(line, "[       OK ] ", name) || tagged(line, "[  FAILED  ] ", name) ||
                             tagged(line, "[  SKIPPED ] ", name)) &&
        name == current) {
      c.status[current] = line.substr(3, 7).find("OK") != std::string::npos       ? "OK"
                          : line.substr(3, 7).find("FAILED") != std::string::npos ? "FAILED"
                                                                                  : "SKIPPED";
      if (auto it = c.skipReason.find(current); it != c.skipReason.end()) it->second = trim(it->second);
      current.clear();
      c.running.clear();
      continue;
    }
    if (current.empty()) continue;
    c.output[current] += line + "\n";
    if (line.size() > 9 && line.compare(line.size() - 9, 9, ": Skipped") == 0) {
      inSkip = true;
      c.skipReason[current];
      continue;
    }
    if (line.size() > 9 && line.compare(line.size() - 9, 9, ": Failure") == 0) inSkip = false;
    if (inSkip) c.skipReason[current] += line + "\n";
    else if (line.size() > 9 && line.compare(line.size() - 9, 9, ": Failure") == 0) c.failures[current] += line + "\n";
    else if (c.failures.count(current)) c.failures[current] += line + "\n";
  }
  for (auto& [n, o] : c.output) o = cap(o, kOutputCap);
  return c;
}

std::vector<CaseResult> gtestResults(std::string_view json, std::string_view console, std::string_view target,
                                     std::string_view crashMessage) {
  std::vector<CaseResult> out = parseGtestJson(json, target);
  const GtestConsole c = parseGtestConsole(console);
  if (!out.empty()) {
    for (auto& r : out) {
      if (auto it = c.output.find(r.result.name); it != c.output.end()) r.result.output = it->second;
      if (auto it = c.skipReason.find(r.result.name); it != c.skipReason.end() && r.result.status == TestStatus::Skipped)
        r.reason = it->second;
    }
    return out;
  }
  for (const auto& name : c.started) {
    CaseResult r = newCase(target, name, "", 0);
    auto dot = name.find('.');
    r.parent = std::string(target) + "::" + name.substr(0, dot);
    if (auto it = c.output.find(name); it != c.output.end()) r.result.output = it->second;
    auto st = c.status.find(name);
    if (st == c.status.end()) {
      markUnfinished(r);
      r.result.message = std::string(crashMessage);
    } else if (st->second == "SKIPPED") {
      r.result.status = TestStatus::Skipped;
      r.outcome = "skipped";
      if (auto it = c.skipReason.find(name); it != c.skipReason.end()) r.reason = it->second;
    } else if (st->second == "FAILED") {
      r.result.status = TestStatus::Failed;
      r.result.kind = FailureKind::Assertion;
      const std::string block = c.failures.count(name) ? c.failures.at(name) : std::string();
      addDetails(r, block);
      auto nl = block.find('\n');
      std::string head = block.substr(0, nl), what = nl == std::string::npos ? "" : block.substr(nl + 1);
      auto colon = head.rfind(": Failure");
      if (colon != std::string::npos) {
        head = head.substr(0, colon);
        auto c2 = head.rfind(':');
        if (c2 != std::string::npos) r.result.frames = {{head.substr(0, c2), std::atoi(head.c_str() + c2 + 1), 0, name}};
      }
      if (auto d = describeGtestFailure(what)) {
        r.result.message = d->message;
        r.result.expected = d->expected;
        r.result.actual = d->actual;
      } else {
        r.result.message = oneLine(what.empty() ? "failed" : what);
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

// ---- Catch2

std::vector<CaseResult> parseCatch2Xml(std::string_view xml, std::string_view target) {
  std::vector<CaseResult> out;
  auto doc = parseXml(xml);
  std::vector<const Node*> cases;
  collect(*doc, "TestCase", cases);
  for (const Node* tc : cases) {
    CaseResult r = newCase(target, tc->attr("name"), tc->attr("filename"), toInt(tc->attr("line")));
    CatchWalk w{r, false, {}, {}};
    catchVisit(*tc, w);
    const Node* overall = tc->child("OverallResult");
    const std::string tags = tc->attr("tags");
    const bool mayFail = tags.find("[!mayfail]") != std::string::npos || tags.find("[!shouldfail]") != std::string::npos;
    if (overall) {
      r.result.durationMs = std::atof(overall->attr("durationInSeconds").c_str()) * 1000;
      const bool ok = overall->attr("success") == "true";
      if (overall->attr("skips") != "" && overall->attr("skips") != "0" && !w.failed) {  // v3 SKIP()
        r.result.status = TestStatus::Skipped;
        r.outcome = "skipped";
      } else if (ok && w.failed && mayFail) {
        r.result.status = TestStatus::Skipped;
        r.outcome = "xfailed";
        r.reason = tags.find("[!shouldfail]") != std::string::npos ? "[!shouldfail]" : "[!mayfail]";
        r.result.kind = FailureKind::None;
      } else if (ok) {
        r.result = cleared(r.result, TestStatus::Passed, "");
        r.section.clear();
        if (tags.find("[!shouldfail]") != std::string::npos) {
          // A [!shouldfail] test that passed is a failure in Catch2's own count.
        }
      } else if (!w.failed) {
        r.result.status = TestStatus::Failed;
        r.result.kind = FailureKind::Assertion;
        r.result.message = "test case failed";
      }
    } else {
      markUnfinished(r);
    }
    finishMessage(r);
    out.push_back(std::move(r));
  }
  return out;
}

// ---- doctest

std::vector<CaseResult> parseDoctestXml(std::string_view xml, std::string_view target) {
  std::vector<CaseResult> out;
  auto doc = parseXml(xml);
  std::vector<const Node*> suites;
  collect(*doc, "TestSuite", suites);
  for (const Node* suite : suites) {
    const std::string suiteName = suite->attr("name");
    for (const auto& tcp : suite->children) {
      const Node* tc = tcp.get();
      if (tc->name != "TestCase") continue;
      CaseResult r = newCase(target, tc->attr("name"), tc->attr("filename"), toInt(tc->attr("line")));
      if (!suiteName.empty()) r.parent = std::string(target) + "::" + suiteName;
      if (tc->attr("skipped") == "true") {
        r.result.status = TestStatus::Skipped;
        r.outcome = "skipped";
        r.reason = "doctest::skip or not selected";
        out.push_back(std::move(r));
        continue;
      }
      DoctestWalk w{r, false, {}};
      doctestVisit(*tc, w);
      const std::string printed = stripOwnXmlIndent(tc->text);
      if (!printed.empty()) r.result.output = cap(printed, kOutputCap);
      const Node* overall = tc->child("OverallResultsAsserts");
      // doctest::expected_failures(n) shows as an attribute of OverallResultsAsserts (doctest 2.4.9),
      // may_fail/should_fail as attributes of the TestCase.
      const bool expectFail = tc->attr("may_fail") == "true" || tc->attr("should_fail") == "true" ||
                              tc->attr("expected_failures") != "" ||
                              (overall && overall->attr("expected_failures") != "");
      if (overall) {
        r.result.durationMs = std::atof(overall->attr("duration").c_str()) * 1000;
        const bool ok = overall->attr("test_case_success") == "true";
        if (ok && w.failed && expectFail) {
          r.result = cleared(r.result, TestStatus::Skipped, r.result.message);
          r.outcome = "xfailed";
          r.reason = tc->attr("should_fail") == "true" ? "should_fail" : "may_fail";
        } else if (ok) {
          r.result = cleared(r.result, TestStatus::Passed, "");
          r.section.clear();
        } else if (!w.failed) {
          r.result.status = TestStatus::Failed;
          r.result.kind = FailureKind::Assertion;
          r.result.message = tc->attr("should_fail") == "true" ? "should_fail: the test passed" : "test case failed";
        }
      } else {
        markUnfinished(r);
      }
      finishMessage(r);
      out.push_back(std::move(r));
    }
  }
  return out;
}

// ---- Boost.Test

namespace {

// "check add(2, 2) == 4 has failed [5 != 4]" -> message and values; "critical check" (REQUIRE)
// alike; BOOST_CHECK_CLOSE's "difference{d} between a{A} and b{B} exceeds t%".
void describeBoostCheck(CaseResult& r, const std::string& level, const std::string& text) {
  const std::string line = oneLine(text);
  std::string rest = line;
  bool critical = false;
  if (rest.rfind("critical check ", 0) == 0) {
    critical = true;
    rest = rest.substr(15);
  } else if (rest.rfind("check ", 0) == 0) {
    rest = rest.substr(6);
  } else {
    // BOOST_CHECK_CLOSE / SMALL, BOOST_ERROR, BOOST_FAIL: their own words.
    r.result.message = line;
    const auto between = line.find(" between ");
    const auto andAt = between == std::string::npos ? std::string::npos : line.find(" and ", between);
    const auto value = [&](std::size_t from) {
      const auto open = line.find('{', from), close = line.find('}', from);
      return open == std::string::npos || close == std::string::npos || close < open ? std::string() : line.substr(open + 1, close - open - 1);
    };
    if (andAt != std::string::npos) {
      r.result.actual = value(between);
      r.result.expected = value(andAt);
    }
    return;
  }
  const std::string prefix = critical ? "BOOST_REQUIRE: " : "BOOST_CHECK: ";
  const auto failed = rest.rfind(" has failed");
  const std::string expression = failed == std::string::npos ? rest : rest.substr(0, failed);
  std::string values;
  if (failed != std::string::npos) {
    const auto open = rest.find('[', failed), close = rest.rfind(']');
    if (open != std::string::npos && close != std::string::npos && close > open) values = rest.substr(open + 1, close - open - 1);
  }
  if (auto cmp = splitComparison(expression); cmp && !values.empty()) {
    // Boost prints the values with the negated operator: "[5 != 4]" for a failed ==.
    static const std::pair<const char*, const char*> negated[] = {{"==", "!="}, {"!=", "=="}, {"<", ">="},
                                                                  {">", "<="}, {"<=", ">"},  {">=", "<"}};
    for (auto [op, neg] : negated) {
      if (cmp->op != op) continue;
      const std::string sep = std::string(" ") + neg + " ";
      const auto at = values.find(sep);
      if (at == std::string::npos) break;
      auto d = describeComparison(expression, cmp->op, values.substr(0, at), values.substr(at + sep.size()));
      r.result.message = prefix + d.message;
      r.result.actual = d.actual;
      r.result.expected = d.expected;
      return;
    }
  }
  r.result.message = prefix + expression + (values.empty() ? " failed" : " failed [" + values + "]");
  (void)level;
}

void boostVisitCase(const Node& tc, CaseResult& r) {
  bool failed = false;
  for (const auto& cp : tc.children) {
    const Node& n = *cp;
    const std::string file = n.attr("file");
    const int line = toInt(n.attr("line"));
    const bool located = !file.empty() && file != "unknown location";
    if (n.name == "Error" || n.name == "FatalError") {
      addDetails(r, (located ? file + ":" + std::to_string(line) + ": " : std::string()) + trim(n.text));
      if (failed) continue;
      failed = true;
      r.result.status = TestStatus::Failed;
      r.result.kind = FailureKind::Assertion;
      describeBoostCheck(r, n.name, n.text);
      if (located) r.result.frames = {{file, line, 0, r.result.name}};
    } else if (n.name == "Exception") {
      const std::string what = trim(n.text);
      const Node* cpNode = n.child("LastCheckpoint");
      addDetails(r, what + (cpNode ? " (last checkpoint " + cpNode->attr("file") + ":" + cpNode->attr("line") + ")" : ""));
      if (failed) continue;
      failed = true;
      const bool crash = what.rfind("memory access violation", 0) == 0 || what.rfind("signal:", 0) == 0 ||
                         what.find("fatal error") != std::string::npos;
      r.result.status = TestStatus::Error;
      r.result.kind = FailureKind::Exception;
      r.result.message = (crash ? "crashed: " : "unexpected exception: ") + oneLine(what);
      if (crash) r.outcome = "crashed";
      if (located) r.result.frames = {{file, line, 0, r.result.name}};
      else if (cpNode && !cpNode->attr("file").empty()) r.result.frames = {{cpNode->attr("file"), toInt(cpNode->attr("line")), 0, r.result.name}};
    }
  }
}

void boostVisitSuite(const Node& suite, const std::string& path, std::string_view target, std::vector<CaseResult>& out) {
  for (const auto& cp : suite.children) {
    const Node& n = *cp;
    const std::string name = n.attr("name");
    const std::string full = path.empty() ? name : path + "/" + name;
    if (n.name == "TestSuite") {
      boostVisitSuite(n, full, target, out);
      continue;
    }
    if (n.name != "TestCase") continue;
    CaseResult r = newCase(target, full, n.attr("file"), toInt(n.attr("line")));
    if (!path.empty()) r.parent = std::string(target) + "::" + path;
    if (n.attr("skipped") == "yes") {
      r.result.status = TestStatus::Skipped;
      r.outcome = "skipped";
      r.reason = n.attr("reason").empty() ? "skipped" : n.attr("reason");
      out.push_back(std::move(r));
      continue;
    }
    r.result.status = TestStatus::Passed;
    boostVisitCase(n, r);
    const std::string printed = stripOwnXmlIndent(n.text);
    if (!printed.empty()) r.result.output = cap(printed, kOutputCap);
    if (const Node* t = n.child("TestingTime")) r.result.durationMs = std::atof(t->text.c_str()) / 1000.0;
    if (!n.closed) markUnfinished(r);
    out.push_back(std::move(r));
  }
}

}  // namespace

std::vector<CaseResult> parseBoostTestXml(std::string_view xml, std::string_view target) {
  std::vector<CaseResult> out;
  auto doc = parseXml(xml);
  const Node* log = doc->child("TestLog");
  if (!log) return out;
  // The master suite's name is the module's, not part of a test's path.
  for (const auto& cp : log->children)
    if (cp->name == "TestSuite") boostVisitSuite(*cp, "", target, out);
  return out;
}

// ---- plain

CaseResult plainResult(std::string_view target, std::string_view name, const PlainRun& run, std::string file, int line) {
  CaseResult r = newCase(target, std::string(name), file, line);
  r.result.durationMs = run.durationMs;
  r.result.output = cap(run.output, kOutputCap);
  if (run.timedOut) {
    r.result.status = TestStatus::Timeout;
    r.result.kind = FailureKind::Timeout;
    r.result.message = "timed out";
  } else if (run.signal != 0) {
    r.result.status = TestStatus::Error;
    r.result.kind = FailureKind::Exception;
    r.result.message = "killed by signal " + std::to_string(run.signal);
    r.outcome = "crashed";
  } else if (run.skipReturnCode >= 0 && run.exitCode == run.skipReturnCode) {
    r.result.status = TestStatus::Skipped;
    r.outcome = "skipped";
    r.reason = "exit code " + std::to_string(run.exitCode) + " (SKIP_RETURN_CODE)";
  } else if ((run.exitCode != 0) != run.willFail) {
    r.result.status = TestStatus::Failed;
    r.result.kind = FailureKind::Assertion;
    r.result.message = run.willFail ? "exited 0, expected a failure (WILL_FAIL)" : "exited with code " + std::to_string(run.exitCode);
    // The last non-empty output line usually says what went wrong.
    std::istringstream in(run.output);
    std::string last;
    for (std::string l; std::getline(in, l);)
      if (!trim(l).empty()) last = trim(l);
    if (!last.empty()) r.result.message += ": " + oneLine(last).substr(0, 300);
  }
  return r;
}

}  // namespace greenlight::core::testing::cmake
