// Deferred reaping of sandbox inits that have already reported their payload's end.
//
// Once init has killed and reaped every untrusted task and said so, the run is over; what is
// left is the kernel tearing the namespaces down as init exits (unmounting the tree, freeing
// the network namespace), about half a millisecond that no caller needs to wait for. Such an
// init's pidfd is handed here, and zombies are collected without blocking at the next
// sandbox start. Thread-safe.
#pragma once

namespace greenlight::sandbox::detail {

// Takes ownership of `pidfd`, whose process has been sent SIGKILL or is exiting by itself.
void reapLater(int pidfd);

// Collects every finished one (non-blocking); if too many are still pending, waits for the
// oldest, so their number stays bounded.
void reapFinished();

}  // namespace greenlight::sandbox::detail
