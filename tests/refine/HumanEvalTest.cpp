// HumanEval problems through `greenlight generate`: the prompt as a docstring stub, the
// problem's `check` as a test file. The scripted model first answers a candidate that returns a
// distinctive sentinel, and the canonical solution only when the feedback it is sent carries
// that sentinel: every problem must pass in exactly 2 rounds, which holds only if the feedback
// brings the wrong value back to the model whatever shape the problem's checks have.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "Corpus.h"
#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;

namespace {

// A fixed, spread-out sample: from every 18th problem, the first one (that one or a later one)
// whose docstring examples are well-formed doctests. Some HumanEval docstrings show
// `>>> f(x) == y` with no expected output (108, 162) or prose after `>>>` (51): greenlight runs
// docstring examples as tests, and no solution, the canonical one included, passes those.
const std::vector<int> kStarts = {0, 18, 36, 54, 72, 90, 108, 126, 144, 162};

std::string trimmed(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// The text's non-blank lines without trailing whitespace.
std::string squeezed(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\r')) l.pop_back();
    if (!l.empty()) out += l + "\n";
  }
  return out;
}

bool wellFormedDoctests(const std::string& prompt) {
  std::vector<std::string> lines;
  std::istringstream in(prompt);
  for (std::string l; std::getline(in, l);) lines.push_back(trimmed(l));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(">>>", 0) != 0) continue;
    const std::string next = i + 1 < lines.size() ? lines[i + 1] : "";
    if (next.empty() || next.rfind(">>>", 0) == 0 || next.rfind("\"\"\"", 0) == 0 || next.rfind("'''", 0) == 0) return false;
  }
  return true;
}

struct Stub {
  std::string file;        // the prompt: imports, helpers, the entry's signature and docstring
  int defLine = 0;         // 1-based line of `def entry(`
  std::string definition;  // from `def entry(` to the end of the prompt (signature + docstring)
};

Stub stubOf(const std::string& prompt, const std::string& entry) {
  Stub s;
  s.file = prompt;
  std::size_t at = prompt.find("def " + entry + "(");
  REQUIRE(at != std::string::npos);
  s.defLine = 1 + static_cast<int>(std::count(prompt.begin(), prompt.begin() + static_cast<long>(at), '\n'));
  s.definition = prompt.substr(at);
  while (!s.definition.empty() && s.definition.back() == '\n') s.definition.pop_back();
  return s;
}

}  // namespace

TEST_CASE("generate on HumanEval: wrong (a sentinel) first, the canonical solution on evidence: exactly 2 rounds each", "[refine][e2e][humaneval]") {
  const std::string corpus = std::string(GL_SHARED_DIR) + "/corpora/humaneval/HumanEval.jsonl.gz";
  if (!std::filesystem::exists(corpus)) {
    WARN("skipped: " << corpus << " not found");
    return;
  }
  auto records = greenlight::corpus::readJsonLinesGz(corpus);
  REQUIRE(records.size() == 164);
  std::vector<int> sample;
  for (int start : kStarts) {
    int index = start;
    while (index < 164 && !wellFormedDoctests(records.at(static_cast<std::size_t>(index))["prompt"].get<std::string>())) ++index;
    if (index < 164) sample.push_back(index);
  }
  REQUIRE(sample.size() == kStarts.size());
  int passedInTwo = 0;
  for (int index : sample) {
    const json& record = records.at(static_cast<std::size_t>(index));
    const auto problem = greenlight::corpus::fromHumanEval(record);
    const std::string entry = problem.entry;
    const Stub stub = stubOf(record["prompt"].get<std::string>(), entry);
    const std::string sentinel = "GL_SENTINEL_" + std::to_string(index * 7919 + 13);
    const std::string wrong = stub.definition + "\n    return '" + sentinel + "'\n";
    const std::string right = stub.definition + "\n" + record["canonical_solution"].get<std::string>();

    Workspace ws;
    ws.write("prob.py", stub.file);
    ws.write("test_prob.py", problem.test);
    ScriptedModel model(json{{"rules", json::array({{{"match", "greenlight"},
                                                 {"wrong", fenced("python", wrong)},
                                                 {"right", fenced("python", right)},
                                                 {"evidence", sentinel}}})}});
    auto r = generate(ws, &model, {"prob.py:" + std::to_string(stub.defLine), "--json", "--apply"});
    INFO(problem.id << " (" << entry << ", line " << stub.defLine << "): exit " << r.exitCode << "\n" << r.err << "\n"
                    << r.out.substr(0, 6000));
    CHECK(r.exitCode == 0);
    CHECK(r.json["status"] == "passed");
    CHECK(r.json["rounds"].size() == 2);
    CHECK(r.json["target"]["name"] == entry);
    CHECK(r.json["applied"] == true);
    CHECK_THAT(model.lastUser(1), Catch::Contains(sentinel));
    // What was written is the prompt's definition with the canonical body (code extraction
    // drops trailing blanks on lines and blank lines at the ends).
    CHECK_THAT(squeezed(ws.read("prob.py")), Catch::Contains(squeezed(record["canonical_solution"].get<std::string>())));
    if (r.exitCode == 0 && r.json["rounds"].size() == 2) ++passedInTwo;
  }
  CHECK(passedInTwo == static_cast<int>(sample.size()));
}
