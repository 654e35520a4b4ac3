// Node name -> node index, for Graph. An open-addressing table of (hash, index) slots that keeps
// no copy of the names: a candidate's name is read from the node itself through `nameOf`.
// A std::unordered_map<std::string, int32_t> allocated a map node and (past 15 bytes) a name per
// node and cost about three cache misses per lookup; loading a 100,000-node dump made 400,000
// lookups, a third of its time.
//
// Example:
//   NodeIndexByName index;
//   auto nameOf = [&](int32_t i) -> std::string_view { return nodes[i].name; };
//   index.insert(0, nameOf);            // false: the name was there already (the first stays)
//   int32_t at = index.find("x", nameOf);  // -1 when absent
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace fathom {

class NodeIndexByName {
 public:
  size_t size() const { return size_; }

  // Room for `n` names without growing.
  template <typename NameOf>
  void reserve(size_t n, const NameOf& nameOf) {
    if (n * 2 > slots_.size()) rehash(capacityFor(n), nameOf);
  }

  template <typename NameOf>
  int32_t find(std::string_view name, const NameOf& nameOf) const {
    if (slots_.empty()) return -1;
    const uint64_t h = hashOf(name);
    for (size_t i = h & mask(); slots_[i].index >= 0; i = (i + 1) & mask())
      if (slots_[i].hash == tag(h) && nameOf(slots_[i].index) == name) return slots_[i].index;
    return -1;
  }

  // Adds node `index`, named nameOf(index). False, and nothing added, when that name is present.
  template <typename NameOf>
  bool insert(int32_t index, const NameOf& nameOf) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(capacityFor(size_ + 1), nameOf);
    const std::string_view name = nameOf(index);
    const uint64_t h = hashOf(name);
    size_t i = h & mask();
    for (; slots_[i].index >= 0; i = (i + 1) & mask())
      if (slots_[i].hash == tag(h) && nameOf(slots_[i].index) == name) return false;
    slots_[i] = {tag(h), index};
    ++size_;
    return true;
  }

 private:
  struct Slot {
    uint32_t hash = 0;   // the upper half of the name's hash: most mismatches end here
    int32_t index = -1;  // -1: empty
  };

  static uint64_t hashOf(std::string_view s) { return std::hash<std::string_view>{}(s); }
  static uint32_t tag(uint64_t h) { return static_cast<uint32_t>(h >> 32); }
  static size_t capacityFor(size_t n) {
    size_t c = 16;
    while (c < n * 2) c *= 2;  // at most half full: short probe runs
    return c;
  }
  size_t mask() const { return slots_.size() - 1; }

  template <typename NameOf>
  void rehash(size_t capacity, const NameOf& nameOf) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    for (const Slot& s : old) {
      if (s.index < 0) continue;
      size_t i = hashOf(nameOf(s.index)) & mask();
      while (slots_[i].index >= 0) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace fathom
