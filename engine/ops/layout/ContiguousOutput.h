// The meta of a freshly allocated, row-major result: `like`'s dtype and device with `sizes`.
// What ops that compute a new tensor (not a view, not TensorIterator's layout) return.
#pragma once

#include <utility>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

inline TensorMeta contiguousOutput(const TensorMeta& like, SymIntList sizes) {
  TensorMeta out;
  out.dtype = like.dtype;
  out.device = like.device;
  out.strides = contiguousStrides(sizes);
  out.sizes = std::move(sizes);
  return out;
}

}  // namespace fathom
