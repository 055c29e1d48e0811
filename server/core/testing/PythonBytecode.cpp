#include "core/testing/PythonBytecode.h"
#include "core/testing/ContentHash.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "support/Log.h"

namespace greenlight::core::testing {
namespace {

// Reads the harness on stdin, prints base64 of a .pyc on stdout: magic, zero flags, zero
// timestamp and size (a .pyc run as a script is never checked against a source), marshal.
constexpr const char* kCompileScript =
    "import sys, marshal, base64, importlib.util\n"
    "src = sys.stdin.buffer.read().decode('utf-8')\n"
    "code = compile(src, sys.argv[1], 'exec', dont_inherit=True)\n"
    "data = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)\n"
    "sys.stdout.write(base64.b64encode(data).decode('ascii'))\n";

std::optional<std::string> decodeBase64(const std::string& in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  out.reserve(in.size() / 4 * 3);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=' || c == '\n' || c == '\r') continue;
    int v = value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

std::optional<std::string> readFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return data;
}

void mkdirs(const std::string& dir) {
  for (std::size_t i = 1; i <= dir.size(); ++i) {
    if (i == dir.size() || dir[i] == '/') ::mkdir(dir.substr(0, i).c_str(), 0700);
  }
}

// Write-then-rename, so a concurrent reader sees the old file or the whole new one.
void writeAtomically(const std::string& path, const std::string& data) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  bool ok = ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size());
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) ::unlink(tmp.c_str());
}

// A .pyc starts with a 4-byte magic ending in "\r\n", then 12 header bytes, then marshal data.
bool looksLikePyc(const std::string& data) {
  return data.size() > 32 && data[2] == '\r' && data[3] == '\n';
}

std::mutex gMutex;
std::map<std::string, std::optional<std::string>> gMemory;  // key -> bytes, or nullopt: failed

}  // namespace

std::string bytecodeCacheDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
    return std::string(xdg) + "/greenlight";
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/')
    return std::string(home) + "/.cache/greenlight";
  return "";
}

std::optional<std::string> cachedPythonProduct(const Tool& tool, const PythonProduct& product, sandbox::Policy policy) {
  if (tool.fingerprint.empty()) return std::nullopt;  // no way to tell a replaced interpreter
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(fnv1a(product.input, fnv1a(product.script + '\n' + product.arg,
                                                                           fnv1a(tool.path + '\n' + tool.fingerprint)))));
  const std::string key = product.name + "-" + hex;
  {
    std::lock_guard<std::mutex> lock(gMutex);
    auto it = gMemory.find(key);
    if (it != gMemory.end()) return it->second;
  }
  const std::string dir = bytecodeCacheDir();
  const std::string file = dir.empty() ? "" : dir + "/" + key + product.suffix;
  if (!file.empty()) {
    if (auto cached = readFile(file); cached && product.valid(*cached)) {
      std::lock_guard<std::mutex> lock(gMutex);
      return gMemory.emplace(key, std::move(*cached)).first->second;
    }
    // A build the interpreter refused (its script exited non-zero: no headers, no compiler) is
    // not tried again by every later process.
    if (readFile(file + ".refused")) {
      std::lock_guard<std::mutex> lock(gMutex);
      return gMemory.emplace(key, std::nullopt).first->second;
    }
  }
  policy.argv = {tool.invokedAs.empty() ? tool.path : tool.invokedAs, "-I", "-S", "-B", "-c", product.script, product.arg};
  policy.stdinData = product.input;
  policy.profile = sandbox::Profile::Python;
  policy.onOutput = nullptr;
  policy.workdir = "/tmp";  // the caller's may be a directory its run binds, not yet there
  sandbox::Verdict v = sandbox::run(policy, -1);
  std::optional<std::string> bytes;
  if (v.status == sandbox::Status::Ok && !v.stdoutTruncated) bytes = decodeBase64(v.stdoutData);
  if (bytes && !product.valid(*bytes)) bytes.reset();
  if (!bytes) {
    support::logLine(support::LogLevel::Info, product.name + ": not built for " + tool.path + " (" +
                                              std::string(sandbox::statusName(v.status)) +
                                              (v.exitCode > 0 ? ", exit " + std::to_string(v.exitCode) : "") +
                                              (v.setupError.empty() ? "" : ": " + v.setupError) + ")");
    if (!file.empty() && v.status == sandbox::Status::ExitNonzero) {
      mkdirs(dir);
      writeAtomically(file + ".refused", std::to_string(v.exitCode) + "\n");
    }
  } else if (!file.empty()) {
    mkdirs(dir);
    writeAtomically(file, *bytes);
  }
  std::lock_guard<std::mutex> lock(gMutex);
  return gMemory.emplace(key, std::move(bytes)).first->second;
}

std::optional<std::string> pythonHarnessBytecode(const Tool& tool, const std::string& source,
                                                 const std::string& displayPath, sandbox::Policy policy) {
  return cachedPythonProduct(tool, {"python-harness", kCompileScript, source, displayPath, ".pyc", looksLikePyc},
                             std::move(policy));
}

}  // namespace greenlight::core::testing
