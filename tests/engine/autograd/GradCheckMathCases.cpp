// Gradient-check cases for Core ATen's elementwise math (MathDerivatives.cpp): each unary
// function inside its domain, a transposed operand, broadcast operands of the binaries, and
// inputs kept away from the kinks of the piecewise ones (fmod, remainder, clamp, elu, leaky_relu).
#include <cmath>

#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

using namespace frontend;

namespace {

GradCase unary(const char* op, GradInput in, frontend::Args extra = {}, bool transposed = false) {
  return {op, transposed ? "transposed self" : "", {std::move(in)}, [=](const TensorList& x) {
            frontend::Args args{transposed ? t(x[0]) : x[0]};
            args.insert(args.end(), extra.begin(), extra.end());
            return one(op1(op, args));
          }};
}

GradCase binary(const char* op, GradInput a, GradInput b, const char* label = "broadcast other") {
  return {op, label, {std::move(a), std::move(b)}, [=](const TensorList& x) { return one(op1(op, {x[0], x[1]})); }};
}

// Values whose quotient by 1.5 stays at least 0.1 away from an integer, where fmod and
// remainder jump.
GradInput awayFromMultiples(const IntList& sizes) {
  std::vector<double> v = uniform(sizes, -4, 4, 7);
  for (double& x : v) {
    const double q = x / 1.5, f = q - std::floor(q);
    if (f < 0.1 || f > 0.9) x += 0.3;
  }
  return GradInput{sizes, v};
}

std::vector<GradCase> unaryCases() {
  return {
      unary("aten.acos.default", real({3, 4}, -0.9, 0.9)),
      unary("aten.asin.default", real({4, 3}, -0.9, 0.9), {}, true),
      unary("aten.acosh.default", real({3, 4}, 1.2, 3)),
      unary("aten.asinh.default", real({3, 4})),
      unary("aten.atan.default", real({3, 4})),
      unary("aten.atanh.default", real({3, 4}, -0.9, 0.9)),
      unary("aten.cos.default", real({4, 3}), {}, true),
      unary("aten.cosh.default", real({3, 4})),
      unary("aten.sin.default", real({3, 4})),
      unary("aten.sinh.default", real({3, 4})),
      unary("aten.tan.default", real({3, 4}, -1.2, 1.2)),
      unary("aten.erf.default", real({3, 4})),
      unary("aten.expm1.default", real({4, 3}), {}, true),
      unary("aten.log10.default", real({3, 4}, 0.2, 3)),
      unary("aten.log2.default", real({3, 4}, 0.2, 3)),
      unary("aten.log1p.default", real({3, 4}, -0.8, 3)),
      unary("aten.reciprocal.default", awayFromZero({3, 4}, 0.3)),
      unary("aten.ceil.default", awayFromZero({3, 4})),
      unary("aten.floor.default", real({3, 4})),
      unary("aten.round.default", real({3, 4})),
      unary("aten.trunc.default", real({3, 4})),
      unary("aten.sign.default", awayFromZero({3, 4})),
  };
}

std::vector<GradCase> binaryCases() {
  return {
      binary("aten.atan2.default", real({3, 4}), awayFromZero({4}, 0.3, 1)),
      binary("aten.fmod.Tensor", awayFromMultiples({3, 4}), GradInput{{4}, {1.5, 1.5, 1.5, 1.5}}),
      binary("aten.remainder.Tensor", awayFromMultiples({3, 4}), GradInput{{4}, {1.5, 1.5, 1.5, 1.5}}),
      {"aten.remainder.Tensor", "negative divisor", {awayFromMultiples({3, 4}), GradInput{{3, 1}, {-1.5, -1.5, -1.5}}},
       [](const TensorList& x) { return one(op1("aten.remainder.Tensor", {x[0], x[1]})); }},
      unary("aten.fmod.Scalar", awayFromMultiples({3, 4}), {1.5}),
      unary("aten.remainder.Scalar", awayFromMultiples({3, 4}), {-1.5}),
      binary("aten.pow.Tensor_Tensor", real({3, 4}, 0.5, 2), real({4}, -2, 2, 1)),
      binary("aten.pow.Tensor_Tensor", real({3, 1}, 0.5, 2), real({1, 4}, -2, 2, 1), "broadcast both"),
      {"aten.pow.Scalar", "base 2.5", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten.pow.Scalar", {2.5, x[0]})); }},
      {"aten.pow.Scalar", "base 0, positive exponents", {real({3, 4}, 0.5, 2)},
       [](const TensorList& x) { return one(op1("aten.pow.Scalar", {0.0, x[0]})); }},
  };
}

std::vector<GradCase> activationCases() {
  // Bounds 0.2 away from every input, so no element sits on a kink.
  const GradInput self{{3, 4}, {-2, -1.1, -0.5, 0.3, 1.2, 1.9, -0.8, 0.6, -1.3, 0.1, 1.6, -0.2}};
  return {
      {"aten.clamp.Tensor", "both bounds, broadcast", {self, GradInput{{4}, {-0.75, -1.4, -0.25, -1}}, GradInput{{3, 1}, {0.9, 1.4, 0.4}}},
       [](const TensorList& x) { return one(op1("aten.clamp.Tensor", {x[0], x[1], x[2]})); }},
      {"aten.clamp.Tensor", "min only", {self, GradInput{{3, 4}, {-1.5, -0.5, 0, 0, 1.5, 0, 0, 0, -1, 0.4, 0, 0}}},
       [](const TensorList& x) { return one(op1("aten.clamp.Tensor", {x[0], x[1], None{}})); }},
      {"aten.clamp.Tensor", "max only, transposed", {self, GradInput{{4, 3}, std::vector<double>(12, 0.7)}},
       [](const TensorList& x) { return one(op1("aten.clamp.Tensor", {x[0], None{}, t(x[1])})); }},
      unary("aten.elu.default", awayFromZero({3, 4}), {1.0, 1.0, 1.0}),
      unary("aten.elu.default", awayFromZero({4, 3}), {0.5, 2.0, 1.5}, true),
      unary("aten.leaky_relu.default", awayFromZero({3, 4}), {0.2}),
      {"aten.elu_backward.default", "of self", {real({3, 4}), awayFromZero({3, 4}, 0.2, 1)},
       [](const TensorList& x) { return one(op1("aten.elu_backward.default", {x[0], 0.5, 2.0, 1.5, false, x[1]})); }},
      {"aten.elu_backward.default", "of the result", {real({3, 4}), awayFromZero({3, 4}, 0.2, 1)},
       [](const TensorList& x) { return one(op1("aten.elu_backward.default", {x[0], 1.0, 1.0, 1.0, true, x[1]})); }},
      {"aten.leaky_relu_backward.default", "", {real({3, 4}), awayFromZero({3, 4}, 0.2, 1)},
       [](const TensorList& x) { return one(op1("aten.leaky_relu_backward.default", {x[0], x[1], 0.1, false})); }},
  };
}

}  // namespace

std::vector<GradCase> mathGradCases() {
  std::vector<GradCase> all = unaryCases();
  for (auto part : {binaryCases, activationCases}) {
    auto cases = part();
    all.insert(all.end(), cases.begin(), cases.end());
  }
  return all;
}

}  // namespace fathom::testing
