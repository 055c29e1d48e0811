// Async-signal-safe helpers for the sandbox child (after clone(), before execve()).
// Nothing here allocates, locks or touches stdio: only fixed buffers and raw system calls.
#pragma once

#include <cstddef>

#include "sandbox/Plan.h"

namespace greenlight::sandbox::detail {

// Appends `src` to the NUL-terminated `dst` of capacity `cap`, truncating.
void appendStr(char* dst, std::size_t cap, const char* src);

// Sends a SetupError message "<step>: <call>(<path>): <errno>" to the parent. Never fails
// loudly: if the parent is gone there is nobody to tell.
void reportFailure(int statusFd, const char* step, const char* call, const char* path, int err);

// Sends a small message without an fd.
void sendMessage(int statusFd, const ChildMessage& message);

// Writes all of `data` to `path` (O_CREAT|O_TRUNC). Returns 0 or an errno.
int writeWholeFile(const char* path, const char* data, std::size_t size, int mode);

}  // namespace greenlight::sandbox::detail
