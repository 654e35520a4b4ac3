// Reductions that fold each group with an operator from its identity: prod.default and
// prod.dim_int (x, from 1), any.default and any.dim (or, from false).
//
// Layout: ReductionLayout.h (a fresh contiguous tensor of the reduced shape; an empty group gives
// the identity). Dtype: prod promotes integer and bool inputs to int64 unless a dtype is given,
// and first converts the input to the result dtype (ATen's make_reduction), then multiplies in
// that dtype (integers wrap); any gives bool, except uint8 stays uint8 (PyTorch 1.13's rule), and
// a value is true when it is nonzero (NaN is).
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/cpu/ReductionLoop.h"
#include "engine/ops/cpu/WrappingArithmetic.h"
#include "engine/ops/families/ReductionFamilies.h"
#include "engine/ops/layout/ReductionLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

// ---- prod ------------------------------------------------------------------------------------

DType prodDtype(const TensorMeta& self, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return isIntegral(self.dtype, /*includeBool=*/true) ? DType::Int64 : self.dtype;
}

// prod.default(self, *, dtype): every dim.
ReductionLayout prodLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  return reductionLayout(self, std::nullopt, false, prodDtype(self, optionalDTypeArg(margs, 1)));
}

// prod.dim_int(self, dim, keepdim, *, dtype).
ReductionLayout prodDimLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t dim = wrapDim(intArg(margs, 1), self.dim());
  return reductionLayout(self, IntList{dim}, boolArg(margs, 2), prodDtype(self, optionalDTypeArg(margs, 3)));
}

// Each group's product in the result dtype T, rounded to T after every step (as ATen's
// reduction over scalar_t does).
template <class T>
void prodTyped(const Tensor& in, const Tensor& out, const ReductionLayout& r) {
  using C = OpMath<T>;
  const ReductionGeometry g = reductionGeometry(in, r.reduced);
  T* o = out.dataAs<T>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = T(C(1));
  forEachGroup(g, bytePtr(in), [&](int64_t i, const std::byte* first) {
    T acc = T(C(1));
    forEachRunInGroup(g, first, [&](const std::byte* p, int64_t s, int64_t n, int64_t) {
      for (int64_t k = 0; k < n; ++k) acc = T(wrapMul<C>(C(acc), C(*reinterpret_cast<const T*>(p + k * s))));
    });
    o[i] = acc;
  });
}

Tensor prodKernel(const Tensor& self, const ReductionLayout& r) {
  Tensor out = allocateTensor(r.output);
  const DType dtype = r.output.dtype;
  FATHOM_CHECK(dtype != DType::Float16 && dtype != DType::BFloat16, "\"prod_cpu\" not implemented for '",
               scalarTypeName(dtype), "'");
  TensorMeta converted = self.meta();
  converted.dtype = dtype;
  converted.strides = contiguousStrides(converted.sizes);
  converted.storageOffset = 0;
  const Tensor in = convertedTo(self, converted);
  dispatchDType(r.output.dtype, [&](auto tag) { prodTyped<typename decltype(tag)::type>(in, out, r); });
  return out;
}

// ---- any -------------------------------------------------------------------------------------

DType anyDtype(const TensorMeta& self) { return self.dtype == DType::UInt8 ? DType::UInt8 : DType::Bool; }

ReductionLayout anyLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  return reductionLayout(self, std::nullopt, false, anyDtype(self));
}

ReductionLayout anyDimLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t dim = wrapDim(intArg(margs, 1), self.dim());
  return reductionLayout(self, IntList{dim}, boolArg(margs, 2), anyDtype(self));
}

Tensor anyKernel(const Tensor& self, const ReductionLayout& r) {
  Tensor out = allocateTensor(r.output);
  for (int64_t i = 0; i < out.numel(); ++i) out.setLinear(i, 0);
  const ReductionGeometry g = reductionGeometry(self, r.reduced);
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    forEachGroup(g, bytePtr(self), [&](int64_t i, const std::byte* first) {
      bool any = false;
      forEachRunInGroup(g, first, [&](const std::byte* p, int64_t s, int64_t n, int64_t) {
        for (int64_t k = 0; k < n && !any; ++k) any = C(*reinterpret_cast<const T*>(p + k * s)) != C(0);
      });
      out.setLinear(i, any ? 1 : 0);
    });
  });
  return out;
}

}  // namespace

void registerFoldReductionOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{prodLayout(args).output}; },
      [](const ValueList& args) { return ValueList{prodKernel(tensorArg(args, 0), prodLayout(metaArgs(args)))}; });
  (void)registry.add(
      "aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{prodDimLayout(args).output}; },
      [](const ValueList& args) { return ValueList{prodKernel(tensorArg(args, 0), prodDimLayout(metaArgs(args)))}; });
  (void)registry.add(
      "aten::any(Tensor self) -> Tensor", [](const ValueList& args) { return ValueList{anyLayout(args).output}; },
      [](const ValueList& args) { return ValueList{anyKernel(tensorArg(args, 0), anyLayout(metaArgs(args)))}; });
  (void)registry.add(
      "aten::any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor",
      [](const ValueList& args) { return ValueList{anyDimLayout(args).output}; },
      [](const ValueList& args) { return ValueList{anyKernel(tensorArg(args, 0), anyDimLayout(metaArgs(args)))}; });
}

}  // namespace fathom
