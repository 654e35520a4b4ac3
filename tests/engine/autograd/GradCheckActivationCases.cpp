// Gradient-check cases for the gated activations, PReLU and their backward helpers
// (ActivationDerivatives.cpp): inputs keep away from the kinks (-3 and 3; PReLU's 0), and the
// helpers are differentiated in both the gradient and the saved input.
#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

namespace {

// Values in (-5, 5) at least 0.2 away from the kinks.
GradInput awayFromKinks(const IntList& sizes, uint64_t seed, std::initializer_list<double> kinks = {-3.0, 3.0}) {
  GradInput in = real(sizes, -5, 5, seed);
  for (double& v : in.values)
    for (double kink : kinks)
      if (v > kink - 0.2 && v < kink + 0.2) v = kink + (v < kink ? -0.2 : 0.2);
  return in;
}

GradCase unaryCase(const char* op, const char* label, GradInput x) {
  return {op, label, {std::move(x)}, [op](const TensorList& x) { return one(op1(op, {x[0]})); }};
}

GradCase helperCase(const char* op, const char* label, GradInput g, GradInput x) {
  return {op, label, {std::move(g), std::move(x)}, [op](const TensorList& x) { return one(op1(op, {x[0], x[1]})); }};
}

}  // namespace

std::vector<GradCase> activationGradCases() {
  return {
      unaryCase("aten.hardswish.default", "", awayFromKinks({3, 4}, 1)),
      unaryCase("aten.hardsigmoid.default", "", awayFromKinks({3, 4}, 2)),
      unaryCase("aten.silu.default", "", real({3, 4}, -4, 4, 3)),
      {"aten.silu.default", "transposed input", {real({4, 3}, -4, 4, 4)},
       [](const TensorList& x) { return one(op1("aten.silu.default", {frontend::t(x[0])})); }},
      helperCase("aten.hardswish_backward.default", "", real({3, 4}), awayFromKinks({3, 4}, 5)),
      helperCase("aten.hardswish_backward.default", "broadcast grad", real({4}), awayFromKinks({3, 4}, 6)),
      helperCase("aten.hardsigmoid_backward.default", "", real({3, 4}), awayFromKinks({3, 4}, 7)),
      helperCase("aten.silu_backward.default", "", real({3, 4}), real({3, 4}, -4, 4, 8)),
      helperCase("aten.silu_backward.default", "broadcast self", real({3, 4}), real({4}, -4, 4, 9)),
      helperCase("aten.prelu.default", "one weight per channel", awayFromKinks({2, 3, 4}, 10, {0.0}), real({3})),
      helperCase("aten.prelu.default", "one weight", awayFromKinks({2, 3}, 11, {0.0}), real({1})),
      helperCase("aten._prelu_kernel.default", "weight broadcast", awayFromKinks({2, 3, 4}, 12, {0.0}), real({1, 3, 1})),
      {"aten.prelu_backward.default", "both results", {real({2, 3, 4}), awayFromKinks({2, 3, 4}, 13, {0.0}), real({3})},
       [](const TensorList& x) { return frontend::callOp("aten.prelu_backward.default", {x[0], x[1], x[2]}); }},
      {"aten.prelu_backward.default", "one weight, its gradient only", {real({2, 3}), awayFromKinks({2, 3}, 14, {0.0}), real({1})},
       [](const TensorList& x) { return one(frontend::callOp("aten.prelu_backward.default", {x[0], x[1], x[2]})[1]); }},
  };
}

}  // namespace fathom::testing
