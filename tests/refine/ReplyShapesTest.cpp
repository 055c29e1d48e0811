// `greenlight generate` end to end on the reply shapes real models write (the reply corpus checks
// the extraction itself; these check that each shape passes the loop, in the real sandbox, and
// that the user's words are byte-identical after --apply). The scripted model answers "right"
// only when the prompt carries the evidence of the failure, in the SAME shape as its first reply.
#include <catch2/catch.hpp>

#include "GenerateFixture.h"

using namespace greenlight::test::refine;
using nlohmann::json;

namespace {

json wrongThenRight(const std::string& wrong, const std::string& right, json evidence) {
  return {{"rules", json::array({{{"match", "greenlight"}, {"wrong", wrong}, {"right", right}, {"evidence", evidence}}})}};
}

json always(const std::string& reply) { return {{"rules", json::array()}, {"default", {{"text", reply}}}}; }

std::string describe(const GenerateRun& r) {
  return "exit " + std::to_string(r.exitCode) + (r.timedOut ? " (killed at the bound)" : "") + "\nstdout:\n" + r.out +
         "\nstderr:\n" + r.err;
}

// A HumanEval problem as a user has it: the prompt (imports, signature, docstring with its
// examples) is the file; the docstring's examples are the only tests.
const char* kCloseFile =
    "from typing import List\n\n\ndef has_close_elements(numbers: List[float], threshold: float) -> bool:\n"
    "    \"\"\" Check if in given list of numbers, are any two numbers closer to each other than\n"
    "    given threshold.\n"
    "    >>> has_close_elements([1.0, 2.0, 3.0], 0.5)\n    False\n"
    "    >>> has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)\n    True\n    \"\"\"\n";
const char* kCloseDoc =
    "    \"\"\" Check if in given list of numbers, are any two numbers closer to each other than\n"
    "    given threshold.\n"
    "    >>> has_close_elements([1.0, 2.0, 3.0], 0.5)\n    False\n"
    "    >>> has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)\n    True\n    \"\"\"\n";

// The reply restates the prompt without a fence: imports, def, docstring (with >>> lines), body.
std::string bareReply(const std::string& body) {
  return std::string("from typing import List\n\n\ndef has_close_elements(numbers: List[float], threshold: float) -> bool:\n") +
         kCloseDoc + body;
}

}  // namespace

TEST_CASE("reply shapes: bare code restating the prompt passes, the docstring byte for byte", "[refine][e2e][replies]") {
  Workspace ws;
  ws.write("close.py", kCloseFile);
  // Wrong: `<=` vs `<` is not it; wrong = never finds a pair. Right only once the doctest's
  // failure (Expected True, Got False) is in the prompt.
  const std::string wrong = bareReply("    return False\n");
  const std::string right = bareReply(
      "    for i, a in enumerate(numbers):\n        for b in numbers[i + 1:]:\n            if abs(a - b) < threshold:\n"
      "                return True\n    return False\n");
  ScriptedModel model(wrongThenRight(wrong, right, {"returned False, expected True"}));
  auto r = generate(ws, &model, {"close.py:4", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["status"] == "passed");
  CHECK(r.json["rounds"].size() == 2);
  const std::string after = ws.read("close.py");
  CHECK(after.find(kCloseDoc) != std::string::npos);
  CHECK(after.rfind("from typing import List\n\n\ndef has_close_elements", 0) == 0);
  // One import, one definition: nothing restated twice.
  CHECK(after.find("from typing import List", 1) == std::string::npos);
  CHECK(after.find("def has_close_elements", after.find("def has_close_elements") + 1) == std::string::npos);
  // The round-1 feedback told the model how its reply was read.
  CHECK_THAT(model.lastUser(1), Catch::Contains("no fenced code block"));
}

TEST_CASE("reply shapes: the model's own wrong example is never run, the user's docstring is", "[refine][e2e][replies]") {
  Workspace ws;
  ws.write("close.py", kCloseFile);
  // Right code, but a docstring with an invented, false example and a misspelt call.
  const std::string reply =
      "```python\ndef has_close_elements(numbers: List[float], threshold: float) -> bool:\n"
      "    \"\"\"Closeness check.\n\n    >>> has_close_elements([1.0, 2.0], 5.0)\n    False\n"
      "    >>> has_close_elementz([1.0], 0.3)\n    False\n    \"\"\"\n"
      "    s = sorted(numbers)\n    return any(b - a < threshold for a, b in zip(s, s[1:]))\n```\n";
  ScriptedModel model(always(reply));
  auto r = generate(ws, &model, {"close.py:4", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["rounds"].size() == 1);
  // The user's examples (one doctest of two examples), nothing of the model's.
  CHECK(r.json["summary"]["passed"] == 1);
  CHECK(r.json["summary"]["failed"] == 0);
  const std::string after = ws.read("close.py");
  CHECK(after.find(kCloseDoc) != std::string::npos);
  CHECK(after.find("Closeness check") == std::string::npos);
  CHECK(after.find("elementz") == std::string::npos);
}

TEST_CASE("reply shapes: blocks for other problems are dropped, only the target's block runs", "[refine][e2e][replies]") {
  Workspace ws;
  const std::string file =
      "def flip_case(string: str) -> str:\n    \"\"\" For a given string, flip lowercase characters to uppercase and "
      "uppercase to lowercase.\n    >>> flip_case('Hello')\n    'hELLO'\n    \"\"\"\n";
  ws.write("flip.py", file);
  const std::string reply =
      "## Example Problems\n\n```python\nfrom typing import List\n\ndef toggle_string(words: List[str]) -> List[str]:\n"
      "    return [w.swapcase() for w in words]\n\nprint(toggle_string(['a']))\n```\n\n"
      "## Python3 code to solve the original problem:\n```python\ndef flip_case(string: str) -> str:\n"
      "    return ''.join(c.lower() if c.isupper() else c.upper() for c in string)\n```\n";
  ScriptedModel model(always(reply));
  auto r = generate(ws, &model, {"flip.py:1", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["rounds"].size() == 1);
  const std::string after = ws.read("flip.py");
  CHECK(after.find("toggle_string") == std::string::npos);
  CHECK(after.find("List") == std::string::npos);
  CHECK(after.find("print(") == std::string::npos);
  CHECK(after.rfind("def flip_case(string: str) -> str:\n    \"\"\" For a given string", 0) == 0);
}

TEST_CASE("reply shapes: a new import lands in the file's import block, once", "[refine][e2e][replies]") {
  Workspace ws;
  ws.write("geo.py", "import os\n\n\ndef hypot(a, b):\n    pass\n");
  ws.write("test_geo.py", "from geo import hypot\n\n\ndef test_345():\n    assert hypot(3, 4) == 5.0\n");
  const std::string reply =
      "You need math:\n\n```python\nimport math\nimport os\n\ndef hypot(a, b):\n    return math.sqrt(a * a + b * b)\n"
      "\nassert hypot(3, 4) == 5\n```\n";
  ScriptedModel model(always(reply));
  auto r = generate(ws, &model, {"geo.py:4", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(r.json["imports"] == json::array({"import math"}));  // `import os`: restated, and unused by hypot
  CHECK(r.json["edits"].size() == 2);
  CHECK(ws.read("geo.py") == "import os\nimport math\n\n\ndef hypot(a, b):\n    return math.sqrt(a * a + b * b)\n");
}

TEST_CASE("reply shapes: a whole-file reply changes only the target", "[refine][e2e][replies]") {
  Workspace ws;
  const std::string other = "def area(r):\n    return 3 * r * r  # the user's own approximation\n";
  ws.write("circle.py", other + "\n\ndef perimeter(r):\n    pass\n");
  ws.write("test_circle.py", "from circle import area, perimeter\n\n\ndef test_p():\n    assert perimeter(1) == 6\n\n\n"
                             "def test_a():\n    assert area(1) == 3\n");
  const std::string reply =
      "Here is the full file:\n\n```python\nimport math\n\n\ndef area(r):\n    return math.pi * r * r\n\n\n"
      "def perimeter(r):\n    return 6 * r\n```\n";
  ScriptedModel model(always(reply));
  auto r = generate(ws, &model, {"circle.py:5", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(ws.read("circle.py") == other + "\n\ndef perimeter(r):\n    return 6 * r\n");
}

TEST_CASE("reply shapes: no block defines the target: the next prompt says so", "[refine][e2e][replies]") {
  Workspace ws;
  ws.write("stats.py", "def median(xs):\n    pass\n");
  ws.write("test_stats.py", "from stats import median\n\n\ndef test_odd():\n    assert median([3, 1, 2]) == 2\n");
  json script = {{"rules", json::array({{{"match", "greenlight"},
                                         {"replies", json::array({"```python\ndef mean(xs):\n    return sum(xs) / len(xs)\n```\n"
                                                                  "```python\ndef mode(xs):\n    return max(xs, key=xs.count)\n```\n",
                                                                  "```python\ndef median(xs):\n    s = sorted(xs)\n    return s[len(s) // 2]\n```\n"})}}})}};
  ScriptedModel model(script);
  auto r = generate(ws, &model, {"stats.py:1", "--json"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  REQUIRE(r.json["rounds"].size() == 2);
  CHECK(r.json["rounds"][0]["candidates"][0]["status"] == "rejected");
  CHECK_THAT(model.lastUser(1), Catch::Contains("none of the 2 code blocks in your reply defines median"));
}

TEST_CASE("reply shapes: JavaScript with demo code, a restated require and an export the file has", "[refine][e2e][replies]") {
  Workspace ws;
  const std::string file =
      "'use strict';\nconst path = require('path');\n\nfunction stem(p) {}\n\nmodule.exports = { stem };\n";
  ws.write("stem.js", file);
  ws.write("stem.test.js", "const test = require('node:test');\nconst assert = require('node:assert');\nconst { stem } = require('./stem');\n\n"
                           "test('stem', () => {\n  assert.strictEqual(stem('/a/b.txt'), 'b');\n});\n");
  const std::string reply =
      "```js\nconst path = require('path');\n\nfunction stem(p) {\n  return path.basename(p, path.extname(p));\n}\n\n"
      "console.log(stem('/x/y.md'));\nmodule.exports = { stem };\n```\n";
  ScriptedModel model(always(reply));
  auto r = generate(ws, &model, {"stem.js:4", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(ws.read("stem.js") ==
        "'use strict';\nconst path = require('path');\n\nfunction stem(p) {\n  return path.basename(p, path.extname(p));\n}\n\n"
        "module.exports = { stem };\n");
}

TEST_CASE("reply shapes: TypeScript answered untyped and unexported keeps the stub's signature and export", "[refine][e2e][replies]") {
  Workspace ws;
  ws.write("scale.ts",
           "export interface Point {\n  x: number;\n  y: number;\n}\n\n"
           "export function scale(p: Point, k: number = 2): Point {\n  throw new Error('not implemented');\n}\n");
  ws.write("scale.test.ts",
           "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { scale, type Point } from './scale.js';\n\n"
           "test('scale', () => {\n  const p: Point = { x: 1, y: 2 };\n  assert.deepEqual(scale(p, 3), { x: 3, y: 6 });\n"
           "  assert.deepEqual(scale(p), { x: 2, y: 4 });\n});\n");
  const std::string reply = "```ts\nfunction scale(p, k = 2) {\n  return { x: p.x * k, y: p.y * k };\n}\n```\n";
  ScriptedModel model(always(reply));
  auto r = generate(ws, &model, {"scale.ts:6", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(ws.read("scale.ts") ==
        "export interface Point {\n  x: number;\n  y: number;\n}\n\n"
        "export function scale(p: Point, k: number = 2): Point {\n  return { x: p.x * k, y: p.y * k };\n}\n");
}

TEST_CASE("reply shapes: C++ with restated includes, using namespace and a main() demo", "[refine][e2e][replies]") {
  Workspace ws;
  ws.write("vec.cpp", "#include <vector>\nusing namespace std;\n\nint total(const vector<int>& v) {}\n");
  ws.write("vec_test.cpp", "#include <cassert>\n#include <vector>\nint total(const std::vector<int>& v);\n"
                           "int main() {\n  assert(total({1, 2, 3}) == 6);\n  assert(total({}) == 0);\n}\n");
  const std::string reply =
      "```c++\n#include <vector>\n#include <numeric>\nusing namespace std;\n\nint total(const vector<int>& v) {\n"
      "  return accumulate(v.begin(), v.end(), 0);\n}\n\nint main() {\n  return total({1}) == 1 ? 0 : 1;\n}\n```\n";
  ScriptedModel model(always(reply));
  auto r = generate(ws, &model, {"vec.cpp:4", "--json", "--apply"});
  INFO(describe(r));
  REQUIRE(r.exitCode == 0);
  CHECK(ws.read("vec.cpp") ==
        "#include <vector>\n#include <numeric>\nusing namespace std;\n\nint total(const vector<int>& v) {\n"
        "  return accumulate(v.begin(), v.end(), 0);\n}\n");
}
