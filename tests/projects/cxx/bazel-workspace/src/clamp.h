#pragma once

namespace mathx {

inline long clamp(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }

}  // namespace mathx
