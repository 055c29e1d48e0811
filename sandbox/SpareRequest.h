// The go request of a held spare (Spares.h): what to run and what to put in /work, written by
// the supervisor into a memfd that the spare's init maps read-only.
//
// Layout, native byte order:
//   RequestHeader
//   stringsBytes of NUL-terminated strings: workdir, argv[argc], envp[envc], candidates[candc]
//   seedEntries times: SeedEntryHeader, the path (pathBytes, NUL-terminated, relative to
//   /work, parents before children), then dataBytes of file contents or symlink target
//   (NUL-terminated).
//   at slotsOffset (8-aligned): zeroed room for argc + envc + candc + 3 pointers, which init
//   fills in. init maps the memfd shared: a shared mapping is not counted by RLIMIT_DATA,
//   already in force in init (and nearly used up by a sanitizer runtime's own mappings).
//
// The host tree is read here, with the supervisor's rights, so the spare's init (already
// unprivileged and pivoted away from the host) only writes into its own tmpfs.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sandbox/Plan.h"
#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

inline constexpr std::uint32_t kRequestMagic = 0x676c7271;  // "glrq"

struct RequestHeader {
  std::uint32_t magic;
  std::uint32_t argc, envc, candc;
  std::uint64_t stringsBytes;
  std::uint64_t seedEntries;
  std::uint64_t slotsOffset;
};

enum class SeedKind : std::uint32_t { Dir = 1, File = 2, Symlink = 3 };

struct SeedEntryHeader {
  SeedKind kind;
  std::uint32_t mode;
  std::uint64_t pathBytes;
  std::uint64_t dataBytes;
};

struct SpareRequest {
  int fd = -1;        // memfd, close-on-exec; the caller closes it
  std::string error;  // why no request could be made (the caller then starts cold)
};

// Serialises policy's workdir/argv/environment (as planExec builds them for a namespaced
// sandbox) and its scratchSource tree. A tree the cold path would treat differently (a file
// over the file-size limit, more than the scratch space) yields an error, not a request.
// `skip`: paths relative to /work that are there already (a warm spare's files and their
// directories, WarmStart::files), left out of the seed.
SpareRequest buildSpareRequest(const Policy& policy, const std::set<std::string>* skip = nullptr);

// A warm spare's files (WarmStart::files) as a request with no strings and only seed entries:
// each file (0644) after its parent directories (0755).
SpareRequest buildPreseedRequest(const std::vector<std::pair<std::string, std::string>>& files);

// The relative paths buildPreseedRequest creates for `files`: the files and every parent.
std::set<std::string> preseedPaths(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace greenlight::sandbox::detail
