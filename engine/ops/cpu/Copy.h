// Kernel-side building blocks shared by op families: allocating a tensor for a computed
// TensorMeta, copying with dtype conversion (ATen's copy_), and filling with a Python number.
// Copies of large tensors run on parallelFor, split along their slowest-moving dimension.
#pragma once

#include "engine/ops/OpArgs.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// A new tensor with exactly `meta`'s layout; allocation errors become OpErrors (keeping the
// OutOfMemory code) so kernels can simply throw.
Tensor allocateTensor(const TensorMeta& meta);

// dst[i] = convert(src[i]); `src` is broadcast to dst's shape. dst must not overlap src.
void copyInto(const Tensor& dst, const Tensor& src);

// As copyInto, reading the source from `src` (the address of element [0, 0, ...]) with one byte
// stride per dst dimension; strides may be 0 (broadcast) or negative (flip reads backwards).
void copyStridedInto(const Tensor& dst, const std::byte* src, const IntList& srcByteStrides, DType srcDtype);

// `t` if it already has `target`'s dtype, else a copy laid out as `target` (same sizes).
Tensor convertedTo(const Tensor& t, const TensorMeta& target);

// `t` if it is contiguous, else a contiguous copy (ATen's t.contiguous()).
Tensor contiguousTensor(const Tensor& t);

// Every element of dst set to `value` converted to dst's dtype; a value out of the dtype's range
// is an error, as Scalar::to<T>() makes it in fill_ ("value cannot be converted to type int8_t
// without overflow"). Bool takes any value (nonzero is true); unsigned types let negative
// integers wrap.
void fillWith(const Tensor& dst, const ScalarArg& value);

// The value of a zero-dim (or one-element) tensor as a Python number of its kind, as
// Tensor.item() gives it to fill_ and masked_fill_: float64, int64 or bool.
ScalarArg itemOf(const Tensor& t);

}  // namespace fathom
