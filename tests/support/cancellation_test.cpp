#include <poll.h>

#include <atomic>
#include <thread>

#include <catch2/catch.hpp>

#include "support/Cancellation.h"

using greenlight::support::CancellationSource;
using greenlight::support::CancellationToken;

static bool readable(int fd, int timeoutMs) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, timeoutMs) == 1 && (p.revents & POLLIN);
}

TEST_CASE("a default token is never cancelled and has no fd") {
  CancellationToken t;
  CHECK_FALSE(t.isCancelled());
  CHECK(t.fd() == -1);
  bool ran = false;
  CHECK(t.onCancel([&] { ran = true; }) == -1);
  CHECK_FALSE(ran);
}

TEST_CASE("cancel sets the flag, makes the fd readable and runs callbacks once") {
  CancellationSource src;
  auto tok = src.token();
  int calls = 0;
  tok.onCancel([&] { ++calls; });
  int removed = tok.onCancel([&] { calls += 100; });
  tok.removeCallback(removed);
  CHECK_FALSE(readable(tok.fd(), 0));
  src.cancel();
  src.cancel();
  CHECK(tok.isCancelled());
  CHECK(readable(tok.fd(), 0));
  CHECK(calls == 1);
  bool late = false;
  tok.onCancel([&] { late = true; });
  CHECK(late);  // registering after cancellation runs at once
}

TEST_CASE("cancel from another thread wakes a poller") {
  CancellationSource src;
  auto tok = src.token();
  std::thread t([src]() mutable { src.cancel(); });
  CHECK(readable(tok.fd(), 5000));
  t.join();
  CHECK(tok.isCancelled());
}
