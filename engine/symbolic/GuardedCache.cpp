#include "engine/symbolic/GuardedCache.h"

namespace fathom {

CacheLookup GuardedCache::lookup(const std::vector<std::vector<int64_t>>& sizes) const {
  CacheLookup out;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].guards.check(sizes)) {
      out.hit = i;
      return out;
    }
  for (size_t i = 0; i < entries_.size(); ++i) out.failures.emplace_back(i, entries_[i].guards.failures(sizes));
  return out;
}

size_t GuardedCache::add(CacheEntry entry) {
  entries_.push_back(std::move(entry));
  return entries_.size() - 1;
}

}  // namespace fathom
