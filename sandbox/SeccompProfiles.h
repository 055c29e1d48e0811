// Seccomp allow-lists per profile, compiled once with libseccomp and cached for the life of
// the process. Thread-safe.
#pragma once

#include <linux/filter.h>

#include <cstdint>
#include <string>

#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

// Auto -> Python / Node / Compiler / Native from argv[0]'s basename.
Profile resolveProfile(Profile requested, const std::string& argv0);
std::string_view profileName(Profile profile);

// The compiled BPF for (profile, network), compiling it on first use. nullptr and *error set
// when libseccomp fails.
const sock_fprog* seccompProgram(Profile profile, bool network, std::string* error);
// The BPF if it was compiled already, else nullptr (never compiles).
const sock_fprog* cachedSeccompProgram(Profile profile, bool network);

// "ptrace", or "syscall 1234" when libseccomp does not know the number; a foreign
// architecture is named too ("x86 syscall 11").
std::string syscallName(std::uint32_t arch, int nr);

}  // namespace greenlight::sandbox::detail
