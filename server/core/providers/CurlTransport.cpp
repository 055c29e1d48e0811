// Threading model of the provider layer
// =====================================
//
// One thread, owned by this CurlTransport, does all network I/O for every provider request in
// the process. The LSP loop (or the CLI, or a test) never blocks on the network: it calls
// start()/cancel()/post()/after(), which only append a Command to a mutex-protected queue and
// write to an eventfd. The I/O thread sleeps in curl_multi_poll() with that eventfd as an extra
// descriptor, so a new request, a cancellation or a posted function wakes it at once; a
// cancellation therefore aborts its transfer within one loop turn (well under 100 ms).
//
// The I/O thread owns every curl handle: easy handles are created, added, removed and cleaned up
// only there, so libcurl itself is never touched from two threads. libcurl is dlopen'ed on that
// thread on the first request, which keeps both the start-up of every greenlight process and the
// LSP thread free of its cost.
//
// Each loop turn: run the queued commands, fire due timers (backoff waits), let curl do the
// ready work (curl_multi_perform, which calls our header/write callbacks), collect finished
// transfers, abandon streams that stalled, then poll until the earliest of: curl's own timeout,
// the next timer, the next stall deadline, or a wake-up.
//
// All handler callbacks (onHead, onBody, onDone), timer functions and posted functions run on
// the I/O thread, one at a time. They must be short and must not block; they may call back into
// the transport (start a retry, cancel another transfer) because that only queues a command.
// onDone is called exactly once per start(), after the transfer's curl handle is gone.
//
// Shutdown (destructor): the loop stops, remaining timers fire, transfers in flight and queued
// starts end with Cancelled, and the thread is joined; nothing runs after the destructor.
#include "core/providers/CurlTransport.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/providers/CurlLibrary.h"
#include "core/providers/Redact.h"
#include "support/Log.h"

namespace greenlight::core::providers {

using SteadyClock = std::chrono::steady_clock;

struct CurlTransport::Command {
  enum Kind { Start, Cancel, Post } kind;
  std::uint64_t id = 0;
  HttpRequest request;
  HttpHandlers handlers;
  std::function<void()> fn;
};

struct CurlTransport::Transfer {
  std::uint64_t id = 0;
  CURL* easy = nullptr;
  curl_slist* headerList = nullptr;
  HttpRequest request;
  HttpHandlers handlers;
  HttpHead head;
  bool headDelivered = false;
  bool aborted = false;  // onBody returned false
  std::uint64_t bytes = 0;
  SteadyClock::time_point lastActivity;
  char errorBuffer[CURL_ERROR_SIZE] = {};
  const CurlLibrary* lib = nullptr;

  void deliverHead() {
    if (headDelivered) return;
    headDelivered = true;
    long code = 0;
    lib->easyGetinfo(easy, CURLINFO_RESPONSE_CODE, &code);
    if (code > 0) head.status = static_cast<int>(code);
    if (handlers.onHead) handlers.onHead(head);
  }
};

namespace {

size_t onHeaderLine(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<CurlTransport::Transfer*>(user);
  size_t n = size * count;
  std::string_view line(data, n);
  t->lastActivity = SteadyClock::now();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new status line (after 100 Continue, or a new attempt): start over.
    t->head.headers.clear();
    auto sp = line.find(' ');
    if (sp != std::string_view::npos) t->head.status = std::atoi(std::string(line.substr(sp + 1, 3)).c_str());
  } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    GL_LOG(Trace, "provider http #" << t->id << " < " << redactHeaderLine(line));
    t->head.headers[name] = std::string(value);
  }
  return n;
}

size_t onBodyBytes(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<CurlTransport::Transfer*>(user);
  size_t n = size * count;
  t->lastActivity = SteadyClock::now();
  t->bytes += n;
  t->deliverHead();
  if (t->handlers.onBody && !t->handlers.onBody(std::string_view(data, n))) {
    t->aborted = true;
    return 0;  // makes curl fail the transfer with CURLE_WRITE_ERROR
  }
  return n;
}

HttpFailure classify(CURLcode rc, bool connected) {
  switch (rc) {
    case CURLE_OK: return HttpFailure::None;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return HttpFailure::Resolve;
    case CURLE_COULDNT_CONNECT: return HttpFailure::Connect;
    case CURLE_OPERATION_TIMEDOUT: return connected ? HttpFailure::Timeout : HttpFailure::Connect;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE: return HttpFailure::Tls;
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return HttpFailure::Dropped;
    case CURLE_WRITE_ERROR:
    case CURLE_ABORTED_BY_CALLBACK: return HttpFailure::Aborted;
    default: return HttpFailure::Other;
  }
}

}  // namespace

CurlTransport::CurlTransport() {
  wakeFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  thread_ = std::thread([this] { loop(); });
  std::unique_lock<std::mutex> lock(mutex_);
  // ioThreadId_ is written by the thread before it takes the first command; wait for it so
  // onIoThread() is exact from the start.
  while (ioThreadId_ == std::thread::id()) {
    lock.unlock();
    std::this_thread::yield();
    lock.lock();
  }
}

CurlTransport::~CurlTransport() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake();
  if (thread_.joinable()) thread_.join();
  if (wakeFd_ >= 0) ::close(wakeFd_);
}

void CurlTransport::wake() {
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wakeFd_, &one, sizeof one);
}

std::uint64_t CurlTransport::start(HttpRequest request, HttpHandlers handlers) {
  std::uint64_t id;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    id = nextId_++;
    Command c{Command::Start, id, std::move(request), std::move(handlers), {}};
    commands_.push_back(std::move(c));
  }
  wake();
  return id;
}

void CurlTransport::cancel(std::uint64_t id) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    commands_.push_back(Command{Command::Cancel, id, {}, {}, {}});
  }
  wake();
}

void CurlTransport::post(std::function<void()> fn) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    commands_.push_back(Command{Command::Post, 0, {}, {}, std::move(fn)});
  }
  wake();
}

bool CurlTransport::onIoThread() const { return std::this_thread::get_id() == ioThreadId_; }

std::uint64_t CurlTransport::after(std::chrono::milliseconds delay, std::function<void()> fn) {
  std::uint64_t id;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    id = nextId_++;
    timers_[id] = std::move(fn);
    timerQueue_.emplace(SteadyClock::now() + std::max(delay, std::chrono::milliseconds(0)), id);
  }
  wake();
  return id;
}

bool CurlTransport::cancelTimer(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return timers_.erase(id) > 0;  // the queue entry is skipped when it comes due
}

std::size_t CurlTransport::activeTransfers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return activeCount_;
}

void CurlTransport::drainCommands(bool stopping) {
  std::deque<Command> batch;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    batch.swap(commands_);
  }
  for (auto& c : batch) {
    switch (c.kind) {
      case Command::Start:
        if (stopping) {
          if (c.handlers.onDone) c.handlers.onDone(HttpOutcome{HttpFailure::Cancelled, 0, "shutting down", 0});
        } else {
          startTransfer(c.id, std::move(c.request), std::move(c.handlers));
        }
        break;
      case Command::Cancel:
        finishById(c.id, HttpOutcome{HttpFailure::Cancelled, 0, "cancelled", 0});
        break;
      case Command::Post:
        if (c.fn) c.fn();
        break;
    }
  }
}

void CurlTransport::startTransfer(std::uint64_t id, HttpRequest request, HttpHandlers handlers) {
  std::string error;
  const CurlLibrary* lib = loadCurl(&error);
  if (lib && !multi_) {
    multi_ = lib->multiInit();
    if (!multi_) error = "curl_multi_init failed";
  }
  if (!lib || !multi_) {
    if (handlers.onDone) handlers.onDone(HttpOutcome{HttpFailure::Library, 0, error, 0});
    return;
  }
  auto t = std::make_unique<Transfer>();
  t->id = id;
  t->lib = lib;
  t->request = std::move(request);
  t->handlers = std::move(handlers);
  t->lastActivity = SteadyClock::now();
  t->easy = lib->easyInit();
  if (!t->easy) {
    if (t->handlers.onDone) t->handlers.onDone(HttpOutcome{HttpFailure::Other, 0, "curl_easy_init failed", 0});
    return;
  }
  CURL* e = t->easy;
  const HttpRequest& r = t->request;
  lib->easySetopt(e, CURLOPT_URL, r.url.c_str());
  lib->easySetopt(e, CURLOPT_NOSIGNAL, 1L);
  lib->easySetopt(e, CURLOPT_PRIVATE, static_cast<void*>(t.get()));
  lib->easySetopt(e, CURLOPT_ERRORBUFFER, t->errorBuffer);
  lib->easySetopt(e, CURLOPT_HEADERFUNCTION, &onHeaderLine);
  lib->easySetopt(e, CURLOPT_HEADERDATA, static_cast<void*>(t.get()));
  lib->easySetopt(e, CURLOPT_WRITEFUNCTION, &onBodyBytes);
  lib->easySetopt(e, CURLOPT_WRITEDATA, static_cast<void*>(t.get()));
  lib->easySetopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  lib->easySetopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  if (r.totalTimeout.count() > 0) lib->easySetopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(r.totalTimeout.count()));
  if (r.connectTimeout.count() > 0)
    lib->easySetopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.connectTimeout.count()));
  if (r.method == "GET") {
    lib->easySetopt(e, CURLOPT_HTTPGET, 1L);
  } else {
    if (r.method != "POST") lib->easySetopt(e, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    lib->easySetopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    lib->easySetopt(e, CURLOPT_POSTFIELDS, r.body.data());  // t->request outlives the transfer
  }
  curl_slist* list = nullptr;
  for (const auto& [name, value] : r.headers) {
    std::string line = name + ": " + value;
    GL_LOG(Trace, "provider http #" << id << " > " << redactHeaderLine(line));
    list = lib->slistAppend(list, line.c_str());
  }
  list = lib->slistAppend(list, "Expect:");  // no 100-continue round trip for big prompts
  t->headerList = list;
  lib->easySetopt(e, CURLOPT_HTTPHEADER, list);
  GL_LOG(Debug, "provider http #" << id << " " << r.method << " " << r.url << " (" << r.body.size()
                                  << " bytes)");
  if (CURLMcode mc = lib->multiAddHandle(static_cast<CURLM*>(multi_), e); mc != CURLM_OK) {
    lib->easyCleanup(e);
    lib->slistFreeAll(list);
    if (t->handlers.onDone)
      t->handlers.onDone(HttpOutcome{HttpFailure::Other, 0, "curl_multi_add_handle failed", 0});
    return;
  }
  transfers_.emplace(id, std::move(t));
  std::lock_guard<std::mutex> lock(mutex_);
  activeCount_ = transfers_.size();
}

void CurlTransport::finishById(std::uint64_t id, HttpOutcome outcome) {
  auto it = transfers_.find(id);
  if (it == transfers_.end()) return;  // already finished (or never started): nothing to do
  finish(*it->second, std::move(outcome));
}

void CurlTransport::finish(Transfer& t, HttpOutcome outcome) {
  // Take ownership out of the map first: callbacks may start new transfers.
  auto node = transfers_.extract(t.id);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    activeCount_ = transfers_.size();
  }
  std::unique_ptr<Transfer> owned = std::move(node.mapped());
  const CurlLibrary* lib = owned->lib;
  if (outcome.status == 0 && owned->head.status > 0) outcome.status = owned->head.status;
  outcome.bytesReceived = owned->bytes;
  // Give the head to the owner when the response had no body (e.g. an empty 500).
  if (outcome.status > 0 && outcome.failure != HttpFailure::Cancelled) owned->deliverHead();
  lib->multiRemoveHandle(static_cast<CURLM*>(multi_), owned->easy);
  lib->easyCleanup(owned->easy);
  lib->slistFreeAll(owned->headerList);
  owned->easy = nullptr;
  GL_LOG(Debug, "provider http #" << owned->id << " done: status " << outcome.status << ", "
                                  << owned->bytes << " bytes"
                                  << (outcome.detail.empty() ? "" : ", ") << outcome.detail);
  if (owned->handlers.onDone) owned->handlers.onDone(outcome);
}

int CurlTransport::runDueTimers() {
  for (;;) {
    std::function<void()> fn;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (timerQueue_.empty()) return -1;
      auto first = timerQueue_.begin();
      auto now = SteadyClock::now();
      if (first->first > now) {
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(first->first - now).count();
        return static_cast<int>(std::min<long long>(ms + 1, 60000));
      }
      auto it = timers_.find(first->second);
      timerQueue_.erase(first);
      if (it == timers_.end()) continue;  // cancelled
      fn = std::move(it->second);
      timers_.erase(it);
    }
    if (fn) fn();
  }
}

int CurlTransport::checkStalls() {
  auto now = SteadyClock::now();
  int next = -1;
  std::vector<std::uint64_t> stalled;
  for (auto& [id, t] : transfers_) {
    if (t->request.stallTimeout.count() <= 0) continue;
    auto deadline = t->lastActivity + t->request.stallTimeout;
    if (deadline <= now) {
      stalled.push_back(id);
    } else {
      int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
      next = next < 0 ? ms : std::min(next, ms);
    }
  }
  for (auto id : stalled) {
    auto it = transfers_.find(id);
    if (it == transfers_.end()) continue;
    char detail[64];
    std::snprintf(detail, sizeof detail, "no data for %.1f s",
                  std::chrono::duration<double>(it->second->request.stallTimeout).count());
    finish(*it->second, HttpOutcome{HttpFailure::Stall, 0, detail, 0});
  }
  return next;
}

void CurlTransport::loop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ioThreadId_ = std::this_thread::get_id();
  }
  for (;;) {
    bool stopping;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping = stop_;
    }
    if (stopping) break;
    drainCommands(false);
    int timerMs = runDueTimers();

    const CurlLibrary* lib = multi_ ? loadCurl(nullptr) : nullptr;
    if (lib) {
      int running = 0;
      lib->multiPerform(static_cast<CURLM*>(multi_), &running);
      int left = 0;
      while (CURLMsg* msg = lib->multiInfoRead(static_cast<CURLM*>(multi_), &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        void* priv = nullptr;
        lib->easyGetinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
        auto* t = static_cast<Transfer*>(priv);
        CURLcode rc = msg->data.result;
        curl_off_t connectUs = 0;
        lib->easyGetinfo(msg->easy_handle, CURLINFO_CONNECT_TIME_T, &connectUs);
        HttpOutcome out;
        out.failure = t->aborted ? HttpFailure::Aborted : classify(rc, connectUs > 0);
        if (rc != CURLE_OK) out.detail = t->errorBuffer[0] ? t->errorBuffer : lib->easyStrerror(rc);
        finish(*t, std::move(out));  // invalidates msg's handle; info_read continues safely
      }
    }
    int stallMs = checkStalls();

    long curlMs = -1;
    if (lib && !transfers_.empty()) lib->multiTimeout(static_cast<CURLM*>(multi_), &curlMs);
    int wait = 1000;
    for (long ms : {static_cast<long>(timerMs), static_cast<long>(stallMs), curlMs})
      if (ms >= 0) wait = static_cast<int>(std::min<long>(wait, ms));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!commands_.empty() || stop_) wait = 0;
    }
    if (lib && !transfers_.empty()) {
      curl_waitfd extra{wakeFd_, CURL_WAIT_POLLIN, 0};
      lib->multiPoll(static_cast<CURLM*>(multi_), &extra, 1, wait, nullptr);
    } else {
      pollfd p{wakeFd_, POLLIN, 0};
      ::poll(&p, 1, wait);
    }
    std::uint64_t drained;
    [[maybe_unused]] ssize_t n = ::read(wakeFd_, &drained, sizeof drained);
  }

  // Shutdown: let timers and queued work run so every owner hears back, then cancel transfers.
  for (int round = 0; round < 100; ++round) {
    bool more;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::multimap<SteadyClock::time_point, std::uint64_t> due;
      due.swap(timerQueue_);
      for (auto& entry : due) timerQueue_.emplace(SteadyClock::time_point::min(), entry.second);
    }
    runDueTimers();
    drainCommands(true);
    while (!transfers_.empty())
      finish(*transfers_.begin()->second, HttpOutcome{HttpFailure::Cancelled, 0, "shutting down", 0});
    {
      std::lock_guard<std::mutex> lock(mutex_);
      more = !commands_.empty() || !timers_.empty();
    }
    if (!more) break;
  }
  if (multi_) {
    if (const CurlLibrary* lib = loadCurl(nullptr)) lib->multiCleanup(static_cast<CURLM*>(multi_));
    multi_ = nullptr;
  }
}

double SystemClock::jitter() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

}  // namespace greenlight::core::providers
