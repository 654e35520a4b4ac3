// LayoutCache: finished group layouts by key, shared by every tab of a window and by the worker
// threads that fill it. The key (see LayoutJob) hashes a group's structure and its children's
// box sizes, so identical groups - the 12 layers of a BERT encoder - are laid out once.
//
// Thread-safe: every member locks. Values are immutable and shared; a hit costs a lookup.
// Bounded: past `capacity` entries the oldest insertions are dropped.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "viz/layout/LayoutGraph.h"

namespace fathom::viz {

// A group's children laid out: the edges between children it was computed for (the scene maps
// graph edges onto them) and the Layout (boxes per child, routes per edge).
struct GroupLayout {
  std::vector<LayoutEdge> edges;
  Layout layout;
};

class LayoutCache {
 public:
  explicit LayoutCache(size_t capacity = 4096) : capacity_(capacity) {}

  std::shared_ptr<const GroupLayout> find(uint64_t key) const;
  void insert(uint64_t key, std::shared_ptr<const GroupLayout> layout);
  size_t size() const;
  int64_t hits() const;
  int64_t misses() const;

 private:
  mutable std::mutex mutex_;
  size_t capacity_;
  std::unordered_map<uint64_t, std::shared_ptr<const GroupLayout>> entries_;
  std::deque<uint64_t> order_;  // insertion order, oldest first
  mutable int64_t hits_ = 0, misses_ = 0;
};

}  // namespace fathom::viz
