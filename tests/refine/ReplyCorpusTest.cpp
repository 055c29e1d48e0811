// The corpus of reply shapes (tests/refine/replies/<language>/*.txt; the format: ReplyCorpus.h):
// per case, the candidate greenlight takes from the model's reply. The `=== test:` files are for
// the end-to-end run (ReplyCorpusE2ETest.cpp); here they are only parsed.
//
// Every case also checks what must hold for every reply: the user's comment and docstring are
// byte-identical in the file after the edits, and the edits apply cleanly.
#include <catch2/catch.hpp>

#include "ReplyCorpus.h"
#include "core/refine/Imports.h"
#include "core/refine/ReplyCode.h"
#include "core/refine/Splice.h"
#include "core/refine/Target.h"
#include "core/refine/UserSpec.h"
#include "core/testing/Discovery.h"

using namespace greenlight::core::refine;
using namespace greenlight::test::replies;
using greenlight::core::testing::Language;

TEST_CASE("reply corpus: every shape yields the right candidate, the user's spec kept", "[refine][replies]") {
  const auto files = corpusFiles();
  REQUIRE(files.size() >= 60);
  std::map<Language, int> perLanguage;
  for (const auto& path : files) {
    ReplyCase c = parseCase(path);
    {
      INFO("case " << c.id());
      for (const auto& [name, text] : c.tests) CHECK((!name.empty() && name != c.fileName && text.size() > 1));
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
