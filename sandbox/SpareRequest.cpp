#include "sandbox/SpareRequest.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sandbox/PlanBuilder.h"
#include "sandbox/steps/ChildIo.h"

namespace greenlight::sandbox::detail {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxSeedDepth = 48;  // as the cold path's seedCopy

template <typename T>
void appendRaw(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void appendEntry(std::string& out, SeedKind kind, std::uint32_t mode, const std::string& path, const std::string& data,
                 bool dataIsString) {
  SeedEntryHeader h{kind, mode, path.size() + 1, data.size() + (dataIsString ? 1 : 0)};
  appendRaw(out, h);
  out.append(path.c_str(), path.size() + 1);
  out.append(data);
  if (dataIsString) out.push_back('\0');
}

// Appends the tree's entries; returns an error message or empty.
std::string appendSeed(const Policy& policy, std::string& out, std::uint64_t& entries,
                       const std::set<std::string>* skip) {
  std::error_code ec;
  fs::path root = fs::canonical(policy.scratchSource, ec);
  if (ec || !fs::is_directory(root, ec)) return "scratch source " + policy.scratchSource + ": not a directory";
  const std::uint64_t fileCap = static_cast<std::uint64_t>(policy.fileSizeLimitMb) << 20;
  const std::uint64_t totalCap = static_cast<std::uint64_t>(policy.scratchSizeMb) << 20;
  std::uint64_t total = 0;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  if (ec) return "scratch source " + policy.scratchSource + ": " + ec.message();
  for (; it != end; it.increment(ec)) {
    if (ec) return "scratch source " + policy.scratchSource + ": " + ec.message();
    if (it.depth() >= kMaxSeedDepth) return "scratch source " + policy.scratchSource + ": nested too deep";
    const fs::path& p = it->path();
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0) return "scratch source " + p.string() + ": " + std::strerror(errno);
    std::string rel = p.lexically_relative(root).string();
    if (skip != nullptr && skip->count(rel) != 0) continue;
    std::string data;
    if (S_ISDIR(st.st_mode)) {
      appendEntry(out, SeedKind::Dir, (st.st_mode & 0777) | 0700, rel, data, false);
    } else if (S_ISREG(st.st_mode)) {
      if (static_cast<std::uint64_t>(st.st_size) > fileCap) return "scratch source " + p.string() + ": over the file size limit";
      total += static_cast<std::uint64_t>(st.st_size);
      if (total > totalCap) return "scratch source " + policy.scratchSource + ": over the scratch size";
      if (!readFileInto(p.c_str(), static_cast<std::size_t>(st.st_size), data, O_NOFOLLOW))
        return "scratch source " + p.string() + ": " + std::strerror(errno);
      appendEntry(out, SeedKind::File, st.st_mode & 0777, rel, data, false);
    } else if (S_ISLNK(st.st_mode)) {
      data = fs::read_symlink(p, ec).string();
      if (ec) return "scratch source " + p.string() + ": " + ec.message();
      appendEntry(out, SeedKind::Symlink, 0777, rel, data, true);
    } else {
      continue;  // sockets, fifos, devices: the cold path skips them too
    }
    ++entries;
  }
  return {};
}

// The request's bytes in a sealed-off memfd (close-on-exec).
SpareRequest toMemfd(const std::string& bytes) {
  SpareRequest request;
  int fd = ::memfd_create("greenlight-go", MFD_CLOEXEC);
  if (fd < 0) {
    request.error = std::string("memfd_create: ") + std::strerror(errno);
    return request;
  }
  if (int err = writeAllFd(fd, bytes.data(), bytes.size()); err != 0) {
    request.error = std::string("memfd write: ") + std::strerror(err);
    ::close(fd);
    return request;
  }
  request.fd = fd;
  return request;
}

std::string assemble(RequestHeader header, const std::string& strings, const std::string& seed, std::size_t slots) {
  std::size_t slotsOffset = sizeof header + strings.size() + seed.size();
  slotsOffset = (slotsOffset + 7) & ~std::size_t{7};
  header.slotsOffset = slotsOffset;
  std::string bytes;
  bytes.reserve(slotsOffset + slots * sizeof(char*));
  appendRaw(bytes, header);
  bytes += strings;
  bytes += seed;
  bytes.resize(slotsOffset + slots * sizeof(char*), '\0');
  return bytes;
}

}  // namespace

std::set<std::string> preseedPaths(const std::vector<std::pair<std::string, std::string>>& files) {
  std::set<std::string> paths;
  for (const auto& [path, data] : files) {
    for (fs::path p = fs::path(path).lexically_normal(); !p.empty() && p != p.parent_path(); p = p.parent_path())
      paths.insert(p.string());
  }
  return paths;
}

SpareRequest buildPreseedRequest(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string seed;
  std::uint64_t entries = 0;
  std::set<std::string> made;
  for (const auto& [path, data] : files) {
    fs::path rel = fs::path(path).lexically_normal();
    if (rel.empty() || rel.is_absolute() || *rel.begin() == "..") {
      SpareRequest bad;
      bad.error = "warm file " + path + ": not a path under /work";
      return bad;
    }
    std::vector<fs::path> parents;
    for (fs::path p = rel.parent_path(); !p.empty(); p = p.parent_path()) parents.push_back(p);
    for (auto it = parents.rbegin(); it != parents.rend(); ++it) {
      if (!made.insert(it->string()).second) continue;
      appendEntry(seed, SeedKind::Dir, 0755, it->string(), std::string(), false);
      ++entries;
    }
    appendEntry(seed, SeedKind::File, 0644, rel.string(), data, false);
    ++entries;
  }
  RequestHeader header{kRequestMagic, 0, 0, 0, 0, entries, 0};
  return toMemfd(assemble(header, std::string(), seed, 3));
}

SpareRequest buildSpareRequest(const Policy& policy, const std::set<std::string>* skip) {
  SpareRequest request;
  if (policy.argv.empty() || policy.argv[0].empty()) {
    request.error = "empty command";
    return request;
  }
  LaunchPlan exec;
  if (std::string error = planExec(policy, "/work", "/tmp", exec); !error.empty()) {
    request.error = error;
    return request;
  }
  std::string strings;
  auto addString = [&](const std::string& s) { strings.append(s.c_str(), s.size() + 1); };
  addString(exec.workdir);
  for (const auto& s : exec.argvStore) addString(s);
  for (const auto& s : exec.envStore) addString(s);
  for (const auto& s : exec.execCandidates) addString(s);

  std::string seed;
  std::uint64_t entries = 0;
  if (!policy.scratchSource.empty()) {
    if (std::string error = appendSeed(policy, seed, entries, skip); !error.empty()) {
      request.error = error;
      return request;
    }
  }
  RequestHeader header{kRequestMagic,
                       static_cast<std::uint32_t>(exec.argvStore.size()),
                       static_cast<std::uint32_t>(exec.envStore.size()),
                       static_cast<std::uint32_t>(exec.execCandidates.size()),
                       strings.size(),
                       entries,
                       0};
  const std::size_t slots = exec.argvStore.size() + exec.envStore.size() + exec.execCandidates.size() + 3;
  return toMemfd(assemble(header, strings, seed, slots));
}

}  // namespace greenlight::sandbox::detail
