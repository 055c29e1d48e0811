// PyResolve: Python's imports read statically, and the tests of a source file being the test
// files that load it (each import form, a test file named after another module of the same name).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "TestUtil.h"
#include "core/testing/Discovery.h"
#include "core/testing/PyResolve.h"
#include "core/testing/adapters/TestJob.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// module[:level] -> names, for compact checks of what was parsed.
std::vector<std::string> summary(const PyImports& im) {
  std::vector<std::string> out;
  for (const auto& i : im.imports) {
    std::string s = std::string(static_cast<std::size_t>(i.level), '.') + i.module;
    if (i.from) {
      s += " :";
      for (const auto& n : i.names) s += " " + n.name + (n.as.empty() ? "" : "=" + n.as);
    }
    out.push_back(s);
  }
  return out;
}

TestPlan discover(const std::string& path) {
  DiscoveryRequest r;
  r.path = path;
  std::string err;
  auto plan = discoverTests(r, &err);
  INFO(err);
  REQUIRE(plan);
  return *plan;
}

// The test files under the workspace that import `source`, as the pytest adapter asks.
std::vector<std::string> importers(const TempWorkspace& ws, const std::string& source) {
  const PyResolver resolver(pythonSearch(source, ws.root(), {}));
  return pythonTestsLoading(resolver, source, {ws.root()}, {"test_*.py", "*_test.py"});
}

}  // namespace

TEST_CASE("PyResolve: every import statement form is read, strings and comments are not") {
  const std::string text =
      "\"\"\"A docstring that says\nimport notthis\nfrom nope import x\n\"\"\"\n"
      "import os, a.b.c as abc  # import commented\n"
      "from . import m\n"
      "from ..pkg import m2 as mm, other\n"
      "from .m3 import (\n    f,\n    g as h,\n)\n"
      "from x.y import \\\n    z\n"
      "from q import *\n"
      "def t():\n    import inner.mod; from   .. import up\n"
      "s = 'import fake'\n"
      "# from commented import out\n";
  const auto im = parsePythonImports(text, "/p/tests/test_x.py", "/p");
  const std::vector<std::string> want = {"os", "a.b.c", ". : m", "..pkg : m2=mm other", ".m3 : f g=h", "x.y : z",
                                         "q : *", "inner.mod", ".. : up"};
  CHECK(summary(im) == want);
  CHECK_FALSE(im.dynamic);
}

TEST_CASE("PyResolve: importlib with a literal name is an import, a computed name is dynamic") {
  auto im = parsePythonImports("import importlib\nm = importlib.import_module('pkg.m')\nn = __import__(\"other\")\n"
                               "r = importlib.import_module('.sub', 'pkg.inner')\n",
                               "/p/t.py", "/p");
  CHECK(summary(im) == std::vector<std::string>{"importlib", "pkg.m", "other", "pkg.inner.sub"});
  CHECK_FALSE(im.dynamic);
  CHECK(parsePythonImports("import importlib\nmod = importlib.import_module(NAME)\n", "/p/t.py", "/p").dynamic);
  CHECK(parsePythonImports("import runpy\nrunpy.run_path(path)\n", "/p/t.py", "/p").dynamic);
  CHECK(parsePythonImports("exec(open('m.py').read())\n", "/p/t.py", "/p").dynamic);
  CHECK_FALSE(parsePythonImports("exec('x = 1')\n", "/p/t.py", "/p").dynamic);
}

TEST_CASE("PyResolve: sys.path edits are evaluated as Python would") {
  const std::string text =
      "import os, sys, pathlib\nfrom pathlib import Path\n"
      "sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))\n"
      "sys.path.insert(0, str(Path(__file__).resolve().parent.parent / \"src\"))\n"
      "sys.path.append(str(pathlib.Path(__file__).parents[2] / 'vendor'))\n"
      "HERE = os.path.dirname(os.path.abspath(__file__))\n"
      "sys.path.insert(1, os.path.join(HERE, 'helpers'))\n"
      "sys.path.append('relative/dir')\n"
      "sys.path.insert(0, compute())\n";
  const auto im = parsePythonImports(text, "/p/tests/conftest.py", "/p");
  CHECK(im.sysPath == std::vector<std::string>{"/p/lib", "/p/src", "/vendor", "/p/tests/helpers", "/p/relative/dir"});
}

TEST_CASE("PyResolve: the prepend base directory is the first ancestor without __init__.py") {
  TempWorkspace ws;
  ws.write("tests/__init__.py", "");
  ws.write("tests/unit/__init__.py", "");
  auto t = ws.write("tests/unit/test_a.py", "");
  auto u = ws.write("other/test_b.py", "");
  CHECK(pythonBaseDir(t) == ws.root());
  CHECK(pythonBaseDir(u) == ws.path("other"));
}

TEST_CASE("PyResolve: import a.b.c and from a.b import c (a submodule) find their test files") {
  TempWorkspace ws;
  ws.write("a/__init__.py", "");
  ws.write("a/b/__init__.py", "");
  auto c = ws.write("a/b/c.py", "def f():\n    return 1\n");
  ws.write("a/b/d.py", "def g():\n    return 2\n");
  auto t1 = ws.write("tests/test_one.py", "import a.b.c\n\ndef test_f():\n    assert a.b.c.f() == 1\n");
  auto t2 = ws.write("tests/test_two.py", "from a.b import c\n\ndef test_f():\n    assert c.f() == 1\n");
  auto t3 = ws.write("tests/test_three.py", "from a.b.c import f\n\ndef test_f():\n    assert f() == 1\n");
  ws.write("tests/test_other.py", "from a.b import d\nfrom a.b.d import g\n\ndef test_g():\n    assert g() == 2\n");
  CHECK(importers(ws, c) == std::vector<std::string>{t1, t3, t2});
  // The package's __init__ is loaded by every one of them.
  CHECK(importers(ws, ws.path("a/b/__init__.py")).size() == 4);
}

TEST_CASE("PyResolve: relative imports (from . import m, from ..pkg import m, from .m import f)") {
  TempWorkspace ws;
  ws.write("pkg/__init__.py", "");
  auto m = ws.write("pkg/m.py", "def f():\n    return 1\n");
  ws.write("pkg/sub/__init__.py", "");
  auto n = ws.write("pkg/sub/n.py", "def g():\n    return 2\n");
  ws.write("pkg/tests/__init__.py", "");
  auto t1 = ws.write("pkg/tests/test_dot.py", "from .. import m\n\ndef test_f():\n    assert m.f() == 1\n");
  auto t2 = ws.write("pkg/tests/test_dotm.py", "from ..m import f\n\ndef test_f():\n    assert f() == 1\n");
  auto t3 = ws.write("pkg/tests/test_sub.py", "from ..sub import n\n\ndef test_g():\n    assert n.g() == 2\n");
  ws.write("pkg/sub/test_local.py", "from . import n\n");
  CHECK(importers(ws, m) == std::vector<std::string>{t1, t2});
  CHECK(importers(ws, n) == std::vector<std::string>{ws.path("pkg/sub/test_local.py"), t3});
  // A test module inside a package runs the package's __init__.py first.
  ws.write("pkg/__init__.py", "from . import m\n");
  auto t4 = ws.write("pkg/tests/test_plain.py", "import json\n");
  CHECK(importers(ws, m) == std::vector<std::string>{ws.path("pkg/sub/test_local.py"), t1, t2, t4, t3});
}

TEST_CASE("PyResolve: re-exports through __init__ and modules loaded through other modules") {
  TempWorkspace ws;
  ws.write("pkg/__init__.py", "from .impl import f as public_f\nfrom .inner import *\n");
  auto impl = ws.write("pkg/impl.py", "def f():\n    return 1\n");
  ws.write("pkg/other.py", "from ._i18n import gettext\n\ndef g():\n    return 2\n");
  auto i18n = ws.write("pkg/_i18n.py", "def gettext(s):\n    return s\n");
  ws.write("pkg/inner/__init__.py", "from .deep import h\n");
  auto deep = ws.write("pkg/inner/deep.py", "def h():\n    return 3\n");
  ws.write("alone/__init__.py", "");
  ws.write("alone/x.py", "");
  auto tf = ws.write("tests/test_f.py", "from pkg import public_f\n");
  auto th = ws.write("tests/test_h.py", "from pkg import h\n");
  auto tall = ws.write("tests/test_all.py", "import pkg\n\ndef test_x():\n    assert pkg.public_f() == 1\n");
  auto tstar = ws.write("tests/test_star.py", "from pkg import *\n");
  auto tother = ws.write("tests/test_other.py", "from pkg.other import g\n");
  ws.write("tests/test_alone.py", "from alone import x\n");
  // Every test that imports the package runs its __init__, which loads impl and inner.deep.
  const std::vector<std::string> all = {tall, tf, th, tother, tstar};
  CHECK(importers(ws, impl) == all);
  CHECK(importers(ws, deep) == all);
  // _i18n is imported by no test, only by pkg/other.py: the tests that load other.py are its tests.
  CHECK(importers(ws, i18n) == std::vector<std::string>{tother});
}

TEST_CASE("PyResolve: namespace packages (no __init__.py) and a src/ layout") {
  TempWorkspace ws;
  auto m = ws.write("src/ns/part/m.py", "def f():\n    return 1\n");
  auto t = ws.write("tests/test_anything.py", "from ns.part.m import f\n");
  auto t2 = ws.write("tests/test_pkg.py", "from ns.part import m\n");
  ws.write("tests/test_unrelated.py", "import ns.part\n");
  CHECK(importers(ws, m) == std::vector<std::string>{t, t2});
}

TEST_CASE("PyResolve: sys.path set by conftest.py decides which module an import names") {
  TempWorkspace ws;
  ws.write("m.py", "def f():\n    return 0\n");  // what `import m` would be without the conftest
  auto lib = ws.write("lib/m.py", "def f():\n    return 1\n");
  auto t = ws.write("tests/test_x.py", "import m\n\ndef test_f():\n    assert m.f() == 1\n");
  CHECK(importers(ws, lib).empty());
  ws.write("tests/conftest.py", "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))\n");
  CHECK(importers(ws, lib) == std::vector<std::string>{t});
  CHECK(importers(ws, ws.path("m.py")).empty());
}

TEST_CASE("PyResolve: pytest's pythonpath option and the test file's own sys.path edit") {
  TempWorkspace ws;
  ws.write("m.py", "def f():\n    return 0\n");
  auto lib = ws.write("lib/m.py", "def f():\n    return 1\n");
  auto t = ws.write("tests/test_x.py", "import m\n");
  auto own = ws.write("other/test_y.py", "import sys\nsys.path.insert(0, '/nowhere')\nsys.path.insert(0, 'lib2')\nimport m\n");
  auto lib2 = ws.write("lib2/m.py", "");
  CHECK(importers(ws, lib).empty());
  ws.write("pytest.ini", "[pytest]\npythonpath = lib\n");
  CHECK(importers(ws, lib) == std::vector<std::string>{t});
  CHECK(importers(ws, lib2) == std::vector<std::string>{own});
}

TEST_CASE("PyResolve: an editable install's .pth path is on sys.path") {
  TempWorkspace ws;
  ws.write("elsewhere/m.py", "");
  auto t = ws.write("tests/test_x.py", "import m\n");
  CHECK_FALSE(has(pythonSearch(t, ws.root(), {}).roots, ws.path("elsewhere")));
  ws.write(".venv/lib/python3.11/site-packages/__editable__.proj.pth", ws.path("elsewhere") + "\n");
  CHECK(has(pythonSearch(t, ws.root(), {}).roots, ws.path("elsewhere")));
  ws.write("finder/pkg/__init__.py", "");
  ws.write(".venv/lib/python3.11/site-packages/__editable___proj_finder.py",
           "MAPPING = {'pkg': '" + ws.path("finder/pkg") + "'}\n");
  CHECK(has(pythonSearch(t, ws.root(), {}).roots, ws.path("finder")));
}

TEST_CASE("PyResolve: the prepend mode puts a test's own directory first (flat layouts)") {
  TempWorkspace ws;
  auto m = ws.write("tests/helpers.py", "");
  auto t = ws.write("tests/test_h.py", "import helpers\n");
  ws.write("helpers.py", "");
  CHECK(importers(ws, m) == std::vector<std::string>{t});
  CHECK(importers(ws, ws.path("helpers.py")).empty());
}

TEST_CASE("two modules of the same name: the test named after one never stands in for the other") {
  TempWorkspace ws;
  ws.write("pkg_a/__init__.py", "");
  auto a = ws.write("pkg_a/util.py", "def shout(s):\n    return s.upper()\n");
  ws.write("pkg_b/__init__.py", "");
  auto b = ws.write("pkg_b/util.py", "def plural(n):\n    return 's' if n != 1 else ''\n");
  auto named = ws.write("tests/test_util.py", "from pkg_a.util import shout\n\ndef test_shout():\n    assert shout('a') == 'A'\n");
  // No test loads pkg_b/util.py: none is found, and the plan says why test_util.py is not one.
  auto plan = discover(b);
  CHECK(plan.testFiles.empty());
  CHECK(plan.empty());
  CHECK(plan.discoveryNote.find(named) != std::string::npos);
  CHECK(plan.discoveryNote.find(a) != std::string::npos);
  // The test that imports it is found, the name match still left out.
  auto user = ws.write("tests/test_plural.py", "from pkg_b.util import plural\n\ndef test_one():\n    assert plural(1) == ''\n");
  plan = discover(b);
  CHECK(plan.testFiles == std::vector<std::string>{user});
  // pkg_a/util.py keeps its test.
  CHECK(discover(a).testFiles == std::vector<std::string>{named});
}

TEST_CASE("a test file named after the module that loads it another way is kept") {
  TempWorkspace ws;
  ws.write("pkg/__init__.py", "from .util import helper\n");
  auto util = ws.write("pkg/util.py", "def helper():\n    return 1\n");
  // Through the package's re-export, through a module that imports it, dynamically, through
  // conftest.py, or importing nothing of the project: each may load it, each is kept.
  ws.write("tests/test_util.py", "from pkg import helper\n");
  ws.write("pkg/test_util.py", "import importlib\nmod = importlib.import_module(NAME)\n");
  ws.write("pkg/util_test.py", "def test_x():\n    pass\n");
  auto plan = discover(util);
  CHECK(has(plan.testFiles, ws.path("tests/test_util.py")));
  CHECK(has(plan.testFiles, ws.path("pkg/test_util.py")));
  CHECK(has(plan.testFiles, ws.path("pkg/util_test.py")));
  CHECK(plan.discoveryNote.empty());
  PySearch search = pythonSearch(util, ws.root(), {});
  search.preloadRoot = ws.root();
  ws.write("tests/conftest.py", "import pkg.util\n");
  auto other = ws.write("tests/test_uses_fixture.py", "import json\n");
  ws.write("other.py", "");
  auto viaOther = ws.write("tests/test_other.py", "import other\n");
  const PyResolver resolver(std::move(search));
  CHECK(resolver.loads(other, util).loads == PyLoads::Yes);
  CHECK(resolver.loads(viaOther, util).loads == PyLoads::Yes);  // conftest.py loads it first
}
