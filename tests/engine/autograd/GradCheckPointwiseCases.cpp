// Gradient-check cases for the elementwise ops (PointwiseDerivatives.cpp): broadcast operands,
// a transposed (non-contiguous) operand, and inputs kept away from kinks and domain edges.
#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

using namespace frontend;

namespace {

GradCase binary(const char* op, frontend::KwArgs kwargs = {}) {
  return {op, "broadcast other", {real({3, 4}), real({4}, 1, 2, 1)},
          [=](const TensorList& x) { return one(op1(op, {x[0], x[1]}, kwargs)); }};
}

GradCase transposedBinary(const char* op) {
  return {op, "transposed self", {real({4, 3}), real({3, 4}, 1, 2, 1)},
          [=](const TensorList& x) { return one(op1(op, {t(x[0]), x[1]})); }};
}

GradCase unary(const char* op, GradInput in, frontend::Args extra = {}) {
  return {op, "", {std::move(in)}, [=](const TensorList& x) {
            frontend::Args args{x[0]};
            args.insert(args.end(), extra.begin(), extra.end());
            return one(op1(op, args));
          }};
}

GradCase transposedUnary(const char* op, GradInput in, frontend::Args extra = {}) {
  return {op, "transposed self", {std::move(in)}, [=](const TensorList& x) {
            frontend::Args args{t(x[0])};
            args.insert(args.end(), extra.begin(), extra.end());
            return one(op1(op, args));
          }};
}

}  // namespace

// Long: a table, one case per entry.
std::vector<GradCase> pointwiseGradCases() {
  return {
      binary("aten.add.Tensor", {{"alpha", 2.0}}),
      transposedBinary("aten.add.Tensor"),
      unary("aten.add.Scalar", real({3, 4}), {1.5, 2.0}),
      binary("aten.sub.Tensor", {{"alpha", 0.5}}),
      unary("aten.sub.Scalar", real({3, 4}), {1.5}),
      unary("aten.rsub.Scalar", real({3, 4}), {1.5, 2.0}),
      {"aten.rsub.Tensor", "broadcast self", {real({4}), real({3, 4}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.rsub.Tensor", {x[0], x[1]}, {{"alpha", 3.0}})); }},
      binary("aten.mul.Tensor"),
      transposedBinary("aten.mul.Tensor"),
      {"aten.mul.Tensor", "broadcast both", {real({3, 1}), real({1, 4}, -2, 2, 1)},
       [](const TensorList& x) { return one(mul(x[0], x[1])); }},
      unary("aten.mul.Scalar", real({3, 4}), {-1.5}),
      // PyTorch's wrapped numbers: `x * -1.5`, `x / 4.0` recorded as the .Tensor overloads.
      {"aten.mul.Tensor", "wrapped number other", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten.mul.Tensor", {x[0], -1.5})); }},
      {"aten.mul.Tensor", "wrapped number self", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten.mul.Tensor", {2.5, x[0]})); }},
      {"aten.div.Tensor", "wrapped number other", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten.div.Tensor", {x[0], 4.0})); }},
      {"aten.div.Tensor", "wrapped number self", {real({3, 4}, 1, 2)},
       [](const TensorList& x) { return one(op1("aten.div.Tensor", {2.0, x[0]})); }},
      binary("aten.div.Tensor"),
      {"aten.div.Tensor", "broadcast self", {real({4}), real({3, 4}, 1, 2, 1)},
       [](const TensorList& x) { return one(div(x[0], x[1])); }},
      unary("aten.div.Scalar", real({3, 4}), {-2.5}),
      {"aten.true_divide.Tensor", "broadcast other (torch 2.x's alias of div)", {real({3, 4}), real({4}, 1, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.true_divide.Tensor", {x[0], x[1]})); }},
      {"aten.div.Tensor_mode", "no rounding, broadcast other", {real({3, 4}), real({4}, 1, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.div.Tensor_mode", {x[0], x[1]}, {{"rounding_mode", None{}}})); }},
      {"aten.div.Tensor_mode", "floor: zero gradients", {real({3, 4}), real({3, 4}, 1, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.div.Tensor_mode", {x[0], x[1]}, {{"rounding_mode", "floor"}})); }},
      {"aten.div.Scalar_mode", "trunc: zero gradient", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten.div.Scalar_mode", {x[0], 0.3}, {{"rounding_mode", "trunc"}})); }},
      {"aten.div.Scalar_mode", "no rounding", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten.div.Scalar_mode", {x[0], -2.5}, {{"rounding_mode", None{}}})); }},
      unary("aten.neg.default", real({3, 4})),
      unary("aten.pow.Tensor_Scalar", real({3, 4}, 0.5, 2), {2.5}),
      transposedUnary("aten.pow.Tensor_Scalar", real({4, 3}), {3}),
      unary("aten.pow.Tensor_Scalar", real({3, 4}), {0}),
      unary("aten.exp.default", real({3, 4})),
      unary("aten.tanh.default", real({3, 4})),
      unary("aten.sigmoid.default", real({3, 4})),
      transposedUnary("aten.relu.default", awayFromZero({4, 3})),
      unary("aten.gelu.default", real({3, 4}, -3, 3)),
      {"aten.gelu.default", "tanh approximation", {real({3, 4}, -3, 3)},
       [](const TensorList& x) { return one(gelu(x[0], "tanh")); }},
      unary("aten.abs.default", awayFromZero({3, 4})),
      transposedUnary("aten.log.default", real({4, 3}, 0.2, 3)),
      unary("aten.sqrt.default", real({3, 4}, 0.2, 3)),
      unary("aten.rsqrt.default", real({3, 4}, 0.2, 3)),
      // both sides of both kinks, none within 0.1 of them
      unary("aten.hardtanh.default", GradInput{{3, 4}, {-2, -1.5, -0.5, 0.3, 1.2, 1.8, -0.8, 0.6, -1.3, 0.1, 1.6, -0.2}},
            {-1.0, 1.0}),
      unary("aten.clamp.default", real({3, 4}, -2, 2), {-0.75, 0.5}),
      unary("aten.clamp.default", real({3, 4}, -2, 2, 1), {-0.75, None{}}),
      unary("aten.clamp.default", real({3, 4}, -2, 2, 2), {None{}, 0.25}),
      transposedUnary("aten.clamp_min.default", real({4, 3}, -2, 2, 3), {0.25}),
      binary("aten.maximum.default"),
      transposedBinary("aten.minimum.default"),
      binary("aten.minimum.default"),
      unary("aten.fill.Scalar", real({3, 4}), {2.5}),
      {"aten.where.self", "broadcast condition and other", {bools({4}, {1, 0, 0, 1}), real({3, 4}), real({4}, -2, 2, 1)},
       [](const TensorList& x) { return one(where(x[0], x[1], x[2])); }},
      {"aten.masked_fill.Scalar", "", {real({3, 4}), bools({3, 4}, {1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1})},
       [](const TensorList& x) { return one(maskedFill(x[0], x[1], -1.0)); }},
      unary("aten.tril.default", real({3, 4}), {1}),
      transposedUnary("aten.triu.default", real({4, 3}), {-1}),
      unary("aten._to_copy.default", real({3, 4})),
      {"prims.convert_element_type.default", "float64 to float64", {real({3, 4})},
       [](const TensorList& x) { return one(op1("prims.convert_element_type.default", {x[0], DType::Float64})); }},
      unary("aten.clone.default", real({3, 4})),
      transposedUnary("aten.contiguous.default", real({4, 3})),
      unary("aten.alias.default", real({3, 4})),
      {"aten.addcmul.default", "all three broadcast, value 0.5", {real({3, 1}), real({4}, -2, 2, 1), real({3, 4}, -2, 2, 2)},
       [](const TensorList& x) { return one(op1("aten.addcmul.default", {x[0], x[1], x[2]}, {{"value", 0.5}})); }},
      {"aten.addcmul.default", "transposed tensor1", {real({3, 4}), real({4, 3}, -2, 2, 1), real({3, 4}, -2, 2, 2)},
       [](const TensorList& x) { return one(op1("aten.addcmul.default", {x[0], t(x[1]), x[2]})); }},
      {"aten.addcdiv.default", "broadcast divisor, value -1.5",
       {real({3, 4}), real({3, 4}, -2, 2, 1), awayFromZero({4}, 0.5, 2)},
       [](const TensorList& x) { return one(op1("aten.addcdiv.default", {x[0], x[1], x[2]}, {{"value", -1.5}})); }},
  };
}

}  // namespace fathom::testing
