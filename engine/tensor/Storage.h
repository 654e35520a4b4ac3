// Storage: a refcounted CPU buffer that views share. Every allocation goes through the
// process-wide memory limit, and is refused *before* allocating when it would exceed it, so a
// dump asking for a 4 TB input gets a clear error instead of an OOM kill.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/core/Result.h"

namespace fathom {

class Storage {
 public:
  // Zero-filled buffer of `nbytes`, or an OutOfMemory error naming the sizes.
  static Result<std::shared_ptr<Storage>> allocate(size_t nbytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

 private:
  Storage(std::byte* data, size_t nbytes) : data_(data), nbytes_(nbytes) {}
  std::byte* data_;
  size_t nbytes_;
};

// The limit on bytes held by all live storages together. Default: 8 GiB.
void setMemoryLimit(size_t bytes);
size_t memoryLimit();
size_t bytesInUse();

// "512 B", "1.5 KiB", "3.6 TiB": sizes in binary units for messages.
std::string humanBytes(uint64_t n);

}  // namespace fathom
