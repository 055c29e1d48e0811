#include "core/testing/cmake/TestTargets.h"

#include "support/Regex.h"

namespace greenlight::core::testing::cmake {

namespace {

// gtest/catch/doctest_discover_tests stand in for a test program not built yet with one test
// "<target>_NOT_BUILT" (CMake 3.25: "<target>_NOT_BUILT-<hash>").
bool isNotBuilt(const CtestTest& t, std::string* target) {
  static const std::regex r = support::regex(R"(^(.+)_NOT_BUILT(-[0-9a-f]+)?$)");
  std::smatch m;
  if (!std::regex_match(t.name, m, r)) return false;
  *target = m[1].str();
  return true;
}

}  // namespace

std::map<std::string, TestTarget> testTargets(const CodeModel& model, const std::vector<CtestTest>& tests,
                                              const DepsIndex* deps) {
  std::map<std::string, TestTarget> out;
  for (const auto& t : tests) {
    std::string name = t.target;
    if (name.empty() && isNotBuilt(t, &name) && !model.find(name)) name.clear();
    const Target* target = name.empty() ? nullptr : model.find(name);
    if (!target) continue;
    auto& tt = out[name];
    tt.target = target;
    tt.ctest.push_back(&t);
    if (tt.framework == Framework::Plain && t.framework != Framework::Plain) tt.framework = t.framework;
  }
  for (auto& [name, tt] : out)
    if (tt.framework == Framework::Plain) tt.framework = targetFramework(model, *tt.target, deps);
  // The build graph: every executable that uses a framework, registered or not.
  for (const auto& t : model.targets) {
    if (t.type != "EXECUTABLE" || out.count(t.name)) continue;
    const Framework fw = targetFramework(model, t, deps);
    if (fw == Framework::Plain) continue;
    out[t.name] = TestTarget{&t, fw, {}};
  }
  return out;
}

std::string gtestPatterns(const std::string& d) {
  const auto dot = d.find('.');
  if (dot == std::string::npos) return d;
  const std::string suite = d.substr(0, dot), test = d.substr(dot + 1);
  return d + ":" + d + "/*:*/" + d + ":*/" + d + "/*:" + suite + "/*." + test + ":*/" + suite + "/*." + test;
}

}  // namespace greenlight::core::testing::cmake
