// The seccomp profiles proven against real workloads: CPython (threads, subprocess, asyncio,
// tempfile, multiprocessing), node (worker_threads, child_process, fs, timers), a native C
// program, and g++ compiling and linking a C++20 program inside the sandbox. Plus compiler
// attacks stopped by the limits.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "TestSupport.h"
#include "TestTime.h"
#include "sandbox/Sandbox.h"

using greenlight::sandbox::Policy;
using greenlight::sandbox::Profile;
using greenlight::sandbox::run;
using greenlight::sandbox::Status;
using greenlight::sandbox::Verdict;
using namespace gltest;

namespace {
bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }
}  // namespace

TEST_CASE("python workloads run under the python profile", "[workload]") {
  for (int round = 0; round < 2; ++round) {  // racy calls show up only sometimes
    Verdict v = run(pyPolicy({"workloads"}));
    INFO(describe(v));
    REQUIRE(v.status == Status::Ok);
    CHECK(contains(v.stdoutData, "WORKLOADS OK"));
  }
}

TEST_CASE("node workloads run under the node profile", "[workload]") {
  for (int round = 0; round < 2; ++round) {
    Verdict v = run(nodePolicy({"workloads"}));
    INFO(describe(v));
    REQUIRE(v.status == Status::Ok);
    CHECK(contains(v.stdoutData, "WORKLOADS OK"));
  }
}

TEST_CASE("a native program runs as the sandbox user", "[workload]") {
  Verdict v = run(cPolicy({"hello"}));
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK(v.stdoutData == "hello from C, uid=1000\n");
  CHECK(v.exitCode == 0);
  CHECK(v.isolation.seccomp);
}

TEST_CASE("g++ compiles, links and runs a C++20 program inside the sandbox", "[workload][compiler]") {
  TempDir src;
  src.file("main.cpp",
           "#include <iostream>\n#include <vector>\n#include <numeric>\n#include <span>\n"
           "int main() { std::vector<int> v{1, 2, 3, 4}; std::span<int> s{v};\n"
           "  std::cout << \"sum=\" << std::accumulate(s.begin(), s.end(), 0) << '\\n'; }\n");
  Policy compile;
  compile.argv = {"g++", "-std=c++20", "-O0", "-o", "/work/main", "/work/main.cpp"};
  compile.scratchSource = src.path();
  compile.timeLimitSec = 60;
  compile.cpuLimitSec = 60;
  compile.memoryLimitMb = 1024;
  Verdict v = run(compile);
  INFO(describe(v));
  REQUIRE(v.status == Status::Ok);
  // Compile and run in one sandbox (scratch does not persist between runs).
  Policy both = compile;
  both.argv = {"/bin/sh", "-c", "g++ -std=c++20 -o main main.cpp && ./main"};
  both.profile = Profile::Compiler;
  Verdict r = run(both);
  INFO(describe(r));
  CHECK(r.status == Status::Ok);
  CHECK(r.stdoutData == "sum=10\n");
}

TEST_CASE("a compiler fed /dev/urandom or a template bomb is stopped by the limits", "[workload][compiler]") {
  TempDir src;
  src.file("urandom.cpp", "#include \"/dev/urandom\"\n");
  src.file("bomb.cpp",
           "template <int N, typename T> struct B { using L = B<N - 1, B<N, T>>; using R = B<N - 1, B<N + 1, T>>;\n"
           "  static constexpr long v = L::v + R::v; };\n"
           "template <typename T> struct B<0, T> { static constexpr long v = 1; };\n"
           "int main() { return B<40, int>::v == 0; }\n");
  for (const char* file : {"urandom.cpp", "bomb.cpp"}) {
    Policy p;
    p.argv = {"g++", "-std=c++20", "-fsyntax-only", std::string("/work/") + file};
    p.scratchSource = src.path();
    p.timeLimitSec = 4;
    p.cpuLimitSec = 3;
    p.memoryLimitMb = 256;
    p.outputLimitBytes = 64 * 1024;
    Verdict v = run(p);
    INFO(file << ": " << describe(v).substr(0, 1500));
    bool stopped = v.status == Status::Timeout || v.status == Status::CpuLimit || v.status == Status::MemoryLimit ||
                   v.status == Status::OutputLimit;
    // gcc may also give up by itself (exit status 1 after "out of memory" or a fatal error);
    // what matters is that it neither succeeds nor runs past the limits.
    CHECK((stopped || v.status == Status::ExitNonzero));
    CHECK(v.status != Status::Ok);
    // Not past the limits: the 4 s time limit plus a bound (scaled) for the kill and reaping.
    CHECK(v.wallMs < static_cast<double>(gltest::scaled(std::chrono::seconds(15)).count()));
  }
}

TEST_CASE("an interpreter prefix under root-owned /root binds read-only, with a seeded /work", "[workload][root]") {
  const std::string prefix = "/root/.pyenv/versions/3.11.7";
  if (!isRoot() || !fileExists(prefix + "/bin/python3")) {
    WARN("skipped: needs root and " << prefix);
    return;
  }
  TempDir seed;
  seed.file("pkg/mod.py", "VALUE = 41\n");
  Policy p;
  p.argv = {prefix + "/bin/python3", "-c",
            "import os, sys; sys.path.insert(0, 'pkg'); import mod; print(mod.VALUE + 1, os.getuid());"
            "open('pkg/out.txt', 'w').write('ok'); print(sys.prefix)"};
  p.binds.push_back({prefix, "", false});
  p.scratchSource = seed.path();
  Verdict v = run(p);
  INFO(describe(v));
  CHECK(v.status == Status::Ok);
  CHECK(contains(v.stdoutData, "42 1000"));
  CHECK(contains(v.stdoutData, prefix));
  CHECK_FALSE(fileExists(seed.path() + "/pkg/out.txt"));  // the seed is a copy
}
