// TensorMeta: what a fake tensor knows - dtype, device, sizes, strides, storage offset - with
// sizes as SymInt so the same record serves static and symbolic traces. Graph nodes keep one per
// tensor output; meta functions compute them; real tensors can describe themselves as one.
//
// The layout helpers here (contiguous strides, channels_last strides, contiguity checks) are the
// single place such rules live; kernels and meta functions both call them.
#pragma once

#include <string>
#include <vector>

#include "engine/core/DType.h"
#include "engine/core/SymInt.h"

namespace fathom {

using SymIntList = std::vector<SymInt>;

enum class MemoryFormat { Contiguous, ChannelsLast, Preserve };
std::string_view memoryFormatName(MemoryFormat f);  // "contiguous_format", "channels_last", ...
bool parseMemoryFormat(std::string_view name, MemoryFormat* out);

struct TensorMeta {
  DType dtype = DType::Float32;
  std::string device = "cpu";
  SymIntList sizes;
  SymIntList strides;           // same length as sizes; in elements
  SymInt storageOffset = 0;     // in elements
  bool requiresGrad = false;

  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
  SymInt numel() const;
  // "f32[8, 128] [128, 1]" (offset shown when non-zero).
  std::string str() const;
};

// Row-major strides for `sizes` (size-0/1 dims get the stride PyTorch gives them).
SymIntList contiguousStrides(const SymIntList& sizes);
// NHWC strides for a 4-d NCHW size list.
SymIntList channelsLastStrides(const SymIntList& sizes);

bool isContiguous(const TensorMeta& t);          // decides on symbolic sizes
bool isChannelsLastContiguous(const TensorMeta& t);
// No two elements share memory and there are no holes (PyTorch's is_non_overlapping_and_dense).
bool isNonOverlappingAndDense(const TensorMeta& t);

// Wraps a possibly negative dim into [0, rank); throws OpError like PyTorch's IndexError.
int64_t wrapDim(int64_t dim, int64_t rank);

}  // namespace fathom
