// How long taking the code out of a huge reply takes (ReplyCode::codeFromReply, then the
// normalisation and the import merge the refine loop does next), for 5 MB replies of the shapes
// that cost most: one huge fenced block (Python, JavaScript, C++), many blocks, unfenced code
// among prose, prose alone.
// Prints the median and the max of RUNS (default 15) per shape; goal: median <= 50 ms each.
//
//   bench_reply_extract [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "core/refine/Imports.h"
#include "core/refine/ReplyCode.h"
#include "core/refine/Splice.h"
#include "core/refine/Target.h"

namespace r = greenlight::core::refine;
using greenlight::core::testing::Language;

namespace {

constexpr std::size_t kSize = 5u << 20;

const char* kFile =
    "from typing import List\n\n\ndef has_close_elements(numbers: List[float], threshold: float) -> bool:\n"
    "    \"\"\" Check if two numbers are closer than threshold.\n    >>> has_close_elements([1.0, 2.0], 0.5)\n"
    "    False\n    \"\"\"\n";
const char* kTarget =
    "def has_close_elements(numbers: List[float], threshold: float) -> bool:\n    s = sorted(numbers)\n"
    "    return any(b - a < threshold for a, b in zip(s, s[1:]))\n";

std::string helpers(std::size_t bytes) {
  std::string out;
  for (int i = 0; out.size() < bytes; ++i)
    out += "def helper_" + std::to_string(i) + "(x):\n    \"\"\"A helper's docstring, it's long.\"\"\"\n    return x + " +
           std::to_string(i) + "\n\n\n";
  return out;
}

std::string prose(std::size_t bytes) {
  std::string out;
  for (int i = 0; out.size() < bytes; ++i)
    out += "It's worth noting (line " + std::to_string(i) + ") that the approach sorts first; then it compares neighbours.\n";
  return out;
}

std::string jsHelpers(std::size_t bytes) {
  std::string out;
  for (int i = 0; out.size() < bytes; ++i)
    out += "// A helper, it's long.\nfunction helper" + std::to_string(i) + "(x) {\n  return x + `${" + std::to_string(i) +
           "}`;\n}\n\n";
  return out;
}

std::string cxxHelpers(std::size_t bytes) {
  std::string out;
  for (int i = 0; out.size() < bytes; ++i)
    out += "// A helper, it's long.\nstatic int helper" + std::to_string(i) + "(int x) {\n  return x + " + std::to_string(i) +
           "; /* it's */\n}\n\n";
  return out;
}

struct Shape {
  const char* name;
  std::string reply;
  Language language = Language::Python;
};

std::vector<Shape> shapes() {
  std::vector<Shape> out;
  out.push_back({"one 5 MB fenced block", "Here it is:\n\n```python\nimport math\n" + helpers(kSize) + kTarget + "```\n"});
  std::string many = "Several blocks:\n\n";
  while (many.size() < kSize) many += "```python\n" + helpers(4096) + "```\n\nAnd another:\n\n";
  many += std::string("```python\n") + kTarget + "```\n";
  out.push_back({"~1,300 fenced blocks", many});
  out.push_back({"unfenced code among prose", prose(kSize / 2) + "\n" + helpers(kSize / 2) + kTarget + "\nExplanation:\n" + prose(4096)});
  out.push_back({"prose only", prose(kSize)});
  out.push_back({"JavaScript: one fenced block",
                 "```js\nconst fs = require('fs');\n" + jsHelpers(kSize) + "function twice(x) {\n  return 2 * x;\n}\n```\n",
                 Language::JavaScript});
  out.push_back({"C++: one fenced block",
                 "```cpp\n#include <vector>\n" + cxxHelpers(kSize) + "int twice(int x) {\n  return 2 * x;\n}\n```\n",
                 Language::Cxx});
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  const std::map<Language, std::pair<std::string, int>> files = {
      {Language::Python, {kFile, 4}},
      {Language::JavaScript, {"function twice(x) {}\n\nmodule.exports = { twice };\n", 1}},
      {Language::Cxx, {"#include <vector>\n\nint twice(int x) {}\n", 3}}};
  std::printf("%-28s %10s %10s %10s  %s\n", "reply (5 MB)", "median ms", "max ms", "code B", "goal: median <= 50 ms");
  for (const auto& shape : shapes()) {
    const auto& [file, line] = files.at(shape.language);
    auto lookup = r::findTarget(file, line, shape.language);
    if (!lookup.target) {
      std::fprintf(stderr, "no target: %s\n", lookup.error.c_str());
      return 1;
    }
    std::vector<double> ms;
    std::size_t codeBytes = 0;
    bool found = true;
    for (int i = 0; i < runs; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto taken = r::codeFromReply(shape.reply, *lookup.target, file);
      std::string code = taken.code.empty() ? "" : r::normalizeCandidate(taken.code, *lookup.target);
      auto added = r::missingImports(taken.imports, file, shape.language);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      codeBytes = code.size();
      for (const auto& a : added) codeBytes += a.size() + 1;
      found = shape.language == Language::Python ? code.find("has_close_elements") != std::string::npos || taken.code.empty()
                                                 : code.find("twice") != std::string::npos;
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-28s %10.2f %10.2f %10zu  %s%s\n", shape.name, ms[ms.size() / 2], ms.back(), codeBytes,
                ms[ms.size() / 2] <= 50.0 ? "ok" : "OVER", found ? "" : " (the target's code was NOT found)");
  }
  return 0;
}
