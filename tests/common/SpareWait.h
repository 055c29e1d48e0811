// Waiting for the sandbox's spare builder (sandbox/Spares.h), for tests of any module that run
// through the sandbox with spares on.
#pragma once

#include <chrono>
#include <thread>

#include "TestTime.h"
#include "sandbox/Sandbox.h"

namespace gltest {

// Waits (bounded, scaled) until the spares' builder has finished a build since `since`: a spare
// made ready, or one dropped (already had one for its shape, or it failed at once).
inline bool waitBuilderProgress(const greenlight::sandbox::SpareStats& since) {
  const auto until = std::chrono::steady_clock::now() + scaled(std::chrono::seconds(30));
  for (;;) {
    const greenlight::sandbox::SpareStats now = greenlight::sandbox::spareStats();
    if (now.built > since.built || now.discarded > since.discarded) return true;
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace gltest
