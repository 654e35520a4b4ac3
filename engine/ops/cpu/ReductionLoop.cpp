// Reduction group geometry (see ReductionLoop.h).
#include "engine/ops/cpu/ReductionLoop.h"

namespace fathom {
namespace {

// Appends a dim, merging it into the previous one when the previous one's step spans it exactly.
void appendDim(IntList& sizes, IntList& strides, int64_t size, int64_t stride) {
  if (!sizes.empty() && strides.back() == stride * size) {
    sizes.back() *= size;
    strides.back() = stride;
    return;
  }
  sizes.push_back(size);
  strides.push_back(stride);
}

}  // namespace

ReductionGeometry reductionGeometry(const Tensor& in, const std::vector<bool>& reduced) {
  ReductionGeometry g;
  const int64_t es = static_cast<int64_t>(elementSize(in.dtype()));
  for (int64_t d = 0; d < in.dim(); ++d) {
    const int64_t size = in.size(d), stride = in.stride(d) * es;
    if (reduced[static_cast<size_t>(d)]) g.groupSize *= size;
    else g.outputs *= size;
    if (size == 1) continue;  // moves nothing
    if (reduced[static_cast<size_t>(d)]) appendDim(g.reducedSizes, g.reducedStrides, size, stride);
    else appendDim(g.keptSizes, g.keptStrides, size, stride);
  }
  return g;
}

}  // namespace fathom
