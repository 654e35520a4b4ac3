// Fresh-tensor layouts and the layout questions c10 answers about a tensor (see MemoryLayout.h).
#include "engine/ops/layout/MemoryLayout.h"

#include <span>

#include "engine/core/Error.h"
#include "engine/ops/layout/DimensionOrder.h"

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

namespace {

// c10's get_channels_last_strides_2d/3d: dim 1 (C) fastest, then the spatial dims from the
// last, then N; plain products of sizes.
SymIntList channelsLastOrderStrides(const SymIntList& sizes, std::span<const int64_t> fastestFirst) {
  SymIntList strides(sizes.size());
  SymInt running = 1;
  for (int64_t d : fastestFirst) {
    strides[d] = running;
    running = running * sizes[d];
  }
  return strides;
}

constexpr int64_t kNhwcOrder[] = {1, 3, 2, 0};
constexpr int64_t kNdhwcOrder[] = {1, 4, 3, 2, 0};

// c10's is_channels_last_strides_2d_s4 / _3d_s5: do the strides order the dims fastest-first as
// `order`? Ambiguous layouts (size-1 N and C, a zero C stride) count as contiguous.
bool stridesLikeChannelsLast(const TensorMeta& t, std::span<const int64_t> order) {
  if (symEq(t.strides[1], 0, "channels_last-like: zero C stride")) return false;
  SymInt min = 0;
  for (int64_t d : order) {
    if (symEq(t.sizes[d], 0, "channels_last-like: empty dim")) return false;
    if (symLt(t.strides[d], min, "channels_last-like: stride order")) return false;
    if (d == 0 && symEq(min, t.strides[1], "channels_last-like: N stride equals C stride")) return false;
    min = t.strides[d];
    if (symLt(1, t.sizes[d], "channels_last-like: size > 1")) min = min * t.sizes[d];
  }
  return true;
}

// c10's compute_channels_last_contiguous_2d: no special case for empty tensors.
bool isChannelsLastContiguousExact(const TensorMeta& t) {
  if (t.dim() != 4) return false;
  SymInt expected = 1;
  for (int64_t d : kNhwcOrder) {
    if (symEq(t.sizes[d], 1, "channels_last contiguity: size-1 dims have any stride")) continue;
    if (!symEq(t.strides[d], expected, "channels_last contiguity: stride check")) return false;
    expected = expected * t.sizes[d];
  }
  return true;
}

}  // namespace

SymIntList memoryFormatStrides(const SymIntList& sizes, MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous:
      return contiguousStrides(sizes);
    case MemoryFormat::ChannelsLast:
      FATHOM_CHECK(sizes.size() == 4, "required rank 4 tensor to use channels_last format");
      return channelsLastOrderStrides(sizes, kNhwcOrder);
    case MemoryFormat::Preserve:
      break;
  }
  throwOpError("unsupported memory format Preserve");
}

bool isContiguousIn(const TensorMeta& t, MemoryFormat format) {
  return format == MemoryFormat::ChannelsLast ? isChannelsLastContiguousExact(t) : isContiguous(t);
}

SuggestedFormat suggestMemoryFormat(const TensorMeta& t) {
  if (t.dim() == 4 && stridesLikeChannelsLast(t, kNhwcOrder)) return SuggestedFormat::ChannelsLast;
  if (t.dim() == 5 && stridesLikeChannelsLast(t, kNdhwcOrder)) return SuggestedFormat::ChannelsLast3d;
  return SuggestedFormat::Contiguous;
}

SymIntList suggestedFormatStrides(const SymIntList& sizes, SuggestedFormat format) {
  switch (format) {
    case SuggestedFormat::ChannelsLast: return channelsLastOrderStrides(sizes, kNhwcOrder);
    case SuggestedFormat::ChannelsLast3d: return channelsLastOrderStrides(sizes, kNdhwcOrder);
    case SuggestedFormat::Contiguous: break;
  }
  return contiguousStrides(sizes);
}

SymIntList likeStrides(const TensorMeta& t, std::optional<MemoryFormat> format) {
  const MemoryFormat f = format.value_or(MemoryFormat::Preserve);
  if (f != MemoryFormat::Preserve) return memoryFormatStrides(t.sizes, f);
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
