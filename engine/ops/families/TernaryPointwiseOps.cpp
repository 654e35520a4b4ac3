// The ternary pointwise ops of ATen's PointwiseOps: addcmul (self + value * tensor1 * tensor2;
// timm's ResMLP Affine layers, optimizers' moment updates) and addcdiv (self + value * tensor1 /
// tensor2).
//
// Both are TensorIterator ops over (self, tensor1, tensor2) promoted to their common dtype
// (build_ternary_op): broadcast sizes, output strides following the inputs' dimension order as
// every elementwise op's (ElementwiseLayout.h). `value` takes no part in promotion; it is
// converted to the common dtype as Scalar::to converts it (an integer op truncates 0.5 to 0; an
// int8 op with value=300 is an error), and the formula runs in that dtype left to right as ATen's
// scalar loop writes it: (value * t1) * t2, then + self; integers wrap. 16-bit floats compute in
// float32 and round once (ATen's bfloat16 path; torch 2.x's float16 path - 1.13 has no float16
// kernel and refuses, as Fathom does for a 1.13 graph). bool: "not implemented" (no kernel in
// either version). addcdiv refuses two integer (or bool) divisor tensors before anything else, as
// its meta function does.
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/AtenVersion.h"
#include "engine/ops/cpu/ScalarConvert.h"
#include "engine/ops/cpu/WrappingArithmetic.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"

namespace fathom {
namespace {

using P = ElementwisePromotion;
constexpr std::array<size_t, 3> kSelfT1T2{0, 1, 2};
constexpr size_t kValue = 3;

// The dtypes ATen's kernels have: AT_DISPATCH_ALL_TYPES_AND_COMPLEX plus bfloat16, and float16
// from torch 2.0 on.
template <const char* Kernel>
void checkKernelDtype(const ElementwiseOperands& ops, const ValueList&) {
  const DType t = elementwiseResultType(ops, P::Common);
  const bool has = t != DType::Bool && (t != DType::Float16 || atenVersion().atLeast(2, 0));
  FATHOM_CHECK(has, "\"", Kernel, "\" not implemented for '", scalarTypeName(t), "'");
}
constexpr char kAddcmul[] = "addcmul_cpu_out", kAddcdiv[] = "addcdiv_cpu_out";

// addcdiv's meta function: integer division is refused whatever self is.
void checkAddcdiv(const ElementwiseOperands& ops, const ValueList& args) {
  FATHOM_CHECK(!isIntegral(ops[1].meta.dtype, /*includeBool=*/true) || !isIntegral(ops[2].meta.dtype, true),
               "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
               "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + "
               "value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * "
               "tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
               "(input + value * tensor1 / tensor2), for all dtypes.");
  checkKernelDtype<kAddcdiv>(ops, args);
}

// value as the kernel reads it: Scalar::to<scalar_t>(), to<float>() for 16-bit floats; one that
// does not fit is an error ("value cannot be converted to type int8_t without overflow").
template <class Tag>
MathOf<Tag> valueArg(const ValueList& args) {
  using T = typename Tag::type;
  const ScalarArg value = scalarArg(args.at(kValue));
  if constexpr (kIsReducedFloat<T>) return checkedScalarTo<float>(value);
  else return static_cast<MathOf<Tag>>(checkedScalarTo<T>(value));
}

auto makeAddcmul() {
  return [](auto tag, const ValueList& args) {
    using C = MathOf<decltype(tag)>;
    const C value = valueArg<decltype(tag)>(args);
    return [value](C self, C t1, C t2) -> C { return wrapAdd<C>(self, wrapMul<C>(wrapMul<C>(value, t1), t2)); };
  };
}

auto makeAddcdiv() {
  return [](auto tag, const ValueList& args) {
    using C = MathOf<decltype(tag)>;
    const C value = valueArg<decltype(tag)>(args);
    return [value](C self, C t1, C t2) -> C {
      if constexpr (std::is_floating_point_v<C>) return self + value * t1 / t2;
      else return self;  // integer divisors are refused by the check
    };
  };
}

}  // namespace

void registerTernaryPointwiseOps(OpRegistry& r) {
  addElementwise(r, "aten::addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
                 kSelfT1T2, {.check = checkKernelDtype<kAddcmul>}, makeAddcmul());
  addElementwise(r, "aten::addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
                 kSelfT1T2, {.check = checkAddcdiv}, makeAddcdiv());
}

}  // namespace fathom
