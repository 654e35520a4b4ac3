// LayoutCache: a locked map with insertion-order eviction (LayoutCache.h).
#include "viz/layout/LayoutCache.h"

namespace fathom::viz {

std::shared_ptr<const GroupLayout> LayoutCache::find(uint64_t key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  return it->second;
}

void LayoutCache::insert(uint64_t key, std::shared_ptr<const GroupLayout> layout) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, inserted] = entries_.insert_or_assign(key, std::move(layout));
  if (!inserted) return;
  order_.push_back(key);
  while (entries_.size() > capacity_ && !order_.empty()) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
}

size_t LayoutCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

int64_t LayoutCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

int64_t LayoutCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}

}  // namespace fathom::viz
