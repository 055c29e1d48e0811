// Single-file C++ tests (m_test.cpp, test_m.cpp, tests/m_test.cpp: plain assert + main, Catch2
// or GoogleTest by the header they include), compiled with the configured compiler and flags in
// the sandbox, then run there (CxxRunner.cpp). Projects built with CMake have their own adapter.
#include "core/testing/RunnerSteps.h"
#include "core/testing/adapters/Adapter.h"

namespace greenlight::core::testing {

namespace {

class CxxSingleFileAdapter final : public RunnerAdapter {
 public:
  std::string_view name() const override { return "cxx"; }
  bool handles(Language language) const override { return language == Language::Cxx; }
  std::optional<TestPlan> discover(const DiscoveryContext& ctx, std::string*) const override { return builtinDiscovery(ctx); }
  RunResult run(const TestPlan& plan, const RunOptions& options, Staging& staging, RunResult result) const override {
    std::string error;
    if (!staging.prepare(plan, options.overlay, &error)) {
      result.error = error;
      return result;
    }
    return runCxx(plan, options, staging, std::move(result));
  }
};

}  // namespace

const RunnerAdapter& cxxSingleFileAdapter() {
  static const CxxSingleFileAdapter adapter;
  return adapter;
}

}  // namespace greenlight::core::testing
