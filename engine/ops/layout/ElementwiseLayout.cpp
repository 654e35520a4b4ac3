// TensorIterator's shape, dtype and output-stride rules for elementwise ops (see
// ElementwiseLayout.h). Steps follow TensorIterator::build: compute_shape, compute_types,
// fast_set_up, else compute_strides + reorder_dimensions + allocate_or_resize_outputs.
#include "engine/ops/layout/ElementwiseLayout.h"


#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/DimensionOrder.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"

namespace fathom {

TensorMeta wrappedNumberMeta(DType dtype) {
  TensorMeta m;
  m.dtype = dtype;
  return m;
}

namespace {

struct ShapeInfo {
  SymIntList shape;
  bool allSameShape = true;  // enables the fast setup (a zero-dim among n-dim inputs disables it)
};

bool sameStrides(const SymIntList& a, const SymIntList& b) {
  if (a.size() != b.size()) return false;
  for (size_t d = 0; d < a.size(); ++d)
    if (!symEq(a[d], b[d], "elementwise: inputs with the same strides")) return false;
  return true;
}

// `b` is operand i; guard reasons name the operands as broadcastShapes does.
bool sameSizes(const SymIntList& a, const SymIntList& b, size_t i) {
  if (a.size() != b.size()) return false;
  for (size_t d = 0; d < a.size(); ++d) {
    const bool symbolic = a[d].isSymbolic() || b[d].isSymbolic();
    const std::string reason =
        symbolic ? detail::concat("same shape: dim ", d, " of ", i == 1 ? "{arg0}" : "the others", " (", a[d].str(),
                                  ") vs dim ", d, " of {arg", i, "} (", b[d].str(), ")")
                 : std::string();
    if (!symEq(a[d], b[d], reason)) return false;
  }
  return true;
}

// How guard reasons name the operands broadcast so far and operand i ("{argN}": see Broadcast.h).
std::string operandsName(size_t i) {
  return i == 1 ? "{arg0}" : "the broadcast of {arg0}.." + std::string("{arg") + std::to_string(i - 1) + "}";
}

ShapeInfo computeShape(const std::vector<ElementwiseOperand>& inputs) {
  ShapeInfo info;
  bool hasScalars = false, hasTensors = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& in = inputs[i];
    const SymIntList& s = in.meta.sizes;
    (s.empty() ? hasScalars : hasTensors) = true;
    if (hasScalars && hasTensors) info.allSameShape = false;
    if (info.shape.empty()) {
      info.shape = s;
    } else if (!sameSizes(info.shape, s, i)) {
      info.allSameShape = false;
      info.shape = broadcastShapes(info.shape, s, operandsName(i), "{arg" + std::to_string(i) + "}");
    }
  }
  return info;
}

// The common dtype over the operands that take part in promotion (all but fixed-dtype ones).
DType commonDtype(const std::vector<ElementwiseOperand>& inputs, ElementwisePromotion promotion) {
  std::vector<const ElementwiseOperand*> promoted;
  for (const auto& in : inputs)
    if (!in.fixedDtype) promoted.push_back(&in);
  FATHOM_CHECK(!promoted.empty(), "elementwise op without inputs");
  const DType first = promoted[0]->meta.dtype;
  bool differ = false, allScalars = true;
  for (const auto* in : promoted) {
    differ |= in->meta.dtype != first;
    allScalars = allScalars && in->meta.dim() == 0;
  }
  if (promotion == ElementwisePromotion::SameDtype) {
    for (const auto* in : promoted)
      FATHOM_CHECK(in->meta.dtype == first, "Found dtype ", scalarTypeName(in->meta.dtype), " but expected ",
                   scalarTypeName(first));
    return first;
  }
  DType common = first;
  if (differ || allScalars) {  // all zero-dim: wrapped numbers still promote (a float is float32)
    ResultTypeState state;
    for (const auto* in : promoted) {
      if (in->wrappedNumber) state.addScalar(in->meta.dtype);
      else state.addTensor(in->meta.dtype, in->meta.dim());
    }
    common = state.result();
  }
  if (promotion == ElementwisePromotion::CommonToFloat && isIntegral(common, /*includeBool=*/true))
    common = DType::Float32;
  return common;
}

// TensorIterator::compute_fast_setup_type + fast_set_up: strides for the output when all
// inputs have one shape and a shared dense layout; nullopt when the general path must run.
std::optional<SymIntList> fastSetupStrides(const std::vector<TensorMeta>& ops, const SymIntList& shape) {
  bool contiguous = true, channelsLast = true, dense = true;
  for (const auto& op : ops) contiguous = contiguous && isContiguous(op);
  if (contiguous) return contiguousStrides(shape);
  for (const auto& op : ops) channelsLast = channelsLast && isChannelsLastContiguous(op);
  if (channelsLast) return channelsLastStrides(shape);
  for (const auto& op : ops) dense = dense && isDenseLayout(op);
  if (!dense) return std::nullopt;
  // Allowed only when every input has the very same strides; the output copies the last one's.
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    if (!sameStrides(ops[i].strides, ops.back().strides)) return std::nullopt;
  }
  return ops.back().strides;
}

// TensorIterator::compute_strides: each operand's strides over the broadcast shape; broadcast
// dimensions (size 1 stretched, or missing in front) get stride 0.
std::vector<SymIntList> broadcastStrides(const std::vector<TensorMeta>& ops, const SymIntList& shape) {
  std::vector<SymIntList> out;
  const int64_t ndim = static_cast<int64_t>(shape.size());
  for (const auto& op : ops) {
    SymIntList s(ndim, SymInt(0));
    const int64_t offset = ndim - op.dim();
    for (int64_t i = 0; i < op.dim(); ++i) {
      const bool stretched = symEq(op.sizes[i], 1, "elementwise: is this dim broadcast") &&
                             !symEq(shape[offset + i], 1, "elementwise: is this dim broadcast");
      s[offset + i] = stretched ? SymInt(0) : op.strides[i];
    }
    out.push_back(std::move(s));
  }
  return out;
}

// allocate_or_resize_outputs: dense strides in permutation order. Note the raw size product
// (no max(size, 1)) as TensorIterator's compatible_stride uses; plain row-major order instead
// gives ordinary contiguous strides.
SymIntList stridesFromPermutation(const std::vector<int64_t>& perm, const SymIntList& shape) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  bool inverted = true;
  for (int64_t j = 0; j < ndim; ++j) inverted = inverted && perm[j] == ndim - 1 - j;
  if (inverted) return contiguousStrides(shape);
  SymIntList out(ndim);
  SymInt next = 1;
  for (int64_t j = 0; j < ndim; ++j) {
    out[perm[j]] = next;
    next = next * shape[perm[j]];
  }
  return out;
}

}  // namespace

DType elementwiseResultType(const std::vector<ElementwiseOperand>& inputs, ElementwisePromotion promotion) {
  return commonDtype(inputs, promotion);
}

ElementwiseLayout computeElementwiseLayout(const std::vector<ElementwiseOperand>& inputs,
                                           ElementwisePromotion promotion, std::optional<DType> outputDtype) {
  const ShapeInfo shape = computeShape(inputs);
  ElementwiseLayout layout;
  layout.commonDtype = commonDtype(inputs, promotion);
  for (const auto& in : inputs) {
    const bool promote = promotion != ElementwisePromotion::SameDtype && !in.fixedDtype &&
                         in.meta.dtype != layout.commonDtype;
    layout.operands.push_back(promote ? freshLike(in.meta, layout.commonDtype, likeStrides(in.meta, std::nullopt))
                                      : in.meta);
  }
  std::optional<SymIntList> strides;
  if (shape.allSameShape) strides = fastSetupStrides(layout.operands, shape.shape);
  if (!strides) {
    const auto perOperand = broadcastStrides(layout.operands, shape.shape);
    strides = stridesFromPermutation(reorderDimensions(perOperand, shape.shape), shape.shape);
  }
  layout.output.dtype = outputDtype.value_or(layout.commonDtype);
  layout.output.device = inputs[0].meta.device;
  layout.output.sizes = shape.shape;
  layout.output.strides = std::move(*strides);
  return layout;
}

}  // namespace fathom
