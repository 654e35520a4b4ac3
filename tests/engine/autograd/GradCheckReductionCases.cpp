// Gradient-check cases for reductions, scans and softmax (ReductionDerivatives.cpp): reduced
// dims with and without keepdim, negative dims, a transposed input; max-like ops on inputs
// without ties (their derivative is undefined at ties).
#include <cmath>

#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

using namespace frontend;

namespace {

GradCase reduce(const char* op, const char* label, GradInput in, frontend::Args extra, frontend::KwArgs kwargs = {},
                bool transposed = false) {
  return {op, label, {std::move(in)}, [=](const TensorList& x) {
            frontend::Args args{transposed ? t(x[0]) : x[0]};
            args.insert(args.end(), extra.begin(), extra.end());
            return one(op1(op, args, kwargs));
          }};
}

}  // namespace

std::vector<GradCase> reductionGradCases() {
  return {
      reduce("aten.sum.default", "", real({3, 4}), {}),
      reduce("aten.sum.dim_IntList", "dim 1 of a transposed input", real({4, 3}), {IntList{1}, false}, {}, true),
      reduce("aten.sum.dim_IntList", "keepdim, negative dim", real({2, 3, 4}), {IntList{-1, 0}, true}),
      reduce("aten.mean.default", "a transposed input", real({4, 3}), {}, {}, true),
      reduce("aten.mean.dim", "", real({2, 3, 4}), {IntList{1}, false}),
      reduce("aten.mean.dim", "all dims, keepdim", real({3, 4}), {None{}, true}),
      reduce("aten.amax.default", "one dim", noTies({3, 4}), {IntList{1}, false}),
      reduce("aten.amax.default", "two dims, keepdim", noTies({4, 2, 3}), {IntList{0, 2}, true}),
      reduce("aten.amax.default", "all dims, transposed", noTies({3, 4}), {IntList{}, false}, {}, true),
      // The values output; indices are not differentiable.
      {"aten.max.dim", "dim 0", {noTies({3, 4})}, [](const TensorList& x) { return callOp("aten.max.dim", {x[0], 0}); }},
      {"aten.max.dim", "keepdim, transposed",
       {noTies({4, 3})}, [](const TensorList& x) { return callOp("aten.max.dim", {t(x[0]), -1, true}); }},
      reduce("aten.var.correction", "default correction", real({3, 4}), {IntList{1}}),
      reduce("aten.var.correction", "correction 0, all dims, keepdim", real({3, 4}), {None{}},
             {{"correction", 0}, {"keepdim", true}}),
      reduce("aten.var.correction", "correction 2, transposed", real({4, 3}), {IntList{0}}, {{"correction", 2}}, true),
      reduce("aten.cumsum.default", "", real({3, 4}), {1}),
      reduce("aten.cumsum.default", "dim 0 of a transposed input", real({4, 3}), {0}, {}, true),
      reduce("aten._softmax.default", "", real({3, 4}), {1, false}),
      reduce("aten._softmax.default", "dim 0, transposed", real({4, 3}), {0, false}, {}, true),
      reduce("aten._log_softmax.default", "", real({3, 4}), {-1, false}),
      reduce("aten.amin.default", "one dim", noTies({3, 4}), {IntList{1}, false}),
      reduce("aten.amin.default", "two dims, keepdim, transposed", noTies({4, 3}), {IntList{0, 1}, true}, {}, true),
      {"aten.min.dim", "dim 1", {noTies({3, 4})}, [](const TensorList& x) { return callOp("aten.min.dim", {x[0], 1}); }},
      {"aten.min.dim", "keepdim, transposed",
       {noTies({4, 3})}, [](const TensorList& x) { return callOp("aten.min.dim", {t(x[0]), 0, true}); }},
      reduce("aten.var.dim", "unbiased", real({3, 4}), {IntList{1}, true}),
      reduce("aten.var.dim", "biased, all dims, keepdim, transposed", real({4, 3}), {None{}, false, true}, {}, true),
      reduce("aten.prod.default", "", real({3, 4}, 0.5, 1.5), {}),
      reduce("aten.prod.default", "transposed, one zero", GradInput{{2, 3}, {1.5, -0.5, 0, 2, 0.75, -1.25}}, {}, {}, true),
      reduce("aten.prod.dim_int", "", real({3, 4}, -1.5, 1.5), {1}),
      // Rows with no zero, one zero (its gradient is the product of the others) and two zeros (all 0).
      reduce("aten.prod.dim_int", "zeros, keepdim", GradInput{{3, 4}, {1.5, -2, 0.5, 1.25, 0, 1.5, -0.75, 2, 0, 1, 0, 0.5}},
             {-1, true}),
      // linalg_vector_norm: each ord's formula (|x| kept away from 0 where the norm has a kink there).
      reduce("aten.linalg_vector_norm.default", "ord 2, dim 1", real({3, 4}), {2.0, IntList{1}}),
      reduce("aten.linalg_vector_norm.default", "ord 2, every dim, keepdim, transposed", real({4, 3}), {2.0, None{}, true},
             {}, true),
      reduce("aten.linalg_vector_norm.default", "ord 1, two dims", awayFromZero({2, 3, 4}), {1.0, IntList{0, 2}}),
      reduce("aten.linalg_vector_norm.default", "ord inf, keepdim", noTies({3, 4}), {INFINITY, IntList{-1}, true}),
      reduce("aten.linalg_vector_norm.default", "ord -inf", awayFromZero({3, 4}), {-INFINITY, IntList{0}}),
      reduce("aten.linalg_vector_norm.default", "ord 3", real({3, 4}), {3.0, IntList{1}}),
      reduce("aten.linalg_vector_norm.default", "ord 1.5, transposed", awayFromZero({4, 3}), {1.5, IntList{0}, true}, {},
             true),
      reduce("aten.linalg_vector_norm.default", "ord 0.5", awayFromZero({3, 4}), {0.5, IntList{1}}),
      reduce("aten.linalg_vector_norm.default", "ord -1, every dim", awayFromZero({3, 4}), {-1.0}),
      // The values output; indices are not differentiable.
      {"aten.sort.default", "dim 0, descending", {noTies({3, 4})},
       [](const TensorList& x) { return callOp("aten.sort.default", {x[0], 0, true}); }},
      {"aten.sort.default", "a transposed input", {noTies({4, 3})},
       [](const TensorList& x) { return callOp("aten.sort.default", {t(x[0])}); }},
      {"aten.topk.default", "k 2 of the last dim", {noTies({3, 4})},
       [](const TensorList& x) { return callOp("aten.topk.default", {x[0], 2}); }},
      {"aten.topk.default", "smallest 2 along dim 0", {noTies({4, 3})},
       [](const TensorList& x) { return callOp("aten.topk.default", {x[0], 2, 0, false}); }},
  };
}

// Matrix products (MatmulDerivatives.cpp), with a transposed operand and broadcast bias.
std::vector<GradCase> matmulGradCases() {
  return {
      {"aten.mm.default", "transposed self", {real({4, 3}), real({4, 2}, -2, 2, 1)},
       [](const TensorList& x) { return one(mm(t(x[0]), x[1])); }},
      {"aten.addmm.default", "broadcast bias, beta and alpha", {real({2}), real({3, 4}, -2, 2, 1), real({4, 2}, -2, 2, 2)},
       [](const TensorList& x) {
         return one(op1("aten.addmm.default", {x[0], x[1], x[2]}, {{"beta", 0.5}, {"alpha", 2.0}}));
       }},
      {"aten.bmm.default", "", {real({2, 3, 4}), real({2, 4, 2}, -2, 2, 1)},
       [](const TensorList& x) { return one(bmm(x[0], x[1])); }},
      {"aten.baddbmm.default", "broadcast self", {real({3, 1}), real({2, 3, 4}, -2, 2, 1), real({2, 4, 2}, -2, 2, 2)},
       [](const TensorList& x) {
         return one(op1("aten.baddbmm.default", {x[0], x[1], x[2]}, {{"beta", 1.5}, {"alpha", -1.0}}));
       }},
  };
}

}  // namespace fathom::testing
