// Max- and min-like reductions: amax, amin, max.dim, min.dim (values and indices), argmax,
// argmin.
//
// Layout: ReductionLayout.h (contiguous reduced shape; max.dim's two results share it).
// Values follow ATen's CPU max/min combine: a NaN wins over everything, else the larger (smaller)
// value wins, and ties keep the earlier element, so indices are those of the first extremum (or
// first NaN) in the reduced dims' row-major order (argmax without a dim: the flattened index).
// Neither has an identity, so reducing over a size-0 dim is an error (checkReducibleDim).
#include <cmath>
#include <string>
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
template <bool IsMax, class C>
bool replaces(C candidate, C best) {
  if (isNan(candidate)) return !isNan(best);
  return IsMax ? candidate > best : candidate < best;
}

// The first extremum of one group: writes its value (if `value`) and returns its index.
template <bool IsMax, class T>
int64_t groupExtremum(const ReductionGeometry& g, const std::byte* first, T* value) {
  using C = OpMath<T>;
  C best = C(*reinterpret_cast<const T*>(first));
  int64_t at = 0;
  forEachRunInGroup(g, first, [&](const std::byte* p, int64_t s, int64_t n, int64_t flat) {
    for (int64_t i = 0; i < n; ++i) {
      const C v = C(*reinterpret_cast<const T*>(p + i * s));
      if (replaces<IsMax>(v, best)) {
        best = v;
        at = flat + i;
      }
    }
  });
  if (value) *value = T(best);
  return at;
}

// Runs the max (min) reduction of `self` per layout `r`, filling `values` and/or `indices` (either
// may be undefined).
template <bool IsMax>
void extremumKernel(const Tensor& self, const ReductionLayout& r, const Tensor& values, const Tensor& indices) {
  const ReductionGeometry g = reductionGeometry(self, r.reduced);
  int64_t* idx = indices.defined() ? indices.dataAs<int64_t>() : nullptr;
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* val = values.defined() ? values.dataAs<T>() : nullptr;
    forEachGroup(g, bytePtr(self), [&](int64_t o, const std::byte* first) {
      const int64_t at = groupExtremum<IsMax, T>(g, first, val ? val + o : nullptr);
      if (idx) idx[o] = at;
    });
  });
}

// The names an op family's messages use: "max" or "min".
struct Extremum {
  bool isMax;
  std::string a, plain, arg;  // "amax()", "max()", "argmax()"
};
Extremum extremum(bool isMax) {
  const std::string n = isMax ? "max" : "min";
  return {isMax, "a" + n + "()", n + "()", "arg" + n + "()"};
}

// amax / amin(self, dim=[], keepdim)
ReductionLayout aLayout(const ValueList& margs, const Extremum& e) {
  const TensorMeta& self = metaArg(margs, 0);
  const IntList dims = toIntList(margs.at(1));
  if (symEq(self.numel(), 0, "amax: is the input empty")) checkReducibleDims(self, dims, e.a.c_str());
  return reductionLayout(self, dims, boolArg(margs, 2), self.dtype);
}

// max.dim / min.dim(self, dim, keepdim): the layout of both results (values in self's dtype).
ReductionLayout dimLayout(const ValueList& margs, const Extremum& e) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t dim = wrapDim(intArg(margs, 1), self.dim());
  checkReducibleDim(self, dim, e.plain.c_str());
  return reductionLayout(self, IntList{dim}, boolArg(margs, 2), self.dtype);
}

// argmax / argmin(self, dim=None, keepdim): None reduces the flattened input.
ReductionLayout argLayout(const ValueList& margs, const Extremum& e) {
  const TensorMeta& self = metaArg(margs, 0);
  const auto dim = optionalSymIntArg(margs, 1);
  if (dim) {
    const int64_t w = wrapDim(intArg(margs, 1), self.dim());
    checkReducibleDim(self, w, e.arg.c_str());
    return reductionLayout(self, IntList{w}, boolArg(margs, 2), DType::Int64);
  }
  FATHOM_CHECK(!symEq(self.numel(), 0, "argmax: is the input empty"),
               e.arg, ": Expected reduction dim to be specified for input.numel() == 0.");
  return reductionLayout(self, std::nullopt, boolArg(margs, 2), DType::Int64);
}

TensorMeta withDtype(TensorMeta m, DType dtype) {
  m.dtype = dtype;
  return m;
}

void runExtremum(bool isMax, const Tensor& self, const ReductionLayout& r, const Tensor& values, const Tensor& indices) {
  if (isMax) extremumKernel<true>(self, r, values, indices);
  else extremumKernel<false>(self, r, values, indices);
}

void registerExtremum(OpRegistry& registry, bool isMax) {
  const Extremum e = extremum(isMax);
  const std::string n = isMax ? "max" : "min";
  (void)registry.add(
      ("aten::a" + n + "(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor").c_str(),
      [e](const ValueList& args) { return ValueList{aLayout(args, e).output}; },
      [e](const ValueList& args) {
        const ReductionLayout r = aLayout(metaArgs(args), e);
        Tensor out = allocateTensor(r.output);
        runExtremum(e.isMax, tensorArg(args, 0), r, out, Tensor());
        return ValueList{out};
      });
  (void)registry.add(
      ("aten::" + n + ".dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)").c_str(),
      [e](const ValueList& args) {
        const ReductionLayout r = dimLayout(args, e);
        return ValueList{r.output, withDtype(r.output, DType::Int64)};
      },
      [e](const ValueList& args) {
        const ReductionLayout r = dimLayout(metaArgs(args), e);
        Tensor values = allocateTensor(r.output), indices = allocateTensor(withDtype(r.output, DType::Int64));
        runExtremum(e.isMax, tensorArg(args, 0), r, values, indices);
        return ValueList{values, indices};
      });
  (void)registry.add(
      ("aten::arg" + n + "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor").c_str(),
      [e](const ValueList& args) { return ValueList{argLayout(args, e).output}; },
      [e, n](const ValueList& args) {
        const Tensor& self = tensorArg(args, 0);
        const ReductionLayout r = argLayout(metaArgs(args), e);
        FATHOM_CHECK(self.dtype() != DType::Bool, "\"arg" + n + "_cpu\" not implemented for 'Bool'");
        Tensor out = allocateTensor(r.output);
        runExtremum(e.isMax, self, r, Tensor(), out);
        return ValueList{out};
      });
}

}  // namespace

void registerMaxReductionOps(OpRegistry& registry) {
  registerExtremum(registry, true);
  registerExtremum(registry, false);
}

}  // namespace fathom
