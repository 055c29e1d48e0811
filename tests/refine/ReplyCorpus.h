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
//   === test: NAME              optional, repeatable: a file written beside the user's file for
//                               the end-to-end run (ReplyCorpusE2ETest.cpp): the tests the code
//                               taken from the reply must pass (test_m.py, m.test.js,
//                               m_test.cpp), or anything else they need (package.json).
//                               Every test in them calls the target (or carries its name):
//                               greenlight runs only the target's tests, and the end-to-end
//                               run counts that all of them ran
//
// ReplyCorpusTest.cpp checks the extraction (code, imports, note, applied, absent);
// ReplyCorpusE2ETest.cpp runs `greenlight generate FILE:LINE --apply` on every case with a test,
// the scripted model answering the reply verbatim.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace greenlight::test::replies {

struct ReplyCase {
  std::string path, fileName, file, reply, code, applied, note;
  std::vector<std::string> imports, absent;
  std::vector<std::pair<std::string, std::string>> tests;  // {NAME, text} of each `=== test: NAME`
  bool hasImports = false, hasApplied = false, hasCode = false, fix = false;
  int line = 0;
  // "python/whole_file.txt": how failures name the case.
  std::string id() const {
    std::filesystem::path p(path);
    return p.parent_path().filename().string() + "/" + p.filename().string();
  }
};

inline std::string slurpFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::string> nonEmptyLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

inline ReplyCase parseCase(const std::filesystem::path& p) {
  ReplyCase c;
  c.path = p.string();
  std::string text = slurpFile(p);
  std::map<std::string, std::string> sections;
  std::string current;
  std::string* target = nullptr;  // the text the next lines go to
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
      if (key == "test") {
        c.tests.emplace_back(value, "");
        target = &c.tests.back().second;
      } else {
        target = &sections[current];
      }
      continue;
    }
    if (!target) continue;  // the description
    *target += l + "\n";
  }
  // A section's last newline belongs to the format, not to its text. Files (the user's, the
  // tests) end with one newline.
  auto chop = [](std::string s) {
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  auto body = [&](const std::string& key) { return chop(sections[key]); };
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
  for (auto& [name, t] : c.tests) t = chop(t) + "\n";
  return c;
}

// Every case, sorted by path.
inline std::vector<std::filesystem::path> corpusFiles() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(GL_REPLY_CORPUS_DIR)) {
    if (e.is_regular_file() && e.path().extension() == ".txt") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace greenlight::test::replies
