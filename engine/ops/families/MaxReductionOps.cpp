// Max-like reductions: amax.default, max.dim (values and indices), argmax.default.
//
// Layout: ReductionLayout.h (contiguous reduced shape; max.dim's two results share it).
// Values follow ATen's CPU max combine: a NaN wins over everything, else the larger value wins,
// and ties keep the earlier element, so indices are those of the first maximum (or first NaN)
// in the reduced dims' row-major order (argmax without a dim: the flattened index).
// Max has no identity, so reducing over a size-0 dim is an error (checkReducibleDim).
#include <cmath>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/families/ReductionFamilies.h"
#include "engine/ops/layout/ReductionLayout.h"
#include "engine/ops/cpu/ReductionLoop.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

template <class C>
bool isNan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

// Does `candidate`, met after `best`, replace it?
template <class C>
bool replacesMax(C candidate, C best) {
  return isNan(candidate) ? !isNan(best) : candidate > best;
}

// The first maximum of one group: writes its value (if `value`) and returns its index.
template <class T>
int64_t groupMax(const ReductionGeometry& g, const std::byte* first, T* value) {
  using C = OpMath<T>;
  C best = C(*reinterpret_cast<const T*>(first));
  int64_t at = 0;
  forEachRunInGroup(g, first, [&](const std::byte* p, int64_t s, int64_t n, int64_t flat) {
    for (int64_t i = 0; i < n; ++i) {
      const C v = C(*reinterpret_cast<const T*>(p + i * s));
      if (replacesMax(v, best)) {
        best = v;
        at = flat + i;
      }
    }
  });
  if (value) *value = T(best);
  return at;
}

// Runs the max reduction of `self` per layout `r`, filling `values` and/or `indices` (either may
// be undefined).
void maxKernel(const Tensor& self, const ReductionLayout& r, const Tensor& values, const Tensor& indices) {
  const ReductionGeometry g = reductionGeometry(self, r.reduced);
  int64_t* idx = indices.defined() ? indices.dataAs<int64_t>() : nullptr;
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* val = values.defined() ? values.dataAs<T>() : nullptr;
    forEachGroup(g, bytePtr(self), [&](int64_t o, const std::byte* first) {
      const int64_t at = groupMax<T>(g, first, val ? val + o : nullptr);
      if (idx) idx[o] = at;
    });
  });
}

// amax(self, dim=[], keepdim)
ReductionLayout amaxLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const IntList dims = toIntList(margs.at(1));
  if (symEq(self.numel(), 0, "amax: is the input empty")) checkReducibleDims(self, dims, "amax()");
  return reductionLayout(self, dims, boolArg(margs, 2), self.dtype);
}

// max.dim(self, dim, keepdim): the layout of both results (values in self's dtype).
ReductionLayout maxDimLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t dim = wrapDim(intArg(margs, 1), self.dim());
  checkReducibleDim(self, dim, "max()");
  return reductionLayout(self, IntList{dim}, boolArg(margs, 2), self.dtype);
}

// argmax(self, dim=None, keepdim): None reduces the flattened input.
ReductionLayout argmaxLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const auto dim = optionalSymIntArg(margs, 1);
  if (dim) {
    const int64_t w = wrapDim(intArg(margs, 1), self.dim());
    checkReducibleDim(self, w, "argmax()");
    return reductionLayout(self, IntList{w}, boolArg(margs, 2), DType::Int64);
  }
  FATHOM_CHECK(!symEq(self.numel(), 0, "argmax: is the input empty"),
               "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  return reductionLayout(self, std::nullopt, boolArg(margs, 2), DType::Int64);
}

TensorMeta withDtype(TensorMeta m, DType dtype) {
  m.dtype = dtype;
  return m;
}

}  // namespace

void registerMaxReductionOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
      [](const ValueList& args) { return ValueList{amaxLayout(args).output}; },
      [](const ValueList& args) {
        const ReductionLayout r = amaxLayout(metaArgs(args));
        Tensor out = allocateTensor(r.output);
        maxKernel(tensorArg(args, 0), r, out, Tensor());
        return ValueList{out};
      });
  (void)registry.add(
      "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      [](const ValueList& args) {
        const ReductionLayout r = maxDimLayout(args);
        return ValueList{r.output, withDtype(r.output, DType::Int64)};
      },
      [](const ValueList& args) {
        const ReductionLayout r = maxDimLayout(metaArgs(args));
        Tensor values = allocateTensor(r.output), indices = allocateTensor(withDtype(r.output, DType::Int64));
        maxKernel(tensorArg(args, 0), r, values, indices);
        return ValueList{values, indices};
      });
  (void)registry.add(
      "aten::argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
      [](const ValueList& args) { return ValueList{argmaxLayout(args).output}; },
      [](const ValueList& args) {
        const Tensor& self = tensorArg(args, 0);
        const ReductionLayout r = argmaxLayout(metaArgs(args));
        FATHOM_CHECK(self.dtype() != DType::Bool, "\"argmax_cpu\" not implemented for 'Bool'");
        Tensor out = allocateTensor(r.output);
        maxKernel(self, r, Tensor(), out);
        return ValueList{out};
      });
}

}  // namespace fathom
