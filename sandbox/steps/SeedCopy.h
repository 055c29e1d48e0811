// Copies a host directory tree into the sandbox's scratch tmpfs (async-signal-safe: fixed
// buffers, raw calls). Regular files, directories and symlinks are copied; anything else
// (sockets, fifos, devices) is skipped. Hard links become separate files, so nothing written
// inside can reach the host copy.
#pragma once

#include <sys/types.h>

namespace greenlight::sandbox::detail {

// Returns 0 or the first errno. With `chown`, every created entry is handed to uid/gid.
int seedCopy(const char* source, const char* target, bool chown, uid_t uid, gid_t gid);

}  // namespace greenlight::sandbox::detail
