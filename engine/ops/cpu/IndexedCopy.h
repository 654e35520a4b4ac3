// The copy loop behind gather, index_select and embedding: every element of `out` comes from a
// source element chosen partly by position and partly by an index tensor,
//   out[p] = src[sum_d p[d] * srcStrides[d] + index[p] * srcIndexStride]
// where `index` is viewed with out's shape (index_select and embedding pass a broadcast view,
// stride 0 along the dims the index does not vary in). Where the index is constant along a
// run that is contiguous in both out and src (index_select / embedding rows), the run is one
// memcpy; large outputs are split over threads.
//
// Indices are validated before the copy (checkIndexRange), so the copy loop never leaves src.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "engine/tensor/Tensor.h"

namespace fathom {

// Throws OpError(message(i)) for the first index value i outside [0, bound). `index` must be
// int64 or int32.
void checkIndexRange(const Tensor& index, int64_t bound, const std::function<std::string(int64_t)>& message);

// index_select's (and embedding's) checks of its indices along `dim` of `self`, with the message
// of the ATen path that would run: an empty self needs a non-empty indexed dim; dim 1 of a
// matrix or more (its dedicated kernel) and an empty self report "INDICES element is out of
// DATA bounds"; every other case "index out of range in self".
void checkIndexSelectRange(const Tensor& self, int64_t dim, const Tensor& index);

// `out` and `src` share a dtype; `srcStrides` has one entry per dim of out (in elements), and
// every index value is in range.
void indexedCopy(const Tensor& out, const Tensor& index, const std::byte* src, const IntList& srcStrides,
                 int64_t srcIndexStride);

// `t` viewed with `sizes` and `strides` (a broadcast view of the same storage, no copy).
Tensor stridedView(const Tensor& t, const IntList& sizes, const IntList& strides);

}  // namespace fathom
