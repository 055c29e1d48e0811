// Profile selection, the compiled filters and syscall naming. The filters come baked into the
// binary by the build (cmake/SeccompGen.cpp runs SeccompCompile.cpp at build time), so the
// CLI's one run per process does not spend milliseconds in libseccomp; a filter missing from
// the table (cross builds) is compiled on first use and cached.
#include "sandbox/SeccompProfiles.h"

#include <seccomp.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "sandbox/SeccompCompile.h"

namespace greenlight::sandbox::detail {
namespace {

struct Compiled {
  std::vector<sock_filter> code;
  sock_fprog prog{};
};

struct PrecompiledFilter {
  Profile profile;
  bool network;
  sock_fprog prog;
};

// Generated at build time: kPrecompiledArch (0 when nothing was baked) and kPrecompiled[].
#include "SeccompPrecompiled.inc"

const sock_fprog* precompiled(Profile profile, bool network) {
  if (profile == Profile::Auto) profile = Profile::Native;
  static const std::uint32_t nativeArch = seccompNativeArch();
  if (nativeArch != kPrecompiledArch) return nullptr;
  for (const PrecompiledFilter& f : kPrecompiled) {
    if (f.profile == profile && f.network == network) return &f.prog;
  }
  return nullptr;
}

}  // namespace

Profile resolveProfile(Profile requested, const std::string& argv0) {
  if (requested != Profile::Auto) return requested;
  std::string base = argv0.substr(argv0.find_last_of('/') + 1);
  auto starts = [&](const char* p) { return base.rfind(p, 0) == 0; };
  if (starts("python") || base == "pytest") return Profile::Python;
  if (starts("node") || base == "nodejs") return Profile::Node;
  if (base == "cc" || base == "c++" || base == "cpp" || starts("gcc") || starts("g++") || starts("clang") ||
      starts("x86_64-linux-gnu-g") || base == "ld" || base == "as" || base == "make")
    return Profile::Compiler;
  return Profile::Native;
}

std::string_view profileName(Profile profile) {
  switch (profile) {
    case Profile::Auto: return "auto";
    case Profile::Native: return "native";
    case Profile::Python: return "python";
    case Profile::Node: return "node";
    case Profile::Compiler: return "compiler";
  }
  return "native";
}

namespace {
// Never destroyed: the spares' builder thread (Spares.h) may still use it while the process
// exits and runs static destructors.
std::mutex& gCacheMutex = *new std::mutex;
std::map<std::pair<int, bool>, std::unique_ptr<Compiled>>& gCache = *new std::map<std::pair<int, bool>, std::unique_ptr<Compiled>>;
}  // namespace

const sock_fprog* cachedSeccompProgram(Profile profile, bool network) {
  if (const sock_fprog* baked = precompiled(profile, network)) return baked;
  std::lock_guard<std::mutex> lock(gCacheMutex);
  auto it = gCache.find(std::make_pair(static_cast<int>(profile), network));
  return it == gCache.end() ? nullptr : &it->second->prog;
}

const sock_fprog* seccompProgram(Profile profile, bool network, std::string* error) {
  if (const sock_fprog* baked = precompiled(profile, network)) return baked;
  auto& mutex = gCacheMutex;
  auto& cache = gCache;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(static_cast<int>(profile), network);
  auto it = cache.find(key);
  if (it != cache.end()) return &it->second->prog;
  auto compiled = std::make_unique<Compiled>();
  compiled->code = compileSeccompFilter(profile, network, error);
  if (compiled->code.empty()) return nullptr;
  compiled->prog.len = static_cast<unsigned short>(compiled->code.size());
  compiled->prog.filter = compiled->code.data();
  const sock_fprog* prog = &compiled->prog;
  cache.emplace(key, std::move(compiled));
  return prog;
}

std::string syscallName(std::uint32_t arch, int nr) {
  if (arch == seccomp_arch_native() && (static_cast<std::uint32_t>(nr) & 0x40000000u) != 0) {
    char* base = seccomp_syscall_resolve_num_arch(arch, nr & ~0x40000000);
    std::string result = std::string("x32 ") + (base != nullptr ? base : std::to_string(nr & ~0x40000000).c_str());
    std::free(base);
    return result;
  }
  char* name = seccomp_syscall_resolve_num_arch(arch, nr);
  std::string result;
  if (name != nullptr) {
    result = name;
    std::free(name);
  } else {
    result = "syscall " + std::to_string(nr);
  }
  if (arch != seccomp_arch_native()) {
    const char* archName = arch == SCMP_ARCH_X86 ? "i386" : arch == SCMP_ARCH_ARM ? "arm" : "foreign-arch";
    result = std::string(archName) + " " + result;
  }
  return result;
}

}  // namespace greenlight::sandbox::detail
