// Comparisons and selection: eq, ne, lt, le, gt, ge (Tensor and Scalar), logical_not, where.self.
//
// Comparisons are TensorIterator ops that promote their inputs to the common dtype (a Python
// number wraps into it: uint8 == 258 compares with 2, as PyTorch does) and write bool.
// logical_not reads its input in its own dtype. where's condition is an operand of its own
// dtype: it takes no part in promotion but, being TensorIterator's first input, decides the
// output layout first.
#include <functional>

#include "engine/core/Error.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"

namespace fathom {
namespace {

template <class Compare>
auto makeComparison() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C a, C b) -> bool { return Compare{}(a, b); };
  };
}

template <class Compare>
void addComparison(OpRegistry& r, const std::string& name) {
  const ElementwiseRule rule{.outputDtype = DType::Bool};
  const std::array<size_t, 2> ab{0, 1};
  addElementwise(r, ("aten::" + name + ".Tensor(Tensor self, Tensor other) -> Tensor").c_str(), ab, rule,
                 makeComparison<Compare>());
  addElementwise(r, ("aten::" + name + ".Scalar(Tensor self, Scalar other) -> Tensor").c_str(), ab, rule,
                 makeComparison<Compare>());
}

// where(condition, self, other): a uint8 condition (deprecated) is first converted to bool
// (a preserve_format copy, which is what the layout rules then see).
ElementwiseOperands whereOperands(const ValueList& margs) {
  const TensorMeta& condition = metaArg(margs, 0);
  FATHOM_CHECK(condition.dtype == DType::Bool || condition.dtype == DType::UInt8,
               "where expected condition to be a boolean tensor, but got a tensor with dtype ",
               scalarTypeName(condition.dtype));
  ElementwiseOperand cond{condition};
  if (condition.dtype == DType::UInt8) cond.meta = freshLike(condition, DType::Bool, likeStrides(condition, std::nullopt));
  cond.fixedDtype = true;
  return {cond, {metaArg(margs, 1)}, {metaArg(margs, 2)}};
}

auto makeWhere() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](bool condition, C a, C b) -> C { return condition ? a : b; };
  };
}

}  // namespace

void registerComparisonOps(OpRegistry& r) {
  addComparison<std::equal_to<>>(r, "eq");
  addComparison<std::not_equal_to<>>(r, "ne");
  addComparison<std::less<>>(r, "lt");
  addComparison<std::less_equal<>>(r, "le");
  addComparison<std::greater<>>(r, "gt");
  addComparison<std::greater_equal<>>(r, "ge");
  addElementwise(r, "aten::logical_not(Tensor self) -> Tensor", std::array<size_t, 1>{0},
                 {.promotion = ElementwisePromotion::SameDtype, .outputDtype = DType::Bool},
                 [](auto tag, const ValueList&) {
                   using C = MathOf<decltype(tag)>;
                   return [](C x) -> bool { return x == C(0); };
                 });
  addElementwise(r, "aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
                 std::array<size_t, 3>{0, 1, 2}, {.operands = whereOperands}, makeWhere());
}

}  // namespace fathom
