#include "sandbox/Spares.h"

#include <chrono>
#include <condition_variable>
#include <deque>
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
// A spare older than this is not used: its binds were resolved when it was built, and a
// prefix reinstalled meanwhile (pyenv, nvm) would otherwise show its old contents.
constexpr auto kMaxAge = std::chrono::seconds(60);

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
};

struct Pool {
  std::mutex mutex;
  std::condition_variable wake;
  bool enabled = false;
  bool threadStarted = false;
  std::deque<Job> queue;
  std::vector<Ready> ready;
  SpareStats stats;
};

Pool& pool() {
  static auto* p = new Pool;  // never destroyed: the builder thread may use it until exit
  return *p;
}

void builderLoop() {
  Pool& p = pool();
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(p.mutex);
      p.wake.wait(lock, [&] { return !p.queue.empty(); });
      job = std::move(p.queue.front());
      p.queue.pop_front();
    }
    std::unique_ptr<Execution> spare = launchSpare(job.policy, job.mode, job.tryUserNs);
    std::unique_ptr<Execution> drop;  // destroyed outside the lock
    {
      std::lock_guard<std::mutex> lock(p.mutex);
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
        p.ready.push_back({job.key, std::move(spare), Clock::now()});
        ++p.stats.built;
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
  return key.str();
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
      p.ready.erase(it);
      if (fresh) {
        ++p.stats.used;
        return spare;
      }
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
  // The spare's own policy: the shape only. The run's argv, environment, working directory,
  // stdin and seed come with its go request.
  Policy shape = policy;
  shape.profile = resolveProfile(policy.profile, policy.argv.empty() ? std::string() : policy.argv[0]);
  shape.argv = {"spare"};
  shape.env.clear();
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

SpareStats spareStats() {
  detail::Pool& p = detail::pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.stats;
}

}  // namespace greenlight::sandbox
