// Step (spares only): await go. A held spare has done every other step; its init now blocks
// on the status socket until the supervisor sends the run: a GoMessage with the request memfd
// (SpareRequest.h) and maybe a stdin fd. init maps the request read-only, seeds /work from it,
// takes the stdin, moves to the working directory and points `spec` into the mapping. Like
// every step it is async-signal-safe: raw calls and mmap, no allocator.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox/SpareRequest.h"
#include "sandbox/steps/ChildIo.h"
#include "sandbox/steps/Steps.h"

namespace greenlight::sandbox::detail {
namespace {

constexpr const char* kStep = "go";

bool fail(const LaunchPlan& plan, const char* call, const char* path, int err) {
  reportFailure(plan.statusFd, kStep, call, path, err);
  return false;
}

// Walks `count` NUL-terminated strings from *cursor, storing pointers; false if they overrun.
bool takeStrings(const char*& cursor, const char* end, std::uint32_t count, char** into) {
  for (std::uint32_t i = 0; i < count; ++i) {
    const void* nul = std::memchr(cursor, '\0', static_cast<std::size_t>(end - cursor));
    if (nul == nullptr) return false;
    into[i] = const_cast<char*>(cursor);
    cursor = static_cast<const char*>(nul) + 1;
  }
  return true;
}

bool safeRelative(const char* path) {
  if (path[0] == '\0' || path[0] == '/') return false;
  for (const char* p = path; *p != '\0';) {
    const char* slash = std::strchr(p, '/');
    std::size_t len = slash != nullptr ? static_cast<std::size_t>(slash - p) : std::strlen(p);
    if ((len == 2 && p[0] == '.' && p[1] == '.') || len == 0) return false;
    p += len + (slash != nullptr ? 1 : 0);
  }
  return true;
}

// Recreates the request's seed entries under /work. Returns false after reporting.
bool unpackSeed(const LaunchPlan& plan, const char* cursor, const char* end, std::uint64_t entries) {
  int work = ::open("/work", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (work < 0) return fail(plan, "open", "/work", errno);
  for (std::uint64_t i = 0; i < entries; ++i) {
    SeedEntryHeader h;
    if (static_cast<std::size_t>(end - cursor) < sizeof h) return fail(plan, "read", "request", EPROTO);
    std::memcpy(&h, cursor, sizeof h);
    cursor += sizeof h;
    if (h.pathBytes == 0 || h.pathBytes > static_cast<std::uint64_t>(end - cursor) ||
        h.dataBytes > static_cast<std::uint64_t>(end - cursor) - h.pathBytes || cursor[h.pathBytes - 1] != '\0')
      return fail(plan, "read", "request", EPROTO);
    const char* path = cursor;
    const char* data = cursor + h.pathBytes;
    cursor = data + h.dataBytes;
    if (!safeRelative(path)) return fail(plan, "seed", path, EINVAL);
    switch (h.kind) {
      case SeedKind::Dir:
        if (::mkdirat(work, path, h.mode) != 0) return fail(plan, "mkdirat", path, errno);
        break;
      case SeedKind::File: {
        int fd = ::openat(work, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, h.mode);
        if (fd < 0) return fail(plan, "openat", path, errno);
        int err = writeAllFd(fd, data, static_cast<std::size_t>(h.dataBytes));
        ::close(fd);
        if (err != 0) return fail(plan, "write", path, err);
        break;
      }
      case SeedKind::Symlink:
        if (h.dataBytes == 0 || data[h.dataBytes - 1] != '\0') return fail(plan, "read", "request", EPROTO);
        if (::symlinkat(data, work, path) != 0) return fail(plan, "symlinkat", path, errno);
        break;
      default:
        return fail(plan, "read", "request", EPROTO);
    }
  }
  ::close(work);
  return true;
}

// Receives the supervisor's next message on the status socket, which must carry `magic` and
// one fd (two when it says hasStdin). The supervisor closing the socket means it dropped this
// spare: init leaves quietly.
bool receiveMessage(const LaunchPlan& plan, std::uint32_t magic, const char* what, GoMessage* message, int fds[2]) {
  std::memset(message, 0, sizeof *message);
  std::size_t fdCount = 0;
  long n = recvWithFds(plan.statusFd, message, sizeof *message, fds, &fdCount, 0);
  if (n == 0) ::_exit(0);
  if (n < 0) return fail(plan, "recvmsg", what, errno);
  if (static_cast<std::size_t>(n) != sizeof *message || message->magic != magic ||
      fdCount != (message->hasStdin ? 2u : 1u))
    return fail(plan, "recvmsg", what, EPROTO);
  return true;
}

// Maps the request memfd `fd` (shared: RLIMIT_DATA, already applied, does not count it) and
// closes the fd; nullptr once a failure is reported. *size is the request's length.
char* mapRequest(const LaunchPlan& plan, int fd, int prot, const char* what, std::size_t* size) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    fail(plan, "fstat", what, errno);
    return nullptr;
  }
  *size = static_cast<std::size_t>(st.st_size);
  if (*size < sizeof(RequestHeader)) {
    fail(plan, "read", what, EPROTO);
    return nullptr;
  }
  void* map = ::mmap(nullptr, *size, prot, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    fail(plan, "mmap", what, errno);
    return nullptr;
  }
  ::close(fd);
  return static_cast<char*>(map);
}

}  // namespace

bool receivePreseed(const LaunchPlan& plan) {
  GoMessage message;
  int fds[2] = {-1, -1};
  if (!receiveMessage(plan, kPreseedMagic, "warm files", &message, fds)) return false;
  std::size_t size = 0;
  char* base = mapRequest(plan, fds[0], PROT_READ, "warm files", &size);
  if (base == nullptr) return false;
  RequestHeader h;
  std::memcpy(&h, base, sizeof h);
  if (h.magic != kRequestMagic || h.argc != 0 || h.envc != 0 || h.candc != 0 || h.stringsBytes != 0 ||
      h.slotsOffset > size || h.slotsOffset < sizeof h)
    return fail(plan, "read", "warm files", EPROTO);
  bool ok = unpackSeed(plan, base + sizeof h, base + h.slotsOffset, h.seedEntries);
  ::munmap(base, size);
  return ok;
}

bool awaitGo(const LaunchPlan& plan, ExecSpec* spec) {
  GoMessage go;
  int fds[2] = {-1, -1};
  if (!receiveMessage(plan, kGoMagic, "go", &go, fds)) return false;
  std::size_t size = 0;
  char* map = mapRequest(plan, fds[0], PROT_READ | PROT_WRITE, "request", &size);
  if (map == nullptr) return false;
  const char* base = map;
  const char* end = base + size;  // narrowed to the seed region once the header is checked
  RequestHeader h;
  std::memcpy(&h, base, sizeof h);
  if (h.magic != kRequestMagic || h.argc == 0 || h.stringsBytes > size - sizeof h || h.argc > (1u << 20) ||
      h.envc > (1u << 20) || h.candc > (1u << 16))
    return fail(plan, "read", "request", EPROTO);

  // Pointer arrays, in the room the request left for them: the workdir slot, argv + NULL,
  // envp + NULL, candidates.
  const std::size_t slots = std::size_t{h.argc} + 1 + h.envc + 1 + h.candc + 1;
  if (h.slotsOffset % alignof(char*) != 0 || h.slotsOffset > size || h.slotsOffset < sizeof h + h.stringsBytes || (size - h.slotsOffset) / sizeof(char*) < slots)
    return fail(plan, "read", "request", EPROTO);
  auto** slot = reinterpret_cast<char**>(map + h.slotsOffset);
  char** workdir = slot;
  char** argv = slot + 1;
  char** envp = argv + h.argc + 1;
  char** candidates = envp + h.envc + 1;
  const char* cursor = base + sizeof h;
  const char* stringsEnd = cursor + h.stringsBytes;
  end = base + h.slotsOffset;  // the seed entries stop where the slots begin
  if (!takeStrings(cursor, stringsEnd, 1, workdir) || !takeStrings(cursor, stringsEnd, h.argc, argv) ||
      !takeStrings(cursor, stringsEnd, h.envc, envp) || !takeStrings(cursor, stringsEnd, h.candc, candidates))
    return fail(plan, "read", "request", EPROTO);
  argv[h.argc] = nullptr;
  envp[h.envc] = nullptr;

  if (!unpackSeed(plan, stringsEnd, end, h.seedEntries)) return false;
  if (go.hasStdin && plan.warm) return fail(plan, "recvmsg", "go (stdin for a warm interpreter)", EPROTO);
  if (go.hasStdin) {
    // Reported as the cold path's process step reports them: one wording whichever way it ran.
    if (::dup2(fds[1], 0) < 0) {
      reportFailure(plan.statusFd, "process", "dup2", "stdin", errno);
      return false;
    }
    ::close(fds[1]);
  }
  if (::chdir(*workdir) != 0) {
    reportFailure(plan.statusFd, "process", "chdir", *workdir, errno);
    return false;
  }
  spec->workdir = *workdir;
  spec->argv = argv;
  spec->envp = envp;
  spec->candidates = candidates;
  spec->candidateCount = h.candc;
  return true;
}

}  // namespace greenlight::sandbox::detail
