// greenlight's <assert.h> (harness/cxx_assert.h.inc + the support unit), compiled on the host
// exactly as the runner stages it, with g++ and clang++ (whichever are installed) in C++17 and
// C++20 under -Wall -Wextra -Wpedantic -Werror: every operator, printable and unprintable
// operands, side effects evaluated once, && / || / ?: / commas / lambdas / bit-fields / NULL
// still compiling and behaving, NDEBUG still a no-op.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "TestUtil.h"
#include "core/testing/OutputParsing.h"
#include "core/testing/harness/Harnesses.h"

using namespace greenlight::core::testing;
using greenlight::test::runShell;
using greenlight::test::TempWorkspace;
namespace fs = std::filesystem;

namespace {

// Case N (argv[1]) runs the Nth failing assert; before the switch, asserts of every shape pass.
const char kProgram[] = R"CPP(#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>
#include <iostream>

struct Point { int x, y; bool operator==(const Point& o) const { return x == o.x && y == o.y; } };
std::ostream& operator<<(std::ostream& os, const Point& p) { return os << "(" << p.x << ", " << p.y << ")"; }
struct Opaque { int v; };
bool operator==(const Opaque& a, const Opaque& b) { return a.v == b.v; }
struct Loose { int v; bool operator==(const Loose& o) { return v == o.v; } };  // non-const ==
struct Bits { unsigned a : 3; unsigned b : 5; };
enum class Shade : short { Light = 1, Dark = 2 };
int calls = 0;
int count() { return ++calls; }
Point point(int x) { return {x, x}; }
int twice(int x) { return 2 * x; }
std::vector<int> sevens(int n) { return std::vector<int>(n, 7); }
std::string str(const char* s) { return s; }
bool yes() { return true; }
int* none() { return nullptr; }
constexpr int positive(int x) { assert(x > 0); return x; }
// Names the decomposer uses inside its namespace: argument-dependent lookup must not pick these.
void render(const Point&) { std::abort(); }
template <class T> void report(T&) { std::abort(); }
template <class T> bool same(T a, T b) { assert(a == b); return true; }
struct Counter {
  int n = 2;
  bool ok() const { assert(n == 2); assert(this->n > 1); return true; }
};
static_assert(positive(3) == 3, "assert in a constant expression");

int main(int argc, char** argv) {
  const int which = argc > 1 ? std::atoi(argv[1]) : 0;
  int x = 3;
  Bits bits{5, 9};
  std::vector<int> v{1, 2, 3};
  std::map<std::string, int> m{{"a", 1}};
  std::optional<int> empty;
  int* p = &x;
  assert(x == 3);
  assert(x != 4 && x > 0);
  assert(x > 0 || count());
  assert(p != NULL);
  assert(NULL != p);
  assert(none() == 0);
  assert(bits.a == 5);
  assert(std::is_same<int, int>::value);
  assert([](int a, int b) { return a < b; }(1, 2));
  assert(std::all_of(v.begin(), v.end(), [](int e) { int q = 1, r = 2; return e > 0 && q < r; }));
  assert(point(2) == point(2));
#if !(defined(__clang__) && __cplusplus >= 202002L)  // clang warns on the user's own C++20-ambiguous ==
  assert(Loose{1} == Loose{1});
#endif
  assert(v.size() == 3);
  assert(std::max<int>(1, 2) == 2);
  assert(x ? true : false);
  assert(!v.empty());
  assert(x & 1);
  assert(m.at("a") == 1);
  assert(str("a") == "a");
  assert(Shade::Light < Shade::Dark);
  const int before = calls;
  assert(count() == before + 1);
  assert(calls == before + 1);
  assert(same(std::string("a"), std::string("a")) && same(1, 1));
  assert(Counter{}.ok());
  switch (which) {
    case 1: assert(twice(2) == 5); break;
    case 2: assert(count() != calls); break;
    case 3: assert(x < 2); break;
    case 4: assert(str("abc") <= "abb"); break;
    case 5: assert(sevens(2) > std::vector<int>{8}); break;
    case 6: assert(point(1) == point(2) || false); break;
    case 7: assert(Opaque{1} == Opaque{2}); break;
    case 8: assert(empty == 3); break;
    case 9: assert(std::make_pair(1, std::string("x")) == std::make_pair(2, std::string("y"))); break;
    case 10: assert(m == (std::map<std::string, int>{{"c", 3}})); break;
    case 11: assert(!yes()); break;
    case 12: assert(0.1 + 0.2 == 0.3); break;
    case 13: assert(bits.b >= 10); break;
    case 14: assert('a' == 'b'); break;
    case 15: assert(p == nullptr); break;
    case 16: assert(yes() == false); break;
    case 17: assert(std::string(400, 'z') == "z"); break;
    case 18: assert(Shade::Dark == Shade::Light); break;
    case 19: assert(str("\xff\n\"") == "\xc3\xa9"); break;
    case 20: assert(std::make_tuple(1, 2.5f, 'c') == std::make_tuple(1, 2.5f, 'd')); break;
    case 21: assert(std::optional<std::string>("hi") == std::nullopt); break;
    case 22: assert(sevens(0).size()); break;
    case 23: assert(none()); break;
    case 24: assert(point(1) == point(2)); break;
    case 25: assert((twice(3) == 7)); break;
    case 26: assert(7770000.0f == 1e16); break;
    case 27: assert(((0.25 > 2.5e-05 + 1))); break;
    case 28: same(point(3), point(4)); break;
  }
  std::printf("calls=%d\n", calls);
  return 0;
}
)CPP";

struct Expect {
  std::string op, actual, expected;  // op empty: a value; actual empty: no event (system assert)
};

const std::map<int, Expect> kExpected = {
    {1, {"==", "4", "5"}},
    {2, {"!=", "2", "2"}},  // count() ran once: 2, and calls read after it
    {3, {"<", "3", "2"}},
    {4, {"<=", "\"abc\"", "\"abb\""}},
    {5, {">", "{7, 7}", "{8}"}},
    {6, {"", "", ""}},  // || : the system's assert
    {7, {"", "", ""}},  // unprintable
    {8, {"==", "std::nullopt", "3"}},
    {9, {"==", "{1, \"x\"}", "{2, \"y\"}"}},
    {10, {"==", "{{\"a\", 1}}", "{{\"c\", 3}}"}},
    {11, {"", "", ""}},  // negation: the system's assert
    {12, {"==", "0.30000000000000004", "0.3"}},
    {13, {">=", "9", "10"}},
    {14, {"==", "'a'", "'b'"}},
    {15, {"==", "0x", "nullptr"}},  // an address: prefix only
    {16, {"==", "true", "false"}},
    {18, {"==", "2", "1"}},
    {19, {"==", "\"\\xff\\n\\\"\"", "\"\xc3\xa9\""}},
    {20, {"==", "{1, 2.5, 'c'}", "{1, 2.5, 'd'}"}},
    {21, {"==", "\"hi\"", "std::nullopt"}},
    {22, {"", "0", ""}},
    {23, {"", "nullptr", ""}},
    {24, {"==", "(1, 1)", "(2, 2)"}},
    {25, {"==", "6", "7"}},  // parentheses around the whole expression do not hide it
    {26, {"==", "7770000.0", "1e+16"}},  // floating values read as Python's repr
    {27, {">", "0.25", "1.000025"}},
    {28, {"==", "(3, 3)", "(4, 4)"}},  // in a function template; the user's render() untouched
};

std::vector<std::string> compilers() {
  std::vector<std::string> out;
  for (const char* c : {"g++", "clang++"}) {
    if (runShell(std::string("command -v ") + c + " >/dev/null").exitCode == 0) out.push_back(c);
  }
  return out;
}

void writeFile(const std::string& path, std::string_view text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("c++ assert decomposer: every operator and operand kind, with g++ and clang++, C++17 and C++20") {
  TempWorkspace ws;
  writeFile(ws.path("include/assert.h"), harness::cxxAssertHeader());
  writeFile(ws.path("gl_support.cpp"), harness::cxxSupport());
  writeFile(ws.path("t.cpp"), kProgram);
  const auto ccs = compilers();
  REQUIRE(!ccs.empty());
  for (const auto& cc : ccs) {
    for (const char* std : {"c++17", "c++20"}) {
      const std::string bin = ws.path(cc + "-" + std + ".out");
      const std::string cmd = "cd '" + ws.root() + "' && " + cc + " -std=" + std +
                              " -Wall -Wextra -Wpedantic -Werror -g -O0 -I include t.cpp gl_support.cpp -o '" + bin + "'";
      auto built = runShell(cmd);
      INFO(cc << " " << std << ": " << built.out << built.err);
      REQUIRE(built.exitCode == 0);
      auto passing = runShell("'" + bin + "'");
      CHECK(passing.exitCode == 0);
      // `x > 0 || count()` short-circuited; `count() == before + 1` ran count() exactly once.
      CHECK(passing.out == "calls=1\n");
      for (int n = 1; n <= 28; ++n) {
        auto it = kExpected.find(n);
        if (it == kExpected.end()) continue;
        auto ran = runShell("'" + bin + "' " + std::to_string(n));
        auto events = extractEvents(ran.err);
        INFO("case " << n << " stderr: " << ran.err);
        CHECK(ran.exitCode != 0);
        CHECK(parseAssertFailure(ran.err));  // the system's message is still printed
        const Expect& e = it->second;
        if (e.actual.empty()) {
          CHECK(events.events.empty());
          continue;
        }
        REQUIRE(events.events.size() == 1);
        const auto& ev = events.events[0];
        CHECK(ev.value("ev", "") == "assert");
        CHECK(ev.value("op", "") == e.op);
        if (n == 15) {
          CHECK(ev.value("actual", "").rfind("0x", 0) == 0);
        } else {
          CHECK(ev.value("actual", "") == e.actual);
        }
        CHECK(ev.value("expected", "") == e.expected);
        CHECK(ev.value("line", 0) > 0);
      }
      // A long value is cut at 300 characters.
      auto longRun = runShell("'" + bin + "' 17");
      auto longEvents = extractEvents(longRun.err);
      REQUIRE(longEvents.events.size() == 1);
      const std::string actual = longEvents.events[0].value("actual", "");
      CHECK(actual.size() == 303);
      CHECK(actual.substr(actual.size() - 3) == "...");
    }
  }
}

TEST_CASE("c++ assert decomposer: NDEBUG and C++14 keep the system's assert") {
  TempWorkspace ws;
  writeFile(ws.path("include/assert.h"), harness::cxxAssertHeader());
  writeFile(ws.path("gl_support.cpp"), harness::cxxSupport());
  writeFile(ws.path("n.cpp"),
            "#include <assert.h>\n#include <cstdio>\nint calls = 0;\nint count() { return ++calls; }\n"
            "int main() { assert(count() == 100); std::printf(\"calls=%d\\n\", calls); }\n");
  for (const auto& cc : compilers()) {
    auto nd = runShell("cd '" + ws.root() + "' && " + cc + " -std=c++20 -DNDEBUG -Wall -Wextra -Werror -I include n.cpp gl_support.cpp -o nd && ./nd");
    INFO(cc << ": " << nd.err);
    CHECK(nd.exitCode == 0);
    CHECK(nd.out == "calls=0\n");
    auto old = runShell("cd '" + ws.root() + "' && " + cc + " -std=c++14 -Wall -Wextra -Werror -I include n.cpp gl_support.cpp -o old && ./old");
    CHECK(old.exitCode != 0);
    CHECK(parseAssertFailure(old.err));
    CHECK(extractEvents(old.err).events.empty());
  }
}
