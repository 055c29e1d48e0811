// See TestService.h for the threading model. Lock order: mutex_ only; a RunHandle::State's
// mutex is never held while taking mutex_.
#include "core/testing/TestService.h"

#include <algorithm>
#include <filesystem>

#include "core/testing/adapters/TestJob.h"
#include "support/Log.h"

namespace greenlight::core::testing {

struct RunHandle::State {
  std::uint64_t id = 0;
  mutable std::mutex mutex;
  mutable std::condition_variable cv;
  bool done = false;
  RunOutcome outcome;
  support::CancellationSource source;
};

struct TestService::Job {
  RunRequest request;
  std::shared_ptr<RunHandle::State> state;
  std::string key;  // normalised path
  int callerRegistration = -1;
};

std::uint64_t RunHandle::id() const { return state_ ? state_->id : 0; }

const RunOutcome& RunHandle::wait() const {
  std::unique_lock<std::mutex> lock(state_->mutex);
  state_->cv.wait(lock, [&] { return state_->done; });
  return state_->outcome;
}

bool RunHandle::done() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->done;
}

void RunHandle::cancel() const {
  if (state_) state_->source.cancel();
}

TestService::TestService() : TestService(Options{}) {}

TestService::TestService(Options options) : options_(std::move(options)) {
  unsigned n = options_.workers ? options_.workers : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i) workers_.emplace_back([this] { workerLoop(); });
}

TestService::~TestService() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (auto& [path, jobs] : active_) {
      for (auto& j : jobs) j->state->source.cancel();
    }
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

namespace {

std::string normalisedPath(const std::string& path) {
  std::error_code ec;
  return std::filesystem::absolute(path, ec).lexically_normal().string();
}

}  // namespace

RunHandle TestService::start(RunRequest request) {
  auto job = std::make_shared<Job>();
  job->state = std::make_shared<RunHandle::State>();
  job->key = normalisedPath(request.path);
  job->request = std::move(request);
  // The caller's token cancels this run's own source (which the sandbox watches).
  support::CancellationSource source = job->state->source;
  job->callerRegistration = job->request.cancel.onCancel([source]() mutable { source.cancel(); });
  RunHandle handle;
  handle.state_ = job->state;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job->state->id = nextId_++;
    auto& same = active_[job->key];
    for (auto& old : same) old->state->source.cancel();  // a new run supersedes the old ones
    same.push_back(job);
    queue_.push_back(job);
    if (stopping_) job->state->source.cancel();
  }
  cv_.notify_one();
  return handle;
}

void TestService::cancelFile(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = active_.find(normalisedPath(path));
  if (it == active_.end()) return;
  for (auto& j : it->second) j->state->source.cancel();
}

void TestService::clearCache() {
  std::lock_guard<std::mutex> lock(mutex_);
  cache_.clear();
  cacheOrder_.clear();
}

std::size_t TestService::cacheSize() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.size();
}

void TestService::workerLoop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      job = queue_.front();
      queue_.pop_front();
    }
    RunOutcome outcome;
    try {
      outcome = execute(*job);
    } catch (const std::exception& e) {
      outcome.result.file = job->key;
      outcome.result.error = std::string("test run failed: ") + e.what();
    }
    finish(*job, std::move(outcome));
  }
}

RunOutcome TestService::runNow(RunRequest request) {
  Job job;
  job.state = std::make_shared<RunHandle::State>();
  job.key = normalisedPath(request.path);
  job.request = std::move(request);
  support::CancellationSource source = job.state->source;
  job.callerRegistration = job.request.cancel.onCancel([source]() mutable { source.cancel(); });
  RunOutcome outcome = execute(job);
  job.request.cancel.removeCallback(job.callerRegistration);
  return outcome;
}

namespace {

// What discovery needs of a run request; `request` must outlive the result (config by pointer).
DiscoveryRequest discoveryFor(const RunRequest& request, const std::string& path,
                              const std::map<std::string, std::string>& toolEnvironment) {
  DiscoveryRequest dr;
  dr.path = path;
  dr.line = request.line;
  dr.workspaceRoot = request.workspaceRoot;
  dr.config = &request.config;
  dr.overlay = request.overlay;
  dr.functionName = request.functionName;
  dr.extraTestFiles = request.extraTestFiles;
  dr.extraAreProjectTests = request.extraAreProjectTests;
  dr.toolEnvironment = toolEnvironment;
  return dr;
}

}  // namespace

void TestService::prepare(RunRequest request) {
  if (options_.executor) return;
  std::string error;
  auto planned = planTests(discoveryFor(request, normalisedPath(request.path), options_.toolEnvironment), &error);
  if (!planned || planned->plan.empty()) return;
  const TestPlan* plan = &planned->plan;
  RunOptions ro;
  ro.config = request.config;
  ro.overlay = request.overlay;
  ro.timeoutSeconds = fittedTimeLimit(request, *plan);
  ro.hangSeconds = hangSeconds(request);
  ro.doctests = request.doctests;
  ro.toolEnvironment = options_.toolEnvironment;
  ro.warm = request.config.sandbox.warmInterpreters;
  ro.prepareOnly = true;
  runTests(*planned, ro);
}

double TestService::fittedTimeLimit(const RunRequest& request, const TestPlan& plan) const {
  if (request.timeoutSeconds > 0) return request.timeoutSeconds;
  const auto& sandbox = request.config.sandbox;
  if (!sandbox.timeLimitAuto) return sandbox.timeLimitSeconds;  // a number: a hard limit
  // null: the hang watchdog (hangSeconds) catches a hung test; the whole run gets room for
  // the suite as it ran last time (a function's tests are a part of their file's).
  double last = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = lastWholeRunSeconds_.find(plan.sourceFile + "\n" + plan.runner); it != lastWholeRunSeconds_.end()) last = it->second;
  }
  return std::max(kWholeRunSeconds, 3 * last);
}

double TestService::hangSeconds(const RunRequest& request) {
  const auto& sandbox = request.config.sandbox;
  return request.timeoutSeconds <= 0 && sandbox.timeLimitAuto ? sandbox.timeLimitSeconds : 0;
}

RunOutcome TestService::execute(Job& job) {
  RunOutcome outcome;
  const RunRequest& req = job.request;
  outcome.result.file = job.key;
  auto token = job.state->source.token();
  if (token.isCancelled()) {
    outcome.result.cancelled = true;
    return outcome;
  }
  std::string error;
  // A file discovery refuses still says what it is (an unknown extension: "command").
  outcome.result.language = languageForPath(job.key).value_or(Language::Command);
  auto planned = planTests(discoveryFor(req, job.key, options_.toolEnvironment), &error);
  if (!planned) {
    outcome.result.error = error;
    return outcome;
  }
  // The runner narrows its own way (pytest node ids, unittest -k).
  if (!req.selectTests.empty()) selectTests(*planned, req.selectTests);
  const TestPlan* plan = &planned->plan;
  outcome.plan = *plan;
  outcome.result.language = plan->language;
  outcome.result.files.push_back(plan->sourceFile);
  for (const auto& t : plan->testFiles) outcome.result.files.push_back(t);
  if (plan->empty()) {
    outcome.result.discoveryNote = plan->discoveryNote;
    outcome.noTests = true;
    outcome.result.selectionNote = plan->selectionNote;  // why there are none, when the adapter knows
    return outcome;
  }
  RunOptions ro;
  ro.config = req.config;
  ro.overlay = req.overlay;
  ro.timeoutSeconds = fittedTimeLimit(req, *plan);
  ro.hangSeconds = hangSeconds(req);
  ro.clock = options_.clock;
  ro.cancelFd = token.fd();
  ro.doctests = req.doctests;
  ro.executor = options_.executor;
  ro.toolEnvironment = options_.toolEnvironment;
  ro.warm = req.config.sandbox.warmInterpreters;
  if (req.onTest) {
    ro.onTestResult = [&req, token](const TestResult& r) {
      if (!token.isCancelled()) req.onTest(r);
    };
  }
  const std::string key = runFingerprint(*plan, ro);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(key);
    if (it != cache_.end()) {
      outcome.result = it->second;
      outcome.result.cached = true;
      return outcome;
    }
  }
  outcome.result = runTests(*planned, ro);
  if (token.isCancelled()) outcome.result.cancelled = true;
  // A run stopped by a limit says nothing of how long the suite takes (and must not widen it).
  const bool stopped = outcome.result.verdict && (outcome.result.verdict->status == sandbox::Status::Timeout ||
                                                  outcome.result.verdict->status == sandbox::Status::CpuLimit);
  if (!plan->function && outcome.result.verdict && !outcome.result.cancelled && !stopped) {
    std::lock_guard<std::mutex> lock(mutex_);
    lastWholeRunSeconds_[plan->sourceFile + "\n" + plan->runner] = outcome.result.verdict->wallMs / 1000.0;
  }
  if (!outcome.result.cancelled && outcome.result.error.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cache_.emplace(key, outcome.result).second) cacheOrder_.push_back(key);
    while (cache_.size() > options_.cacheEntries && !cacheOrder_.empty()) {
      cache_.erase(cacheOrder_.front());
      cacheOrder_.pop_front();
    }
  }
  return outcome;
}

void TestService::finish(Job& job, RunOutcome outcome) {
  job.request.cancel.removeCallback(job.callerRegistration);
  if (job.request.onDone) {
    try {
      job.request.onDone(outcome);
    } catch (const std::exception& e) {
      GL_LOG(Error, "runTests onDone callback threw: " << e.what());
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = active_.find(job.key);
    if (it != active_.end()) {
      auto& v = it->second;
      v.erase(std::remove_if(v.begin(), v.end(), [&](const std::shared_ptr<Job>& j) { return j->state == job.state; }), v.end());
      if (v.empty()) active_.erase(it);
    }
  }
  {
    std::lock_guard<std::mutex> lock(job.state->mutex);
    job.state->outcome = std::move(outcome);
    job.state->done = true;
  }
  job.state->cv.notify_all();
}

}  // namespace greenlight::core::testing
