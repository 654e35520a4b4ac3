// What the embedding bag ops (EmbeddingBagOps.cpp, EmbeddingBagBackwardOps.cpp) share: the
// modes, 1.13's argument checks, and the bags read from indices and offsets.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/ops/Value.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

constexpr int64_t kBagSum = 0, kBagMean = 1, kBagMax = 2;

// 1.13 crashes on any other mode; Fathom says so.
void checkBagMode(int64_t mode);
// indices and offsets are 1-d (EmbeddingBag flattens 2-d input before it calls the op).
void checkBagIndices(const TensorMeta& indices, const TensorMeta& offsets);
// promoteIndicesAndOffsets: both go to their promoted dtype, which must be int64 or int32.
DType bagIndexDtype(const TensorMeta& indices, const TensorMeta& offsets);
// The weight (or gradient) dtypes 1.13 accepts: float16, float32, float64.
void checkBagWeightDtype(DType dtype, const char* name);
// A Tensor? argument's meta, or null for None.
const TensorMeta* optionalTensorMeta(const ValueList& margs, size_t i);

// The bags of an _embedding_bag call: bag b holds positions [begin(b), end(b)) of `index`.
struct Bags {
  std::vector<int64_t> index;   // the indices' values
  std::vector<int64_t> starts;  // each bag's first position
  std::vector<int64_t> size;    // each bag's length, padding_idx entries not counted
  int64_t paddingIdx = -1;
  int64_t count() const { return static_cast<int64_t>(starts.size()); }
  int64_t begin(int64_t b) const { return starts[b]; }
  int64_t end(int64_t b) const { return b + 1 < count() ? starts[b + 1] : static_cast<int64_t>(index.size()); }
  // Each position's bag (1.13's offset2bag: the last bag starting at or before it).
  std::vector<int64_t> offset2bag() const;
};

// Reads and checks the bags: offsets start at 0, do not decrease and stay within N (with
// include_last_offset, end at N); every index is in [0, numWeights).
Bags readBags(const Tensor& indices, const Tensor& offsets, bool includeLast, int64_t paddingIdx, int64_t numWeights);

// A 1-d int32/int64 tensor's values, and writing them back.
std::vector<int64_t> indexList(const Tensor& t);
void writeIndices(Tensor t, const std::vector<int64_t>& values);

}  // namespace fathom
