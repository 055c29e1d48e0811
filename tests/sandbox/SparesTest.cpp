// Spares (sandbox::keepSpares): a run handed to a sandbox built ahead must behave exactly as a
// cold one: the go request's argv, environment, working directory, stdin and /work seed
// arrive whole; one run leaves nothing for the next; each policy shape keeps its own limits;
// many threads can take spares at once; switching spares off leaves no process behind.
// (The whole escape suite also runs with spares on: sandbox_escape_spares in CMakeLists.)
#include <algorithm>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ProcFile.h"
#include "TestSupport.h"
#include "TestTime.h"
#include "sandbox/Sandbox.h"

using greenlight::sandbox::keepSpares;
using greenlight::sandbox::Policy;
using greenlight::sandbox::run;
using greenlight::sandbox::SpareStats;
using greenlight::sandbox::spareStats;
using greenlight::sandbox::Status;
using greenlight::sandbox::Verdict;
using namespace gltest;

TEST_CASE("a spare runs exactly what the go request says", "[spares]") {
  TempDir seed;
  seed.file("top.txt", "top\n");
  std::filesystem::create_directories(seed.path() + "/sub/deeper");
  seed.file("sub/a.txt", "alpha\n");
  seed.file("sub/deeper/b.txt", std::string(100000, 'b'));
  seed.file("sub/tool.sh", "#!/bin/sh\necho tool ran\n");
  ::chmod((seed.path() + "/sub/tool.sh").c_str(), 0755);
  ::symlink("a.txt", (seed.path() + "/sub/link").c_str());

  Policy p = policyFor({"/bin/sh", "-c",
                        "pwd; echo \"$GL_ONE $GL_TWO\"; cat; cat /work/top.txt a.txt link; ./tool.sh; "
                        "wc -c < deeper/b.txt; readlink link; stat -c %a tool.sh; echo \"$HOME $PATH\"; "
                        "test -z \"$GL_CALLER\" && echo no-caller-env"});
  p.scratchSource = seed.path();
  p.workdir = "/work/sub";
  p.env = {"GL_ONE=1", "GL_TWO=two words"};
  p.stdinData = "from stdin\n";
  ::setenv("GL_CALLER", "must-not-enter", 1);

  Verdict cold;
  {
    SparesScope off(false);
    cold = run(p);
  }
  SparesScope on(true);
  Verdict warm = runOnSpare(p);
  ::unsetenv("GL_CALLER");
  INFO(describe(warm));
  REQUIRE(warm.status == Status::Ok);
  const std::string expected =
      "/work/sub\n1 two words\nfrom stdin\ntop\nalpha\nalpha\ntool ran\n100000\na.txt\n755\n/tmp "
      "/usr/local/bin:/usr/bin:/bin\nno-caller-env\n";
  CHECK(warm.stdoutData == expected);
  CHECK(cold.stdoutData == expected);
  CHECK(warm.stderrData == cold.stderrData);
  CHECK(warm.isolation.netNs == cold.isolation.netNs);
  CHECK(warm.isolation.landlockAbi == cold.isolation.landlockAbi);
  CHECK(warm.isolation.userNs == cold.isolation.userNs);
}

TEST_CASE("nothing of one run reaches the next through spares", "[spares]") {
  SparesScope on(true);
  const std::string token = uniqueToken("gl-spare-daemon");
  Policy writer = cPolicy({"daemon", token});
  writer.argv = {"/bin/sh", "-c", "echo x > /tmp/mark; echo y > /work/mark; " + probeBin() + " daemon " + token};
  Policy reader = writer;
  reader.argv = {"/bin/sh", "-c", "ls -a /tmp /work"};
  Verdict w = runOnSpare(writer);
  INFO(describe(w));
  CHECK(w.status == Status::Ok);
  CHECK(w.stdoutData.find("DAEMONIZED") != std::string::npos);
  CHECK_FALSE(processWithTokenAlive(token));
  Verdict r = runOnSpare(reader);  // same shape: the spare left behind by the writer's run
  INFO(describe(r));
  CHECK(r.status == Status::Ok);
  CHECK(r.stdoutData.find("mark") == std::string::npos);
  CHECK(r.stdoutData.find("/tmp:\n.\n..\n") != std::string::npos);
}

TEST_CASE("each policy shape keeps its own spare and limits", "[spares]") {
  SparesScope on(true);
  Policy small = policyFor({"/bin/sh", "-c", "ulimit -d; ulimit -n"});
  small.memoryLimitMb = 200;
  Policy large = small;
  large.memoryLimitMb = 300;
  // RLIMIT_DATA is the memory limit's backstop: max(4 x limit, limit + 2 GiB) (PlanBuilder.cpp).
  auto backstopKb = [](long mb) { return std::to_string(std::max(4 * mb, mb + 2048) * 1024); };
  for (int round = 0; round < 3; ++round) {
    Verdict a = runOnSpare(small);
    Verdict b = runOnSpare(large);
    INFO(describe(a) << "\n" << describe(b));
    CHECK(a.stdoutData == backstopKb(200) + "\n1024\n");
    CHECK(b.stdoutData == backstopKb(300) + "\n1024\n");
  }
}

TEST_CASE("many threads take spares at once", "[spares]") {
  SparesScope on(true);
  constexpr int kThreads = 4, kRuns = 12;
  std::vector<std::string> failures[kThreads];
  std::vector<std::thread> threads;
  unsigned long usedBefore = spareStats().used;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < kRuns; ++i) {
        Policy p = policyFor({"/bin/sh", "-c", "cat; echo \"$ID\""});
        std::string id = std::to_string(t) + "-" + std::to_string(i);
        p.env = {"ID=" + id};
        p.stdinData = "in " + id + "\n";
        Verdict v = run(p);
        if (v.status != Status::Ok || v.stdoutData != "in " + id + "\n" + id + "\n")
          failures[t].push_back(id + ": " + describe(v));
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    std::string all;
    for (const auto& f : failures[t]) all += f + "\n";
    INFO("thread " << t << "\n" << all);
    CHECK(failures[t].empty());
  }
  CHECK(spareStats().used > usedBefore);
}

TEST_CASE("a seed a spare cannot take goes cold, with the cold outcome", "[spares]") {
  SparesScope on(true);
  TempDir seed;
  seed.file("big.bin", std::string(2 << 20, 'z'));  // over the 1 MB file size limit below
  Policy p = policyFor({"/bin/sh", "-c", "wc -c < big.bin"});
  p.fileSizeLimitMb = 1;
  p.scratchSource = seed.path();
  SpareStats before;
  Verdict v = runOnSpare(p, false, &before);  // taken, found unfit for this request...
  INFO(describe(v));
  CHECK(v.status == Status::Ok);  // the cold path seeds before the limits apply
  CHECK(v.stdoutData == std::to_string(2 << 20) + "\n");
  CHECK(spareStats().discarded >= before.discarded + 1);  // ...and dropped for a cold start
}

TEST_CASE("a spare that died meanwhile is dropped and the run starts cold", "[spares]") {
  SparesScope on(true);
  Policy p = policyFor({"/bin/sh", "-c", "echo survived"});
  // Kill every child of this process (at rest, those are exactly the spares, and inits still
  // being reaped), wait until each has died, then run. Only a run that took a spare built
  // before the kill proves anything (the builder may have been busy with another shape, or
  // built this one after the kill): when that is not certain, try again.
  bool tookDeadSpare = false;
  for (int attempt = 0; attempt < 20 && !tookDeadSpare; ++attempt) {
    SpareStats taken;
    runOnSpare(p, false, &taken);  // took one: the builder makes the next spare of this shape
    waitBuilderProgress(taken);
    SpareStats beforeKill = spareStats();
    std::vector<std::string> killed = ownChildren();
    for (const std::string& pid : killed) ::kill(std::stoi(pid), SIGKILL);
    for (const std::string& pid : killed) REQUIRE(waitDead(pid));
    SpareStats beforeRun = spareStats();
    Verdict v = run(p);
    SpareStats after = spareStats();
    INFO(describe(v));
    CHECK(v.status == Status::Ok);
    CHECK(v.stdoutData == "survived\n");
    const bool tookOne = after.used == beforeRun.used + 1;
    const bool noneNewBeforeRun = beforeRun.built == beforeKill.built;
    const bool noneNewDuringRun = after.built == beforeRun.built;
    const bool dropped = after.discarded > beforeRun.discarded;
    if (tookOne && noneNewBeforeRun && (dropped || noneNewDuringRun)) {
      tookDeadSpare = true;
      CHECK(dropped);
    }
  }
  CHECK(tookDeadSpare);
}

TEST_CASE("switching spares off leaves no process behind", "[spares]") {
  {
    SparesScope on(true);
    SpareStats before;
    runOnSpare(policyFor({"/bin/true"}), false, &before);
    waitBuilderProgress(before);  // the replacement, so that there is a spare to collect
  }
  keepSpares(false);
  auto until = std::chrono::steady_clock::now() + gltest::scaled(std::chrono::seconds(30));
  while (!ownChildren().empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    keepSpares(false);  // collects the ones that have exited since
  }
  CHECK(ownChildren().empty());
  keepSpares(sparesOn());
}
