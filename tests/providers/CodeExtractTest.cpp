// Code extraction on reply shapes models really produce.
#include <catch2/catch.hpp>

#include "core/providers/CodeExtract.h"

using namespace greenlight::core::providers;

TEST_CASE("one fenced block with prose around it", "[providers][extract]") {
  auto r = extractCode(
      "Here's an implementation of `fib` using iteration:\n\n```python\ndef fib(n):\n    a, b = 0, 1\n"
      "    for _ in range(n):\n        a, b = b, a + b\n    return a\n```\n\nThis runs in O(n) time.",
      "python");
  CHECK(r.fenced);
  CHECK(r.language == "python");
  CHECK(r.code == "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n");
}

TEST_CASE("picks the requested language among several", "[providers][extract]") {
  std::string reply =
      "First install the deps:\n\n```bash\npip install numpy\n```\n\nThen:\n\n```py\nimport numpy as np\n\n"
      "def mean(xs):\n    return float(np.mean(xs))\n```\n\nIn JavaScript it would be:\n\n```js\n"
      "function mean(xs) { return xs.reduce((a, b) => a + b, 0) / xs.length; }\n```\n";
  auto py = extractCode(reply, "python");
  CHECK(py.code == "import numpy as np\n\ndef mean(xs):\n    return float(np.mean(xs))\n");
  auto js = extractCode(reply, "javascript");
  CHECK(js.code == "function mean(xs) { return xs.reduce((a, b) => a + b, 0) / xs.length; }\n");
  CHECK(js.language == "javascript");
}

TEST_CASE("split blocks are joined - a usage example after the code is dropped", "[providers][extract]") {
  std::string reply =
      "You'll need a helper:\n\n```python\ndef _is_digit(c):\n    return c.isdigit()\n```\n\nAnd the main "
      "function:\n\n```python\ndef count_digits(s):\n    return sum(1 for c in s if _is_digit(c))\n```\n\n"
      "Example usage:\n\n```python\nprint(count_digits(\"a1b2\"))  # 2\n```\n";
  auto r = extractCode(reply, "python");
  CHECK(r.blocksUsed == 2);
  CHECK(r.code ==
        "def _is_digit(c):\n    return c.isdigit()\n\ndef count_digits(s):\n    return sum(1 for c in s if _is_digit(c))\n");
}

TEST_CASE("a corrected version replaces the first one", "[providers][extract]") {
  std::string reply =
      "```javascript\nfunction clamp(x, lo, hi) {\n  return Math.max(lo, x);\n}\n```\n\nWait, that misses the "
      "upper bound. Corrected:\n\n```javascript\nfunction clamp(x, lo, hi) {\n  return Math.min(hi, Math.max(lo, x));\n}\n"
      "module.exports = { clamp };\n```\n";
  auto r = extractCode(reply, "js");
  CHECK(r.code == "function clamp(x, lo, hi) {\n  return Math.min(hi, Math.max(lo, x));\n}\nmodule.exports = { clamp };\n");
}

TEST_CASE("C++: includes block kept a main() example dropped duplicates dropped", "[providers][extract]") {
  std::string reply =
      "```cpp\n#include <vector>\n#include <numeric>\n```\n\n```c++\nint sum(const std::vector<int>& v) {\n"
      "  return std::accumulate(v.begin(), v.end(), 0);\n}\n```\n\nTest it:\n\n```cpp\nint main() {\n"
      "  return sum({1, 2}) == 3 ? 0 : 1;\n}\n```\n\n```cpp\n#include <vector>\n#include <numeric>\n```\n";
  auto r = extractCode(reply, "cpp");
  CHECK(r.code ==
        "#include <vector>\n#include <numeric>\n\nint sum(const std::vector<int>& v) {\n"
        "  return std::accumulate(v.begin(), v.end(), 0);\n}\n");
}

TEST_CASE("untagged fences count when nothing is tagged with the language", "[providers][extract]") {
  auto r = extractCode("Sure!\n```\ndef f():\n    return 1\n```\n", "python");
  CHECK(r.code == "def f():\n    return 1\n");
  auto s = extractCode("```\n$ pip install x\n```\n\n```\ndef g():\n    pass\n```", "python");
  CHECK(s.code == "def g():\n    pass\n");
}

TEST_CASE("an unfenced reply is taken whole when it is all code", "[providers][extract]") {
  auto r = extractCode("def square(x):\n    return x * x\n", "python");
  CHECK_FALSE(r.fenced);
  CHECK(r.code == "def square(x):\n    return x * x\n");
}

TEST_CASE("unfenced code with prose before and after", "[providers][extract]") {
  auto r = extractCode(
      "Here is the function you asked for:\n\ndef is_even(n):\n    # parity check\n    return n % 2 == 0\n\n"
      "This returns True for even numbers and False otherwise.",
      "python");
  CHECK(r.code == "def is_even(n):\n    # parity check\n    return n % 2 == 0\n");
  auto js = extractCode("The implementation is below.\nfunction twice(f) {\n  return (x) => f(f(x));\n}\nHope this helps!", "javascript");
  CHECK(js.code == "function twice(f) {\n  return (x) => f(f(x));\n}\n");
}

TEST_CASE("reasoning sections are dropped", "[providers][extract]") {
  std::string reply =
      "<think>\nThe user wants reverse. Maybe ```python\ndef wrong(): pass\n``` no.\n</think>\n\n"
      "```python\ndef rev(s):\n    return s[::-1]\n```";
  CHECK(extractCode(reply, "python").code == "def rev(s):\n    return s[::-1]\n");
  // The chat template opened the section: only the closing tag appears.
  CHECK(extractCode("Okay, let me think about it...\n</think>\ndef one():\n    return 1\n", "python").code ==
        "def one():\n    return 1\n");
  // Reasoning that never finished: no answer.
  CHECK(extractCode("<think>\nhmm, ```python\nx = 1\n```", "python").code.empty());
  CHECK(stripReasoning("a<thinking>b</thinking>c<reasoning>d</reasoning>e") == "ace");
}

TEST_CASE("an unclosed fence (reply cut at max tokens) takes the rest - indented fences", "[providers][extract]") {
  CHECK(extractCode("```python\ndef f():\n    return 2\n", "python").code == "def f():\n    return 2\n");
  auto r = extractCode("1. Define it:\n\n   ```python\n   def g(x):\n       return x\n   ```\n", "python");
  CHECK(r.code == "def g(x):\n    return x\n");
  CHECK(extractCode("~~~~ python\ncode = 1\n~~~~\n", "python").code == "code = 1\n");
  CHECK(extractCode("````python\nprint('```')\n````", "python").code == "print('```')\n");
}

TEST_CASE("no code at all - CRLF replies - language aliases", "[providers][extract]") {
  CHECK(extractCode("", "python").code.empty());
  CHECK(extractCode("```python\r\ndef h():\r\n    pass\r\n```\r\n", "python").code == "def h():\n    pass\n");
  CHECK(normalizeLanguage("Python3") == "python");
  CHECK(normalizeLanguage("{.cpp}") == "cpp");
  CHECK(normalizeLanguage("node") == "javascript");
  CHECK(normalizeLanguage("C++") == "cpp");
}
