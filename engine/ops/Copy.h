// Kernel-side building blocks shared by op families: allocating a tensor for a computed
// TensorMeta, copying with dtype conversion (ATen's copy_), and filling.
#pragma once

#include "engine/ops/OpArgs.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// A new tensor with exactly `meta`'s layout; allocation errors become OpErrors (keeping the
// OutOfMemory code) so kernels can simply throw.
Tensor allocateTensor(const TensorMeta& meta);

// dst[i] = convert(src[i]); `src` is broadcast to dst's shape. dst must not overlap src.
void copyInto(const Tensor& dst, const Tensor& src);

// `t` if it already has `target`'s dtype, else a copy laid out as `target` (same sizes).
Tensor convertedTo(const Tensor& t, const TensorMeta& target);

// Every element of dst set to `value` converted to dst's dtype.
void fillWith(const Tensor& dst, const ScalarArg& value);

}  // namespace fathom
