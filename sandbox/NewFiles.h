// New files in a read-only bind: a file bind whose target does not exist inside the read-only
// directory bind enclosing it (an unsaved test file a project runner must find by its own
// patterns) cannot get a mount point there: the bind is read-only and the host is never written.
// Such binds are split out and shown instead through a read-only overlayfs over the nearest
// directory that exists: lowerdir = a staging directory holding copies of the new files, then
// the host directory. The directory's other entries, contents and read-only state are the host's.
// Every function here is thread-safe: it reads only its arguments and the host's filesystem.
#pragma once

#include <string>
#include <vector>

#include "sandbox/Plan.h"
#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

struct ResolvedBind {
  std::string host, target;  // host: canonical; target: absolute, normal, inside the sandbox
  bool writable = false, isDir = false;
};

// Canonicalises the policy's binds (sources must exist). Returns an error sentence, or empty.
std::string resolveBinds(const Policy& policy, std::vector<ResolvedBind>& out);

struct NewFile {
  std::string source;  // canonical host file whose contents appear
  std::string rel;     // its path below the overlaid directory (may cross directories made new)
};
struct NewFileDir {
  std::string hostDir;  // the existing host directory the overlay shows
  std::string target;   // where it is seen in the sandbox (the overlay's mount point)
  std::vector<NewFile> files;
};

// Moves every new-file bind out of `binds` into `dirs` (one entry per overlaid directory, so new
// files of one directory share one overlay). Returns an error sentence, or empty: a directory
// whose path overlayfs options cannot carry (':' ',' '\') is refused.
std::string splitNewFiles(std::vector<ResolvedBind>& binds, std::vector<NewFileDir>& dirs);

// The staging ops (a tmpfs at kNewFilesStaging holding the copies, read now) to go before the
// binds, and the overlay of dirs[i] (`overlays[i]`, to go where a bind of its target would).
// The Detach op of the staging tmpfs goes after every overlay. Returns an error, or empty.
inline constexpr const char* kNewFilesStaging = "/.gl-new";
std::string planNewFiles(const std::vector<NewFileDir>& dirs, std::vector<MountOp>& staging,
                         std::vector<MountOp>& overlays, MountOp& detach);

// Whether the policy has a new-file bind. Its copy is made when the sandbox is built, so such a
// run must not take a spare built ahead (it would show the file as it was then). Stats host paths.
bool hasNewFiles(const Policy& policy);

}  // namespace greenlight::sandbox::detail
