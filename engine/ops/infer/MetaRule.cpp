#include "engine/ops/infer/MetaRule.h"

#include "engine/core/Error.h"
#include "engine/ops/layout/DimensionOrder.h"
#include "engine/ops/layout/MemoryLayout.h"

namespace fathom::infer {
namespace {

std::string refText(const DimRef& r) { return "in" + std::to_string(r.input) + ".d" + std::to_string(r.dim); }

std::string intsText(const std::vector<int>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

bool isIdentity(const std::vector<int>& map) {
  for (size_t d = 0; d < map.size(); ++d)
    if (map[d] != static_cast<int>(d)) return false;
  return true;
}

// Dense strides for `sizes` with dims ordered as input `in`'s mapped dims are (fastest first,
// TensorIterator's order). Unmapped dims abstain (stride 0), as broadcast dims do there.
SymIntList denseLike(const TensorMeta& in, const std::vector<int>& map, const SymIntList& sizes) {
  SymIntList mapped(sizes.size(), SymInt(0));
  for (size_t d = 0; d < sizes.size(); ++d)
    if (map[d] >= 0) mapped[d] = in.strides.at(static_cast<size_t>(map[d]));
  const std::vector<int64_t> perm = reorderDimensions({mapped}, sizes);
  SymIntList strides(sizes.size(), SymInt(1));
  SymInt next = 1;
  for (int64_t d : perm) {
    strides[static_cast<size_t>(d)] = next;
    const SymInt& size = sizes[static_cast<size_t>(d)];
    const bool empty = size.maybeConcrete() == std::optional<int64_t>(0);  // strides step over 0 as 1
    next = next * (empty ? SymInt(1) : size);
  }
  return strides;
}

}  // namespace

int64_t DimRule::eval(const std::vector<std::vector<int64_t>>& inputSizes) const {
  auto at = [&](size_t i) { return inputSizes[terms[i].input][terms[i].dim]; };
  switch (kind) {
    case Kind::Product: return at(0) * at(1);
    case Kind::FloorDiv: return floorDivInt(at(0), divisor);
    case Kind::Linear: break;
  }
  int64_t sum = constant;
  for (size_t i = 0; i < terms.size(); ++i) sum += at(i);
  return sum;
}

SymInt DimRule::eval(const std::vector<TensorMeta>& inputs) const {
  auto at = [&](size_t i) { return inputs.at(terms[i].input).sizes.at(terms[i].dim); };
  switch (kind) {
    case Kind::Product: return at(0) * at(1);
    case Kind::FloorDiv: return floorDiv(at(0), divisor);
    case Kind::Linear: break;
  }
  SymInt sum = terms.empty() ? SymInt(constant) : at(0);
  for (size_t i = 1; i < terms.size(); ++i) sum = sum + at(i);
  if (!terms.empty() && constant != 0) sum = sum + constant;
  return sum;
}

std::string DimRule::str() const {
  switch (kind) {
    case Kind::Product: return refText(terms[0]) + " * " + refText(terms[1]);
    case Kind::FloorDiv: return refText(terms[0]) + " // " + std::to_string(divisor);
    case Kind::Linear: break;
  }
  std::string out;
  for (const auto& t : terms) out += (out.empty() ? "" : " + ") + refText(t);
  if (out.empty()) return std::to_string(constant);
  if (constant > 0) out += " + " + std::to_string(constant);
  if (constant < 0) out += " - " + std::to_string(-constant);
  return out;
}

std::string LayoutRule::str() const {
  const std::string in = "in" + std::to_string(input);
  switch (kind) {
    case Kind::Contiguous: return "contiguous";
    case Kind::DenseLike: return "dense like " + in + (isIdentity(dimMap) ? "" : " dims " + intsText(dimMap));
    case Kind::SuggestedFormat: return "memory format of " + in;
    case Kind::ViewOf: return "a view of " + in + (isIdentity(dimMap) ? "" : " dims " + intsText(dimMap));
  }
  return "?";
}

std::string OutputRule::str() const {
  std::string out = "[";
  for (size_t d = 0; d < dims.size(); ++d) out += (d ? ", " : "") + dims[d].str();
  out += "], " + layout.str();
  if (dtype.likeInput < 0) out += ", " + std::string(dtypeName(dtype.fixed));
  return out;
}

TensorMeta OutputRule::apply(const std::vector<TensorMeta>& inputs) const {
  TensorMeta out;
  const TensorMeta* like = dtype.likeInput >= 0 ? &inputs.at(static_cast<size_t>(dtype.likeInput)) : nullptr;
  out.dtype = like ? like->dtype : dtype.fixed;
  out.device = inputs.empty() ? "cpu" : inputs[0].device;
  for (const auto& d : dims) out.sizes.push_back(d.eval(inputs));
  const TensorMeta& in = inputs.at(static_cast<size_t>(layout.input));
  switch (layout.kind) {
    case LayoutRule::Kind::Contiguous: out.strides = contiguousStrides(out.sizes); break;
    case LayoutRule::Kind::DenseLike: out.strides = denseLike(in, layout.dimMap, out.sizes); break;
    case LayoutRule::Kind::SuggestedFormat:
      out.strides = suggestedFormatStrides(out.sizes, suggestMemoryFormat(in));
      break;
    case LayoutRule::Kind::ViewOf:
      for (int k : layout.dimMap) out.strides.push_back(k >= 0 ? in.strides.at(static_cast<size_t>(k)) : SymInt(1));
      out.storageOffset = in.storageOffset;
      break;
  }
  return out;
}

}  // namespace fathom::infer
