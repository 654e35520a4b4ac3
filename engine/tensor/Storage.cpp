#include "engine/tensor/Storage.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace fathom {
namespace {
std::atomic<size_t> gLimit{size_t{8} << 30};
std::atomic<size_t> gInUse{0};

}  // namespace

Result<std::shared_ptr<Storage>> Storage::allocate(size_t nbytes) {
  size_t before = gInUse.fetch_add(nbytes);
  const size_t limit = gLimit.load();
  if (nbytes > limit || before > limit - nbytes) {
    gInUse.fetch_sub(nbytes);
    return Error{ErrorCode::OutOfMemory,
                 "allocation of " + humanBytes(nbytes) + " refused: it would exceed the memory limit of " +
                     humanBytes(limit) + " (" + humanBytes(before) + " in use); raise it with --memory-limit",
                 {}};
  }
  // calloc: zeroed pages come lazily from the OS, so big zero-initialised buffers are cheap.
  auto* data = static_cast<std::byte*>(std::calloc(nbytes ? nbytes : 1, 1));
  if (!data) {
    gInUse.fetch_sub(nbytes);
    return Error{ErrorCode::OutOfMemory, "allocation of " + humanBytes(nbytes) + " failed", {}};
  }
  return std::shared_ptr<Storage>(new Storage(data, nbytes));
}

Storage::~Storage() {
  std::free(data_);
  gInUse.fetch_sub(nbytes_);
}

std::string humanBytes(uint64_t n) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024 && u < 6) { v /= 1024; ++u; }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

void setMemoryLimit(size_t bytes) { gLimit.store(bytes); }
size_t memoryLimit() { return gLimit.load(); }
size_t bytesInUse() { return gInUse.load(); }

}  // namespace fathom
