// What warm interpreters cost while they wait: a process that runs tests as the language
// server does (TestService, spares and sandbox.warmInterpreters on) runs PYTHON_FILE's and
// NODE_FILE's tests once each, waits until both warm interpreters are ready and have settled,
// then prints the memory of itself and of each spare's processes: RSS, its anonymous part
// (private to the process) and PSS (file pages shared with other processes, such as other
// node or python processes of the machine, counted proportionally), from /proc.
//
//   bench_idle_memory PYTHON_FILE NODE_FILE
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/config/Config.h"
#include "core/testing/Discovery.h"
#include "core/testing/TestService.h"
#include "sandbox/Sandbox.h"

namespace t = greenlight::core::testing;
namespace core = greenlight::core;
namespace sb = greenlight::sandbox;

namespace {

struct Memory {
  long rss = 0, anon = 0, pss = 0;  // kB
  Memory& operator+=(const Memory& o) {
    rss += o.rss;
    anon += o.anon;
    pss += o.pss;
    return *this;
  }
};

long field(const std::string& file, const std::string& name) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name, 0) == 0) return std::atol(line.c_str() + name.size());
  return 0;
}

Memory of(const std::string& pid) {
  Memory m;
  m.rss = field("/proc/" + pid + "/status", "VmRSS:");
  m.anon = field("/proc/" + pid + "/status", "RssAnon:");
  m.pss = field("/proc/" + pid + "/smaps_rollup", "Pss:");
  return m;
}

// A process and its descendants.
Memory tree(const std::string& pid, std::vector<std::string>* names) {
  Memory m = of(pid);
  std::ifstream comm("/proc/" + pid + "/comm");
  std::string name;
  std::getline(comm, name);
  if (names) names->push_back(name + " " + std::to_string(m.rss / 1024) + " MB");
  std::ifstream children("/proc/" + pid + "/task/" + pid + "/children");
  for (std::string child; children >> child;) m += tree(child, names);
  return m;
}

void print(const char* what, const Memory& m) {
  std::printf("  %-34s RSS %5.1f MB   anonymous %5.1f MB   PSS %5.1f MB\n", what, m.rss / 1024.0, m.anon / 1024.0,
              m.pss / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_idle_memory PYTHON_FILE NODE_FILE\n");
    return 2;
  }
  t::TestService::Options options;
  options.workers = 1;
  t::TestService service(options);
  sb::keepSpares(true);
  for (int i = 1; i <= 2; ++i) {
    const std::string path = std::filesystem::absolute(argv[i]).lexically_normal().string();
    const std::string root = t::findWorkspaceRoot(path);
    core::ConfigLayers layers;
    layers.setEnvironment(core::relevantEnvironment());
    std::string error;
    layers.loadWorkspaceFile(root, &error);
    auto config = layers.resolve(&error);
    if (!config) {
      std::fprintf(stderr, "bench_idle_memory: %s\n", error.c_str());
      return 2;
    }
    t::RunRequest request;
    request.path = path;
    request.workspaceRoot = root;
    request.config = *config;
    auto outcome = service.runNow(std::move(request));
    if (!outcome.result.error.empty() || outcome.result.summary.passed == 0) {
      std::fprintf(stderr, "bench_idle_memory: the run of %s failed\n", path.c_str());
      return 1;
    }
  }
  // Both warm interpreters ready, and given time to finish loading.
  for (int i = 0; i < 500; ++i) {
    int warm = 0;
    for (const auto& line : sb::describeSpares()) warm += line.rfind("warm ", 0) == 0;
    if (warm >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::seconds(2));
  std::printf("idle, after one Python and one node test run (spares and warm interpreters on):\n");
  const std::string self = std::to_string(::getpid());
  Memory server = of(self), total = server;
  print("this process (the server's part)", server);
  std::ifstream kids("/proc/" + self + "/task/" + self + "/children");
  std::vector<std::string> spares;
  for (std::string child; kids >> child;) spares.push_back(child);
  // Every task's children: the spares were cloned by the builder thread.
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    if (task.path().filename() == self) continue;
    std::ifstream in(task.path() / "children");
    for (std::string child; in >> child;) spares.push_back(child);
  }
  for (const auto& pid : spares) {
    std::vector<std::string> names;
    Memory m = tree(pid, &names);
    std::string label = "spare:";
    for (const auto& n : names) label += " " + n;
    print(label.c_str(), m);
    total += m;
  }
  print("total", total);
  for (const auto& line : sb::describeSpares()) std::printf("  (%s)\n", line.c_str());
  sb::keepSpares(false);
  return 0;
}
