#include "core/testing/adapters/Adapter.h"

namespace greenlight::core::testing {

const RunnerAdapter& pytestAdapter();
const RunnerAdapter& unittestAdapter();
const RunnerAdapter& pythonHarnessAdapter();
const RunnerAdapter& jestAdapter();
const RunnerAdapter& vitestAdapter();
const RunnerAdapter& mochaAdapter();
const RunnerAdapter& nodeHarnessAdapter();
const RunnerAdapter& cmakeAdapter();
const RunnerAdapter& mesonAdapter();
const RunnerAdapter& compileDbAdapter();
const RunnerAdapter& cxxSingleFileAdapter();
const RunnerAdapter& commandAdapter();

const std::vector<const RunnerAdapter*>& adapters() {
  // The project's own runner first, the built-in harness of each language last.
  static const std::vector<const RunnerAdapter*> all = {
      &pytestAdapter(),      &unittestAdapter(), &pythonHarnessAdapter(), &jestAdapter(),
      &vitestAdapter(),      &mochaAdapter(),    &nodeHarnessAdapter(),   &cmakeAdapter(),
      &mesonAdapter(),       &compileDbAdapter(),  // C++ builds other than CMake (NativeBuilds.cpp)
      &cxxSingleFileAdapter(), &commandAdapter(),
  };
  return all;
}

const RunnerAdapter* adapterNamed(std::string_view name) {
  for (const RunnerAdapter* a : adapters()) {
    if (a->name() == name) return a;
  }
  return nullptr;
}

}  // namespace greenlight::core::testing
