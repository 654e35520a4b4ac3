// Layout helpers shared by the NN ops (see NnLayout.h).
#include "engine/ops/layout/NnLayout.h"

#include "engine/core/Error.h"

namespace fathom {

TensorMeta newTensorMeta(const TensorMeta& like, DType dtype, SymIntList sizes, SuggestedFormat format) {
  TensorMeta m;
  m.dtype = dtype;
  m.device = like.device;
  m.strides = suggestedFormatStrides(sizes, format);
  m.sizes = std::move(sizes);
  return m;
}

TensorMeta contiguousIn(const TensorMeta& t, SuggestedFormat format) {
  const MemoryFormat f = format == SuggestedFormat::ChannelsLast ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous;
  if (isContiguousIn(t, f)) return t;
  return newTensorMeta(t, t.dtype, t.sizes, format);
}

TensorMeta unsqueezeMeta(const TensorMeta& t, int64_t dim) {
  TensorMeta m = t;
  const SymInt stride = dim >= t.dim() ? SymInt(1) : t.sizes[dim] * t.strides[dim];
  m.sizes.insert(m.sizes.begin() + dim, SymInt(1));
  m.strides.insert(m.strides.begin() + dim, stride);
  return m;
}

TensorMeta squeezeMeta(const TensorMeta& t, int64_t dim) {
  TensorMeta m = t;
  m.sizes.erase(m.sizes.begin() + dim);
  m.strides.erase(m.strides.begin() + dim);
  return m;
}

std::string sizesText(const SymIntList& sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + sizes[i].str();
  return s + "]";
}

std::array<bool, 3> outputMaskArg(const Value& v) {
  const auto* list = v.tryAs<ValueList>();
  FATHOM_CHECK(list && list->size() == 3, "output_mask must be a list of 3 bools");
  std::array<bool, 3> mask{};
  for (size_t i = 0; i < 3; ++i) {
    FATHOM_CHECK((*list)[i].is<bool>(), "output_mask must be a list of 3 bools");
    mask[i] = (*list)[i].as<bool>();
  }
  return mask;
}

}  // namespace fathom
