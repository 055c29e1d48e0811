// What finding the tests of a JavaScript file costs (issue 33: the tests of a file are the test
// files that load it, so every test file's imports are followed on every save). A generated
// node:test package: MODULES modules in nested folders (each loads two others, through
// relative paths, '#internal/*' imports and the package's own name) and TESTS test files
// (each loads three modules, some as require('..')); discovery of one module is timed
//
//   cold    the first discovery in the process (every test file and module read and resolved)
//   warm    the same again (each file's imports cached by its stamp)
//   edit    after one module's text changed (its imports read again)
//
// and prints the medians. Run it on a quiet machine, or read the ratios only.
//
//   bench_js_discovery [MODULES] [TESTS] [RUNS]     (default 400 150 9)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/testing/Discovery.h"
#include "core/testing/adapters/TestJob.h"
#include "BenchSupport.h"

namespace t = greenlight::core::testing;
namespace fs = std::filesystem;

namespace {

using benchsupport::median;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

double ms(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int modules = argc > 1 ? std::atoi(argv[1]) : 400;
  const int tests = argc > 2 ? std::atoi(argv[2]) : 150;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 9;
  char tmpl[] = "/tmp/gl-bench-jsdisc-XXXXXX";
  if (!::mkdtemp(tmpl)) {
    std::perror("mkdtemp");
    return 1;
  }
  const fs::path root = tmpl;
  write(root / ".greenlight.json", "{}\n");
  write(root / "package.json", R"({"name": "bench-pkg", "type": "module", "main": "lib/m0.js",
    "exports": {".": "./lib/m0.js", "./lib/*": "./lib/*.js"}, "imports": {"#internal/*": "./lib/*.js"}})");
  auto modulePath = [](int i) { return "lib/" + (i % 4 ? "d" + std::to_string(i % 7) + "/" : std::string()) + "m" + std::to_string(i); };
  for (int i = 0; i < modules; ++i) {
    const int a = (i * 7 + 3) % modules, b = (i * 13 + 5) % modules;
    std::string text = "import { f as fa } from '#internal/" + modulePath(a).substr(4) + "';\n" +
                       "import { f as fb } from 'bench-pkg/lib/" + modulePath(b).substr(4) + "';\n" +
                       "export function f(n) { return n > 0 ? fa(n - 1) + fb(n - 2) : 1; }\n";
    write(root / (modulePath(i) + ".js"), text);
  }
  for (int i = 0; i < tests; ++i) {
    std::string text = "import { test } from 'node:test';\n";
    for (int k = 0; k < 3; ++k) text += "import * as m" + std::to_string(k) + " from '../" + modulePath((i * 31 + k * 97) % modules) + ".js';\n";
    if (i % 10 == 0) text += "import main from '..';\n";
    text += "test('t" + std::to_string(i) + "', () => {});\n";
    write(root / ("test/t" + std::to_string(i) + ".test.js"), text);
  }
  const std::string target = (root / (modulePath(modules / 2) + ".js")).string();
  t::DiscoveryRequest r;
  r.path = target;
  r.workspaceRoot = root.string();
  std::string error;
  auto discover = [&] {
    auto start = std::chrono::steady_clock::now();
    auto plan = t::discoverTests(r, &error);
    const double d = ms(start);
    return std::make_pair(d, plan ? plan->testFiles.size() : 0);
  };
  const auto [cold, found] = discover();
  std::vector<double> warm, edit;
  for (int i = 0; i < runs; ++i) warm.push_back(discover().first);
  for (int i = 0; i < runs; ++i) {
    const fs::path changed = root / (modulePath(i + 1) + ".js");
    std::ofstream(changed, std::ios::app) << "// edit " << i << "\n";
    edit.push_back(discover().first);
  }
  std::printf("%d modules, %d test files; %s: %zu test files load it\n", modules, tests, modulePath(modules / 2).c_str(), found);
  std::printf("cold  %8.2f ms\nwarm  %8.2f ms (median of %d)\nedit  %8.2f ms (median of %d)\n", cold, median(warm), runs,
              median(edit), runs);
  std::error_code ec;
  fs::remove_all(root, ec);
  return 0;
}
