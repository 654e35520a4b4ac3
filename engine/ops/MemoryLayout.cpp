// preserve_format layouts (see MemoryLayout.h).
#include "engine/ops/MemoryLayout.h"


#include "engine/core/Error.h"
#include "engine/ops/DimensionOrder.h"

namespace fathom {

bool isDenseLayout(const TensorMeta& t) {
  return isContiguous(t) || isChannelsLastContiguous(t) || isNonOverlappingAndDense(t);
}

SymIntList inferDenseStrides(const SymIntList& sizes, const SymIntList& strides) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (ndim == 0) return {};
  if (ndim == 1) return {SymInt(1)};
  const std::vector<int64_t> perm = reorderDimensions({strides}, sizes);
  SymIntList out(ndim);
  SymInt running = 1;
  for (int64_t d : perm) {
    out[d] = running;
    // Size 0 is treated as 1 here: with no elements the strides do not matter.
    if (symLt(1, sizes[d], "dense strides: size > 1")) running = running * sizes[d];
  }
  return out;
}

SymIntList likeStrides(const TensorMeta& t, std::optional<MemoryFormat> format) {
  const MemoryFormat f = format.value_or(MemoryFormat::Preserve);
  if (f == MemoryFormat::Contiguous) return contiguousStrides(t.sizes);
  if (f == MemoryFormat::ChannelsLast) {
    FATHOM_CHECK(t.dim() == 4, "required rank 4 tensor to use channels_last format");
    return channelsLastStrides(t.sizes);
  }
  if (isDenseLayout(t)) return t.strides;
  return inferDenseStrides(t.sizes, t.strides);
}

TensorMeta freshLike(const TensorMeta& t, DType dtype, SymIntList strides) {
  TensorMeta m;
  m.dtype = dtype;
  m.device = t.device;
  m.sizes = t.sizes;
  m.strides = std::move(strides);
  return m;
}

}  // namespace fathom
