// Compiling a profile's allow-list to BPF with libseccomp. Pure and thread-safe (each call owns
// its libseccomp context). Used at build time by cmake/SeccompGen.cpp and at run time only
// when the baked table lacks a filter.
#pragma once

#include <linux/filter.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sandbox/Sandbox.h"

namespace greenlight::sandbox::detail {

// The whole program (hand-written prefix + libseccomp's body) for (profile, network); Auto is
// compiled as Native. Empty and *error set when libseccomp fails.
std::vector<sock_filter> compileSeccompFilter(Profile profile, bool network, std::string* error);

// SCMP_ARCH_* of this machine: a baked filter is used only when it was built for it.
std::uint32_t seccompNativeArch();

}  // namespace greenlight::sandbox::detail
