// Advanced indexing layouts (see AdvancedIndexLayout.h).
#include "engine/ops/layout/AdvancedIndexLayout.h"

#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ElementwiseLayout.h"
#include "engine/ops/layout/ViewGeometry.h"

namespace fathom {
namespace {

std::string shapesText(const OptionalMetas& indices) {
  std::string s;
  for (const auto& i : indices)
    if (i) s += (s.empty() ? "" : ", ") + sizesStr(i->sizes);
  return s;
}

// expand_outplace: the shape every defined index broadcasts to.
SymIntList broadcastIndexShape(const OptionalMetas& indices) {
  std::optional<SymIntList> shape;
  try {
    for (const auto& i : indices)
      if (i) shape = shape ? broadcastShapes(*shape, i->sizes) : i->sizes;
  } catch (const OpError&) {
    FATHOM_CHECK(false, "shape mismatch: indexing tensors could not be broadcast together with shapes ",
                 shapesText(indices));
  }
  return shape.value_or(SymIntList{});
}

// ATen's hasContiguousSubspace: the defined indices are one block.
bool adjacent(const OptionalMetas& indices) {
  int64_t first = -1, last = -1, count = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(indices.size()); ++i)
    if (indices[i]) first = first < 0 ? i : first, last = i, ++count;
  return count == 0 || last - first + 1 == count;
}

}  // namespace

bool checkIndexList(const TensorMeta& self, const OptionalMetas& indices) {
  FATHOM_CHECK(indices.size() <= static_cast<size_t>(self.dim()), "too many indices for tensor of dimension ",
               self.dim(), " (got ", indices.size(), ")");
  bool masks = false;
  for (const auto& i : indices) {
    if (!i) continue;
    FATHOM_CHECK(i->dtype == DType::Int64 || i->dtype == DType::UInt8 || i->dtype == DType::Bool,
                 "tensors used as indices must be long, byte or bool tensors");
    masks = masks || i->dtype != DType::Int64;
  }
  return masks;
}

AdvancedIndex advancedIndex(const TensorMeta& selfIn, const OptionalMetas& given) {
  const SymIntList shape = broadcastIndexShape(given);
  OptionalMetas indices = given;
  indices.resize(static_cast<size_t>(std::max<int64_t>(selfIn.dim(), static_cast<int64_t>(given.size()))));
  TensorMeta self = selfIn;
  if (!adjacent(indices)) {  // transposeToFront
    SymIntList sizes, strides;
    OptionalMetas front, back;
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t d = 0; d < self.dim(); ++d)
        if (indices[d].has_value() == (pass == 0)) {
          sizes.push_back(selfIn.sizes[d]), strides.push_back(selfIn.strides[d]);
          (pass == 0 ? front : back).push_back(indices[d]);
        }
    self = viewOf(selfIn, std::move(sizes), std::move(strides), selfIn.storageOffset);
    front.insert(front.end(), back.begin(), back.end());
    indices = std::move(front);
  }
  AdvancedIndex info;
  int64_t before = 0, after = 0;
  SymIntList sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!indices[d]) {
      (info.indexedSizes.empty() ? before : after) += 1;
      sizes.push_back(self.sizes[d]), strides.push_back(self.strides[d]);
      continue;
    }
    if (info.indexedSizes.empty())
      for (const SymInt& s : shape) sizes.push_back(s), strides.push_back(SymInt(0));
    info.indexedSizes.push_back(self.sizes[d]);
    info.indexedStrides.push_back(self.strides[d]);
  }
  bool emptyIndexed = false, emptyShape = false;
  for (const SymInt& s : info.indexedSizes) emptyIndexed = emptyIndexed || symEq(s, 0, "index: empty indexed dim");
  for (const SymInt& s : shape) emptyShape = emptyShape || symEq(s, 0, "index: empty index");
  FATHOM_CHECK(!emptyIndexed || emptyShape, "index is out of bounds for dimension with size 0");
  info.src = viewOf(self, std::move(sizes), std::move(strides), self.storageOffset);
  for (const auto& i : indices) {
    if (!i) continue;
    const Geometry g = expandGeometry(*i, shape);
    SymIntList viewSizes(static_cast<size_t>(before), SymInt(1)), viewStrides(static_cast<size_t>(before), SymInt(0));
    viewSizes.insert(viewSizes.end(), g.sizes.begin(), g.sizes.end());
    viewStrides.insert(viewStrides.end(), g.strides.begin(), g.strides.end());
    viewSizes.resize(viewSizes.size() + static_cast<size_t>(after), SymInt(1));
    viewStrides.resize(viewStrides.size() + static_cast<size_t>(after), SymInt(0));
    info.indices.push_back(viewOf(*i, std::move(viewSizes), std::move(viewStrides), i->storageOffset));
  }
  return info;
}

TensorMeta indexResultLayout(const AdvancedIndex& info) {
  std::vector<ElementwiseOperand> ops{{info.src}};
  for (const TensorMeta& i : info.indices) ops.push_back({i, false, true});
  return computeElementwiseLayout(ops, ElementwisePromotion::SameDtype, info.src.dtype).output;
}

}  // namespace fathom
