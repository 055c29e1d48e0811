// Turning corpus records (HumanEval, HumanEval-X, MBPP) into a source file plus a nearby test
// file, and deriving broken variants whose failure line is known in advance.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace greenlight::corpus {

enum class Lang { Python, JavaScript, Cxx };
enum class Variant { Reference, Raise, WrongReturn, SyntaxError, InfiniteLoop };
const char* variantName(Variant v);

struct Problem {
  std::string id;          // "HumanEval/0", "CPP/12", "MBPP/2"
  Lang lang = Lang::Python;
  std::string sourceName;  // "prob.py"
  std::string testName;    // "test_prob.py"
  std::string source;      // the reference program under test
  std::string test;        // the nearby test file
  std::string entry;       // the function the tests call
  int bodyLine = 0;        // 1-based line of the first body line of `entry` in `source`
  std::string indent;      // that line's indentation
  bool wrongReturnSupported = true;
};

// The file to run and the line the failure must land on (0: any line of the right file).
struct Case {
  Problem problem;
  Variant variant = Variant::Reference;
  std::string source;  // possibly broken
  int expectedLine = 0;
};

std::vector<nlohmann::json> readJsonLinesGz(const std::string& path);  // gzip -dc
nlohmann::json readJsonFile(const std::string& path);

Problem fromHumanEval(const nlohmann::json& record);        // openai HumanEval and HumanEval-X python
Problem fromHumanEvalXPython(const nlohmann::json& record);
Problem fromHumanEvalXCpp(const nlohmann::json& record);
Problem fromHumanEvalXJs(const nlohmann::json& record);
Problem fromMbpp(const nlohmann::json& record);

Case makeCase(const Problem& p, Variant v);

// What a JavaScript or C++ wrong-return mutant returns instead of the reference value: numbers
// 7775000 + N (N < 1000), strings (and arrays/objects in JavaScript) carrying "gl-wrong-N",
// booleans flipped; N is computed at run time. A failure that shows the value matches this.
inline constexpr char kWrongValuePattern[] = R"((gl-wrong-\d+|777\d{4}))";

// Does some assert line of the test call the entry itself? (Else the test asserts on something
// computed from its value in an earlier statement: `x = f(c); assert(g(c, x) < eps)`.)
bool entryInAssert(const Problem& p);

}  // namespace greenlight::corpus
