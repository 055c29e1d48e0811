// Private parents: how a sandbox started by root reaches a bind whose way in, inside an enclosing
// bind, crosses a directory its unprivileged uid may not enter (the essay is in PrivateParents.cpp).
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "sandbox/Plan.h"

namespace greenlight::sandbox::detail {

struct PlannedBind {
  std::string host, target;  // host: canonical; target: absolute path inside the sandbox
};

// Root mode only (Mode::RootThenUserNs), `binds` sorted parents first. For each bind nested in an
// enclosing one, the first directory on its way in (from the enclosing target down to the nested
// target's parent) that `uid`/`gid` could not search on the host is covered by an empty tmpfs
// (mode 0755, root's): `before[i]` gets that tmpfs op, to go ahead of bind i's mkdirs and bind.
// `seals` gets one op per tmpfs, to go after every bind: it makes the tmpfs read-only. A directory
// already covered is not covered again; a bind that is itself private stays private.
void planPrivateParents(const std::vector<PlannedBind>& binds, uid_t uid, gid_t gid,
                        std::vector<std::vector<MountOp>>& before, std::vector<MountOp>& seals);

// Whether `path` is strictly below directory `dir` (both absolute, normal).
bool strictlyUnder(const std::string& path, const std::string& dir);

// Whether `uid`/`gid` (no supplementary groups: the sandbox clears them) may search directory
// `st` by its mode bits.
bool searchableBy(const struct stat& st, uid_t uid, gid_t gid);

}  // namespace greenlight::sandbox::detail
