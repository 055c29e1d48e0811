// Landlock constants and structs up to ABI 7, defined here because Debian 12's headers stop
// at ABI 2. The ABI is probed at run time (landlockAbi()).
#pragma once

#include <cstdint>

namespace greenlight::sandbox::detail::landlock {

inline constexpr std::uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2,
                               kReadDir = 1ull << 3, kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5,
                               kMakeChar = 1ull << 6, kMakeDir = 1ull << 7, kMakeReg = 1ull << 8,
                               kMakeSock = 1ull << 9, kMakeFifo = 1ull << 10, kMakeBlock = 1ull << 11,
                               kMakeSym = 1ull << 12,
                               kRefer = 1ull << 13,     // ABI 2
                               kTruncate = 1ull << 14,  // ABI 3
                               kIoctlDev = 1ull << 15;  // ABI 5
inline constexpr std::uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;  // ABI 4
inline constexpr std::uint64_t kScopeAbstractUnixSocket = 1ull << 0, kScopeSignal = 1ull << 1;  // ABI 6
inline constexpr std::uint32_t kCreateRulesetVersion = 1u << 0;
inline constexpr int kRulePathBeneath = 1;

// Rights that only make sense on files (a rule on a non-directory may carry only these).
inline constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

struct RulesetAttr {
  std::uint64_t handledAccessFs;
  std::uint64_t handledAccessNet;  // ABI 4
  std::uint64_t scoped;            // ABI 6
};

struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowedAccess;
  std::int32_t parentFd;
};

// Size of RulesetAttr the running kernel's ABI understands.
inline unsigned long rulesetAttrSize(int abi) { return abi >= 6 ? 24 : abi >= 4 ? 16 : 8; }

// The write-type rights available at `abi`.
inline std::uint64_t writeRights(int abi) {
  std::uint64_t r = kWriteFile | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg | kMakeSock |
                    kMakeFifo | kMakeBlock | kMakeSym;
  if (abi >= 2) r |= kRefer;
  if (abi >= 3) r |= kTruncate;
  return r;
}
inline constexpr std::uint64_t kReadRights = kExecute | kReadFile | kReadDir;

}  // namespace greenlight::sandbox::detail::landlock
