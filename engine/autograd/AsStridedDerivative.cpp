// as_strided's gradient, as PyTorch 1.13's as_strided_backward (FunctionsManual.cpp) computes it:
//   1. drop the output's size-1 dims, sum the gradient over its stride-0 (expanded) dims;
//   2. make a zero "storage" covering both the input's and the output's geometry (relative to
//      the smaller storage offset);
//   3. write the gradient into it through the output's geometry - added up (a 1-d scatter_add)
//      when that geometry may hit an element twice;
//   4. when the input's own geometry may hit an element twice, divide each element by how often
//      it does;
//   5. view the storage through the input's geometry.
// Real models meet it in AOT joint graphs (ConvNeXt's and Swin's functionalized views), which
// `fathom run --backend aot_eager` replays to differentiate eagerly. Symbolic sizes or strides
// are refused with the op's name: the layout arithmetic here needs numbers.
#include <algorithm>
#include <numeric>

#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"
#include "engine/frontend/OpCall.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

struct Geometry {
  IntList sizes, strides;
  int64_t offset = 0;
};

int64_t concrete(const SymInt& v, const char* what) {
  if (auto c = v.maybeConcrete()) return *c;
  throw OpError(std::string("the derivative of aten.as_strided.default needs concrete ") + what + ", not symbolic ones");
}

IntList concreteList(const SymValues& v, const char* what) {
  IntList out;
  for (const auto& s : v) out.push_back(concrete(s.sym(), what));
  return out;
}

IntList concreteList(const SymIntList& v, const char* what) {
  IntList out;
  for (const auto& s : v) out.push_back(concrete(s, what));
  return out;
}

// PyTorch's _maybe_overlapping_memory: with dims sorted by stride, a stride no larger than the
// span of the smaller dims may revisit an element.
bool maybeOverlapping(const Geometry& g) {
  std::vector<size_t> order(g.sizes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return g.strides[a] < g.strides[b]; });
  int64_t span = 0;
  for (size_t i : order) {
    if (g.strides[i] <= span) return true;
    span += g.strides[i] * (g.sizes[i] - 1);
  }
  return false;
}

// PyTorch's _min_storage_size: one past the last element the geometry reaches.
int64_t minStorageSize(const Geometry& g) {
  int64_t n = g.offset + 1;
  for (size_t i = 0; i < g.sizes.size(); ++i) {
    if (g.sizes[i] == 0) return g.offset;
    n += (g.sizes[i] - 1) * g.strides[i];
  }
  return n;
}

Tensor viewAs(const Tensor& storage, const Geometry& g) {
  return callOp1("aten.as_strided.default", {storage, g.sizes, g.strides, g.offset});
}

Tensor asStridedBackward(Tensor grad, const TensorMeta& input, const IntList& sizes, const IntList& strides, int64_t offset) {
  const IntList inSizes = concreteList(input.sizes, "input sizes");
  // Step 1 on the output geometry, innermost dim first so squeezes keep the indices valid.
  Geometry out;
  for (size_t k = sizes.size(); k-- > 0;) {
    const int64_t d = static_cast<int64_t>(k);
    if (sizes[k] == 0) return callOp1("aten.new_zeros.default", {grad, inSizes});
    if (sizes[k] == 1) {
      grad = callOp1("aten.squeeze.dim", {grad, d});
    } else if (strides[k] == 0) {
      grad = sum(grad, {d});
    } else {
      out.sizes.insert(out.sizes.begin(), sizes[k]);
      out.strides.insert(out.strides.begin(), strides[k]);
    }
  }
  // The input geometry without its size-1 dims (size 0: nothing to differentiate).
  const IntList inStrides = concreteList(input.strides, "input strides");
  Geometry in;
  for (size_t k = 0; k < inSizes.size(); ++k) {
    if (inSizes[k] == 0) return callOp1("aten.new_zeros.default", {grad, inSizes});
    if (inSizes[k] != 1) {
      in.sizes.push_back(inSizes[k]);
      in.strides.push_back(inStrides[k]);
    }
  }
  const int64_t inOffset = concrete(input.storageOffset, "input storage offset");
  const int64_t shared = std::min(inOffset, offset);
  in.offset = inOffset - shared;
  out.offset = offset - shared;
  const int64_t base = std::max(minStorageSize(in), minStorageSize(out));
  Tensor storage = callOp1("aten.new_zeros.default", {grad, IntList{base}});
  const bool outOverlaps = maybeOverlapping(out), inOverlaps = maybeOverlapping(in);
  Tensor indices;
  if (outOverlaps || inOverlaps) indices = arange(0, base, DType::Int64);
  if (outOverlaps) {
    const Tensor at = reshape(viewAs(indices, out), {-1});
    storage = callOp1("aten.scatter_add.default", {storage, 0, at, reshape(grad, {-1})});
  } else {
    storage = callOp1("aten.as_strided_scatter.default", {storage, grad, out.sizes, out.strides, out.offset});
  }
  if (inOverlaps) {
    const Tensor at = reshape(viewAs(indices, in), {-1});
    const Tensor ones = callOp1("aten.new_ones.default", {grad, at.sizes()});
    const Tensor count = callOp1("aten.scatter_add.default", {zerosLike(storage), 0, at, ones});
    storage = div(storage, count);  // NaN outside what the input sees, as in PyTorch
  }
  return viewAs(storage, Geometry{inSizes, inStrides, in.offset});
}

}  // namespace

void registerAsStridedDerivative() {
  // as_strided(self, size, stride, storage_offset=None)
  registerDerivative("aten.as_strided.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const TensorMeta input = c.tensor(0).meta();
    const int64_t offset = c.isNone(3) ? concrete(input.storageOffset, "input storage offset")
                                       : concrete(c.symInt(3).sym(), "storage offsets");
    c.set(0, asStridedBackward(c.grad(), input, concreteList(c.symList(1), "sizes"),
                               concreteList(c.symList(2), "strides"), offset));
  });
}

}  // namespace fathom::autograd
