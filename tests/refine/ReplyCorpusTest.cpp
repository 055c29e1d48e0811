// The corpus of reply shapes (tests/refine/replies/<language>/*.txt): each case is a file, a
// LINE, a model's reply, and what greenlight must make of it. One case per file:
//
//   # what the case is about (any number of comment lines)
//   === file: NAME.py           the user's file (NAME's extension decides the language)
//   === line: N                 the LINE of `generate` (fix: `=== fix: N`)
//   === reply                   the model's reply, verbatim
//   === code                    the candidate, exactly (codeFromReply, then normalizeCandidate)
//   === imports                 optional: the import lines added to the file, one per line
//   === note                    optional: a substring of the note fed back to the model
//   === applied                 optional: the whole file after the edits
//   === absent                  optional: strings the candidate must not contain, one per line
//
// Every case also checks what must hold for every reply: the user's comment and docstring are
// byte-identical in the file after the edits, and the edits apply cleanly.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <catch2/catch.hpp>

#include "core/refine/Imports.h"
#include "core/refine/ReplyCode.h"
#include "core/refine/Splice.h"
#include "core/refine/Target.h"
#include "core/refine/UserSpec.h"
#include "core/testing/Discovery.h"

namespace fs = std::filesystem;
using namespace greenlight::core::refine;
using greenlight::core::testing::Language;

namespace {

struct ReplyCase {
  std::string path, fileName, file, reply, code, applied, note;
  std::vector<std::string> imports, absent;
  bool hasImports = false, hasApplied = false, hasCode = false, fix = false;
  int line = 0;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> nonEmptyLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

ReplyCase parseCase(const fs::path& p) {
  ReplyCase c;
  c.path = p.string();
  std::string text = slurp(p);
  std::map<std::string, std::string> sections;
  std::string current;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("=== ", 0) == 0) {
      std::string head = l.substr(4);
      std::string key = head.substr(0, head.find(':'));
      std::string value = head.find(':') == std::string::npos ? "" : head.substr(head.find(':') + 1);
      while (!value.empty() && value.front() == ' ') value.erase(value.begin());
      if (key == "file") c.fileName = value;
      if (key == "line") c.line = std::stoi(value);
      if (key == "fix") {
        c.fix = true;
        c.line = std::stoi(value);
      }
      current = key;
      sections[current];
      continue;
    }
    if (current.empty()) continue;  // the description
    sections[current] += l + "\n";
  }
  // A section's last newline belongs to the format, not to its text.
  auto body = [&](const std::string& key) {
    std::string s = sections[key];
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  c.file = body("file") + "\n";
  c.reply = body("reply");
  c.hasCode = sections.count("code") > 0;
  c.code = body("code");
  c.hasImports = sections.count("imports") > 0;
  c.imports = nonEmptyLines(body("imports"));
  c.note = body("note");
  c.hasApplied = sections.count("applied") > 0;
  c.applied = body("applied") + "\n";
  c.absent = nonEmptyLines(body("absent"));
  return c;
}

std::vector<fs::path> corpusFiles() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(GL_REPLY_CORPUS_DIR)) {
    if (e.is_regular_file() && e.path().extension() == ".txt") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("reply corpus: every shape yields the right candidate, the user's spec kept", "[refine][replies]") {
  const auto files = corpusFiles();
  REQUIRE(files.size() >= 60);
  std::map<Language, int> perLanguage;
  for (const auto& path : files) {
    ReplyCase c = parseCase(path);
    {
      INFO("case " << path.parent_path().filename().string() << "/" << path.filename().string());
      auto language = greenlight::core::testing::languageForPath("/ws/" + c.fileName);
      REQUIRE(language);
      ++perLanguage[*language];
      auto lookup = c.fix ? findFixTarget(c.file, c.line, *language) : findTarget(c.file, c.line, *language);
      INFO(lookup.error);
      REQUIRE(lookup.target);
      const Target& target = *lookup.target;
      ReplyCode taken = codeFromReply(c.reply, target, c.file);
      std::string code = taken.code.empty() ? "" : normalizeCandidate(taken.code, target);
      INFO("note: " << taken.note);
      if (c.hasCode) CHECK(code == c.code);
      for (const auto& a : c.absent) CHECK(code.find(a) == std::string::npos);
      if (!c.note.empty()) CHECK(taken.note.find(c.note) != std::string::npos);
      auto added = missingImports(taken.imports, c.file, *language);
      if (c.hasImports) CHECK(added == c.imports);
      if (code.empty()) continue;  // NOLINT: the rest needs code
      Spliced s = splice(c.file, target, code, {taken.imports, taken.exports});
      if (c.hasApplied) CHECK(s.text == c.applied);
      // The user's comment and docstring, byte for byte.
      if (!target.commentText.empty()) CHECK(s.text.find(target.commentText) != std::string::npos);
      if (std::string doc = userDocstring(target); !doc.empty()) CHECK(s.text.find(doc) != std::string::npos);
      // Every edit, applied in order, gives the spliced text.
      std::string rebuilt;
      std::size_t pos = 0;
      for (const auto& e : s.edits) {
        REQUIRE(e.begin >= pos);
        rebuilt += c.file.substr(pos, e.begin - pos) + e.newText;
        pos = e.end;
      }
      rebuilt += c.file.substr(pos);
      CHECK(rebuilt == s.text);
    }
  }
  CHECK(perLanguage[Language::Python] >= 20);
  CHECK(perLanguage[Language::JavaScript] >= 15);
  CHECK(perLanguage[Language::Cxx] >= 15);
}
