// The embedding bag ops' shared checks and bags (see EmbeddingBag.h).
#include "engine/ops/families/EmbeddingBag.h"

#include "engine/core/Error.h"
#include "engine/ops/OpArgs.h"

namespace fathom {

void checkBagMode(int64_t mode) {
  FATHOM_CHECK(mode == kBagSum || mode == kBagMean || mode == kBagMax,
               "embedding_bag: mode must be 0 (sum), 1 (mean) or 2 (max), got ", mode);
}

void checkBagIndices(const TensorMeta& indices, const TensorMeta& offsets) {
  FATHOM_CHECK(indices.dim() > 0 && offsets.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  FATHOM_CHECK(indices.dim() == 1, "embedding_bag: indices must be 1-D, got ", indices.dim(), "-D");
  FATHOM_CHECK(offsets.dim() == 1, "embedding_bag: offsets must be 1-D, got ", offsets.dim(), "-D");
}

DType bagIndexDtype(const TensorMeta& indices, const TensorMeta& offsets) {
  const DType t = promoteTypes(indices.dtype, offsets.dtype);
  FATHOM_CHECK(t == DType::Int64 || t == DType::Int32,
               "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
               "but got torch.", scalarTypeName(t), "Tensor instead (while checking arguments for embedding_bag)");
  return t;
}

void checkBagWeightDtype(DType dtype, const char* name) {
  FATHOM_CHECK(dtype == DType::Float16 || dtype == DType::Float32 || dtype == DType::Float64,
               "Expected tensor for argument #1 '", name,
               "' to have one of the following scalar types: Half, Float, Double; but got torch.",
               scalarTypeName(dtype), "Tensor instead (while checking arguments for embedding_bag)");
}

const TensorMeta* optionalTensorMeta(const ValueList& margs, size_t i) {
  return margs.at(i).isNone() ? nullptr : &metaArg(margs, i);
}

std::vector<int64_t> Bags::offset2bag() const {
  std::vector<int64_t> out(index.size(), 0);
  for (int64_t b = 0; b < count(); ++b)
    for (int64_t i = begin(b); i < end(b); ++i) out[i] = b;
  return out;
}

Bags readBags(const Tensor& indices, const Tensor& offsets, bool includeLast, int64_t paddingIdx, int64_t numWeights) {
  Bags bags;
  bags.paddingIdx = paddingIdx;
  bags.index = indexList(indices);
  const std::vector<int64_t> off = indexList(offsets);
  const auto n = static_cast<int64_t>(bags.index.size());
  if (!off.empty()) {
    FATHOM_CHECK(off[0] == 0, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                 "from position 0. However, got ", off[0]);
    FATHOM_CHECK(off.back() <= n, "offsets[-1] can not be greater than input's length ", n,
                 " but got offsets[-1] of ", off.back());
  }
  for (size_t b = 1; b < off.size(); ++b)
    FATHOM_CHECK(off[b] >= off[b - 1], "embedding_bag: offsets must not decrease, but offsets[", b, "] = ", off[b],
                 " follows ", off[b - 1]);
  FATHOM_CHECK(!includeLast || off.empty() || off.back() == n,
               "embedding_bag: with include_last_offset, offsets[-1] must be the number of indices ", n, ", got ",
               off.back());
  FATHOM_CHECK(n == 0 || !off.empty(), "embedding_bag: ", n, " indices but no offsets (no bag to put them in)");
  bags.starts.assign(off.begin(), includeLast ? off.end() - 1 : off.end());
  for (int64_t k : bags.index)
    FATHOM_CHECK(k >= 0 && k < numWeights, "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ", k);
  bags.size.assign(bags.starts.size(), 0);
  for (int64_t b = 0; b < bags.count(); ++b)
    for (int64_t i = bags.begin(b); i < bags.end(b); ++i) bags.size[b] += bags.index[i] != paddingIdx;
  return bags;
}

std::vector<int64_t> indexList(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = static_cast<int64_t>(t.atLinear(i));
  return out;
}

void writeIndices(Tensor t, const std::vector<int64_t>& values) {
  for (size_t i = 0; i < values.size(); ++i) t.setLinear(static_cast<int64_t>(i), static_cast<double>(values[i]));
}

}  // namespace fathom
