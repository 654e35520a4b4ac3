// GuardedCache: compiled entries, each guarded by the GuardSet of the trace that made it. A call
// is served by the first entry whose guards all hold on its input sizes; when none does, the
// miss carries every failing guard of every entry (not just the first), which is what the
// recompile event reports.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/symbolic/GuardSet.h"

namespace fathom {

struct CacheEntry {
  int64_t compileId = 0;
  std::string label;     // what it was compiled for, e.g. "8x128"
  sym::GuardSet guards;
};

struct CacheLookup {
  std::optional<size_t> hit;  // entry index
  // On a miss: each entry's failing guards, in entry order.
  std::vector<std::pair<size_t, std::vector<sym::GuardFailure>>> failures;
};

class GuardedCache {
 public:
  CacheLookup lookup(const std::vector<std::vector<int64_t>>& sizes) const;
  size_t add(CacheEntry entry);
  const std::vector<CacheEntry>& entries() const { return entries_; }

 private:
  std::vector<CacheEntry> entries_;
};

}  // namespace fathom
