#include "engine/ops/AtenVersion.h"

#include <atomic>
#include <charconv>

namespace fathom {
namespace {

// major * 1000 + minor, in one atomic: worker threads read it while a load may set it.
std::atomic<int> gVersion{1 * 1000 + 13};

}  // namespace

AtenVersion atenVersion() {
  const int v = gVersion.load(std::memory_order_relaxed);
  return {v / 1000, v % 1000};
}

void setAtenVersion(AtenVersion v) { gVersion.store(v.major * 1000 + v.minor, std::memory_order_relaxed); }

std::optional<AtenVersion> parseTorchVersion(std::string_view text) {
  AtenVersion v;
  const char* end = text.data() + text.size();
  auto [afterMajor, e1] = std::from_chars(text.data(), end, v.major);
  if (e1 != std::errc() || afterMajor == end || *afterMajor != '.') return std::nullopt;
  auto [afterMinor, e2] = std::from_chars(afterMajor + 1, end, v.minor);
  if (e2 != std::errc() || v.major < 0 || v.minor < 0 || v.minor >= 1000) return std::nullopt;
  return v;
}

}  // namespace fathom
