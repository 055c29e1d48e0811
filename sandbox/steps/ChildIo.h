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

// One message of `size` bytes with `fdCount` (at most 2) fds attached (SCM_RIGHTS) on a
// SOCK_SEQPACKET socket; EINTR retried, MSG_NOSIGNAL. Returns what sendmsg returned (errno set).
// Used on both sides of the status socket: it allocates nothing.
long sendWithFds(int sock, const void* data, std::size_t size, const int* fds, std::size_t fdCount);

// Receives one message into `data` (up to `size` bytes) and up to 2 fds, close-on-exec, into
// `fds` (*fdCount says how many; extra ones are closed by the kernel). `flags` as recvmsg's
// (MSG_DONTWAIT). EINTR retried. Returns what recvmsg returned (errno set).
long recvWithFds(int sock, void* data, std::size_t size, int* fds, std::size_t* fdCount, int flags);

// Writes all of `data` to `fd` (EINTR retried). Returns 0 or an errno (EIO for a 0-byte write).
int writeAllFd(int fd, const char* data, std::size_t size);

// Writes all of `data` to `path` (O_CREAT|O_TRUNC). Returns 0 or an errno.
int writeWholeFile(const char* path, const char* data, std::size_t size, int mode);

}  // namespace greenlight::sandbox::detail
