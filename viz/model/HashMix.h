// hashMix: folds one 64-bit value into a running hash (boost's combine step, then splitmix64's
// finalizer, so nearby inputs spread over all bits). Structural hashes of groups and layout-cache
// keys are built with it; equal sequences of values give equal hashes on every platform.
#pragma once

#include <cstdint>

namespace fathom::viz {

inline uint64_t hashMix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

}  // namespace fathom::viz
