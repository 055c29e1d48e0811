#include "sandbox/Spares.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "sandbox/Reaper.h"
#include "sandbox/SeccompProfiles.h"

namespace greenlight::sandbox {
namespace detail {
namespace {

using Clock = std::chrono::steady_clock;

// Policy shapes kept warm at once: a C++ test run alternates compile and run, Python and
// node runs add one each.
constexpr std::size_t kMaxReady = 4;
// A spare older than this is not used, and the builder drops it: its binds were resolved
// when it was built (a prefix reinstalled meanwhile would show its old contents), and an idle
// warm interpreter is tens of MB nobody uses.
constexpr auto kMaxAge = std::chrono::milliseconds(static_cast<long long>(kSpareIdleSeconds * 1000));

struct Job {
  std::string key;
  Policy policy;
  Mode mode;
  bool tryUserNs;
};

struct Ready {
  std::string key;
  std::unique_ptr<Execution> spare;
  Clock::time_point built;
  std::string label;  // for describeSpares()
};

// What a spare of `policy`'s shape is, in a few words.
std::string labelFor(const Policy& policy) {
  if (!policy.warm) return "sandbox (" + std::string(profileName(policy.profile)) + ")";
  std::string text = "warm";
  for (const std::string& a : policy.warm->argv) {
    if (&a != &policy.warm->argv.front() && a.rfind("/work/", 0) == 0) break;  // the boot script
    text += " " + a;
  }
  return text;
}

struct Pool {
  std::mutex mutex;
  std::condition_variable wake;
  bool enabled = false;
  bool threadStarted = false;
  std::deque<Job> queue;
  std::vector<Ready> ready;
  SpareStats stats;
  int activeRuns = 0;
  std::string building;  // the key the builder has taken off the queue and not yet made ready
};

// How long a warm spare's build waits for the runs in progress to end.
constexpr auto kWarmBuildDefer = std::chrono::seconds(3);

Pool& pool() {
  static auto* p = new Pool;  // never destroyed: the builder thread may use it until exit
  return *p;
}

// Drops the ready spares older than kMaxAge into `out` (destroyed by the caller, unlocked).
void evictStale(Pool& p, std::vector<std::unique_ptr<Execution>>& out) {
  const auto now = Clock::now();
  for (auto it = p.ready.begin(); it != p.ready.end();) {
    if (now - it->built < kMaxAge) {
      ++it;
      continue;
    }
    out.push_back(std::move(it->spare));
    it = p.ready.erase(it);
    ++p.stats.discarded;
  }
}

void builderLoop() {
  Pool& p = pool();
  for (;;) {
    Job job;
    std::vector<std::unique_ptr<Execution>> stale;
    {
      std::unique_lock<std::mutex> lock(p.mutex);
      for (;;) {
        evictStale(p, stale);
        if (!p.queue.empty() || !stale.empty()) break;
        if (p.ready.empty()) {
          p.wake.wait(lock);
          continue;
        }
        auto oldest = p.ready.front().built;
        for (const Ready& r : p.ready) oldest = std::min(oldest, r.built);
        p.wake.wait_until(lock, oldest + kMaxAge + std::chrono::milliseconds(10));
      }
      if (p.queue.empty()) {
        lock.unlock();
        stale.clear();
        reapFinished();
        continue;
      }
      job = std::move(p.queue.front());
      p.queue.pop_front();
      p.building = job.key;
      if (job.policy.warm) p.wake.wait_for(lock, kWarmBuildDefer, [&] { return p.activeRuns == 0; });
    }
    stale.clear();
    std::unique_ptr<Execution> spare = launchSpare(job.policy, job.mode, job.tryUserNs);
    std::unique_ptr<Execution> drop;  // destroyed outside the lock
    {
      std::lock_guard<std::mutex> lock(p.mutex);
      p.building.clear();
      bool have = false;
      for (const Ready& r : p.ready) have = have || r.key == job.key;
      if (spare->finished() || !p.enabled || have) {
        ++p.stats.discarded;
        drop = std::move(spare);
      } else {
        if (p.ready.size() >= kMaxReady) {
          auto oldest = p.ready.begin();
          for (auto it = p.ready.begin(); it != p.ready.end(); ++it)
            if (it->built < oldest->built) oldest = it;
          drop = std::move(oldest->spare);
          p.ready.erase(oldest);
          ++p.stats.discarded;
        }
        p.ready.push_back({job.key, std::move(spare), Clock::now(), labelFor(job.policy)});
        ++p.stats.built;
        if (job.policy.warm) ++p.stats.warmBuilt;
      }
    }
    drop.reset();
    reapFinished();
  }
}

}  // namespace

bool sparesEnabled() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.enabled;
}

std::string spareKey(const Policy& policy, Mode mode, bool tryUserNs) {
  std::ostringstream key;
  const char sep = '\x1f';
  key << static_cast<int>(mode) << sep << tryUserNs << sep << policy.network << sep
      << static_cast<int>(resolveProfile(policy.profile, policy.argv.empty() ? std::string() : policy.argv[0])) << sep
      << policy.cpuLimitSec << sep << policy.memoryLimitMb << sep << policy.processes << sep << policy.fileSizeLimitMb
      << sep << policy.scratchSizeMb << sep << policy.allowUnsandboxed;
  for (const Bind& b : policy.binds) key << sep << b.hostPath << sep << b.sandboxPath << sep << b.writable;
  if (warmEligible(policy)) {
    // The interpreter read these when it started: a run with others needs another one.
    key << sep << "warm";
    for (const std::string& a : policy.warm->argv) key << sep << a;
    key << sep << "env";
    for (const std::string& e : policy.env) key << sep << e;
    key << sep << "files";
    for (const auto& [path, data] : policy.warm->files)
      key << sep << path << sep << data.size() << sep << std::hash<std::string>{}(data);
  }
  return key.str();
}

bool warmEligible(const Policy& policy) {
  return policy.warm != nullptr && !policy.warm->argv.empty() && !policy.argv.empty() && policy.stdinData.empty() &&
         !policy.inheritStdin;
}

void runBegins() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  ++p.activeRuns;
}

void runEnds() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (--p.activeRuns == 0) p.wake.notify_all();
}

void countWarmUsed() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  ++p.stats.warmUsed;
}

void countWarmFellBack() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  ++p.stats.warmFellBack;
}

std::unique_ptr<Execution> takeSpare(const std::string& key) {
  Pool& p = pool();
  std::unique_ptr<Execution> stale;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    if (!p.enabled) return nullptr;
    for (auto it = p.ready.begin(); it != p.ready.end(); ++it) {
      if (it->key != key) continue;
      std::unique_ptr<Execution> spare = std::move(it->spare);
      bool fresh = Clock::now() - it->built < kMaxAge;
      if (fresh) {
        ++p.stats.used;
        p.ready.erase(it);
        return spare;
      }
      p.ready.erase(it);
      ++p.stats.discarded;
      stale = std::move(spare);
      break;
    }
  }
  return nullptr;  // `stale`, if any, is destroyed here, outside the lock
}

void wantSpare(const std::string& key, const Policy& policy, Mode mode, bool tryUserNs) {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (!p.enabled) return;
  for (const Ready& r : p.ready)
    if (r.key == key) return;
  for (const Job& j : p.queue)
    if (j.key == key) return;
  if (p.building == key) return;
  // The spare's own policy: the shape only. The run's argv, environment, working directory,
  // stdin and seed come with its go request.
  Policy shape = policy;
  shape.profile = resolveProfile(policy.profile, policy.argv.empty() ? std::string() : policy.argv[0]);
  shape.argv = {"spare"};
  if (warmEligible(policy)) {
    shape.argv = policy.warm->argv;  // started at once, with the run's environment (kept)
  } else {
    shape.warm.reset();
    shape.env.clear();
  }
  shape.workdir.clear();
  shape.scratchSource.clear();
  shape.stdinData.clear();
  shape.inheritStdin = false;
  shape.onOutput = nullptr;
  p.queue.push_back({key, std::move(shape), mode, tryUserNs});
  p.wake.notify_one();
}

void countDiscarded() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  ++p.stats.discarded;
}

}  // namespace detail

void keepSpares(bool on) {
  detail::Pool& p = detail::pool();
  std::vector<detail::Ready> dropped;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    p.enabled = on;
    if (!on) {
      dropped.swap(p.ready);
      p.queue.clear();
      p.stats.discarded += dropped.size();
    } else if (!p.threadStarted) {
      p.threadStarted = true;
      std::thread(detail::builderLoop).detach();
    }
  }
  dropped.clear();
  detail::reapFinished();
}

namespace detail {
namespace {

// Resident memory (kB) of a process and its descendants, from /proc (0 for what is gone).
long treeRssKb(const std::string& pid, int depth = 0) {
  long kb = 0;
  std::ifstream status("/proc/" + pid + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) kb = std::atol(line.c_str() + 6);
  }
  if (depth < 4) {
    std::ifstream children("/proc/" + pid + "/task/" + pid + "/children");
    for (std::string child; children >> child;) kb += treeRssKb(child, depth + 1);
  }
  return kb;
}

}  // namespace
}  // namespace detail

std::vector<std::string> describeSpares() {
  std::vector<std::pair<std::string, int>> ready;  // label with idle time, init pid
  {
    detail::Pool& p = detail::pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    const auto now = detail::Clock::now();
    for (const detail::Ready& r : p.ready) {
      char idle[32];
      std::snprintf(idle, sizeof idle, "%.1f", std::chrono::duration<double>(now - r.built).count());
      ready.emplace_back(r.label + ", idle " + idle + " s", detail::spareInitPid(*r.spare));
    }
  }
  std::vector<std::string> lines;
  for (const auto& [label, pid] : ready) {
    const long kb = pid > 0 ? detail::treeRssKb(std::to_string(pid)) : 0;
    lines.push_back(label + ", " + std::to_string((kb + 512) / 1024) + " MB resident");
  }
  return lines;
}

SpareStats spareStats() {
  detail::Pool& p = detail::pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.stats;
}

}  // namespace greenlight::sandbox
