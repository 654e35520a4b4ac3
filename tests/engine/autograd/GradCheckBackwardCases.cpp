// Gradient-check cases for the backward helpers' own derivatives (BackwardDerivatives.cpp and
// the pooling / embedding / nll_loss backwards in NnDerivatives.cpp): both the gradient input and
// the saved input are differentiated, the saved one kept away from the helper's kinks.
#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

using namespace frontend;

namespace {

// helper(grad, saved, extra...)
GradCase helper(const char* op, const char* label, GradInput grad, GradInput saved, frontend::Args extra = {},
                frontend::KwArgs kwargs = {}) {
  return {op, label, {std::move(grad), std::move(saved)}, [=](const TensorList& x) {
            frontend::Args args{x[0], x[1]};
            args.insert(args.end(), extra.begin(), extra.end());
            return one(op1(op, args, kwargs));
          }};
}

const IntList kPool{2, 2};

}  // namespace

std::vector<GradCase> backwardGradCases() {
  return {
      helper("aten.threshold_backward.default", "", real({3, 4}), awayFromZero({3, 4}), {0.0}),
      helper("aten.hardtanh_backward.default", "",
             real({3, 4}), GradInput{{3, 4}, {-2, -1.5, -0.5, 0.3, 1.2, 1.8, -0.8, 0.6, -1.3, 0.1, 1.6, -0.2}},
             {-1.0, 1.0}),
      helper("aten.tanh_backward.default", "", real({3, 4}), real({3, 4}, -1, 1, 1)),
      helper("aten.tanh_backward.default", "broadcast output", real({3, 4}), real({4}, -1, 1, 1)),
      helper("aten.sigmoid_backward.default", "", real({3, 4}), real({3, 4}, 0, 1, 1)),
      helper("aten.gelu_backward.default", "", real({3, 4}), real({3, 4}, -3, 3, 1), {}, {{"approximate", "none"}}),
      helper("aten.gelu_backward.default", "tanh", real({3, 4}), real({3, 4}, -3, 3, 1), {}, {{"approximate", "tanh"}}),
      helper("aten._softmax_backward_data.default", "", real({3, 4}), real({3, 4}, 0, 1, 1), {1, DType::Float64}),
      {"aten._softmax_backward_data.default", "dim 0, transposed grad", {real({4, 3}), real({3, 4}, 0, 1, 1)},
       [](const TensorList& x) { return one(op1("aten._softmax_backward_data.default", {t(x[0]), x[1], 0, DType::Float64})); }},
      helper("aten._log_softmax_backward_data.default", "", real({3, 4}), real({3, 4}, -2, 0, 1), {1, DType::Float64}),
      {"aten.native_dropout_backward.default", "", {real({3, 4}), bools({3, 4}, {1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0})},
       [](const TensorList& x) { return one(op1("aten.native_dropout_backward.default", {x[0], x[1], 2.0})); }},
      {"aten.slice_backward.default", "", {real({3, 2})},
       [](const TensorList& x) {
         return one(op1("aten.slice_backward.default", {x[0], SymValues{3, 5}, 1, 1, 5, 2}));
       }},
      {"aten.select_backward.default", "", {real({4})},
       [](const TensorList& x) { return one(op1("aten.select_backward.default", {x[0], SymValues{3, 4}, 0, 1})); }},
      {"aten.diagonal_backward.default", "", {real({2, 3})},
       [](const TensorList& x) { return one(op1("aten.diagonal_backward.default", {x[0], SymValues{2, 4, 3}, 0, 1, 2})); }},
      {"aten.max_pool2d_with_indices_backward.default", "", {real({1, 2, 2, 2}), noTies({1, 2, 4, 4})},
       [](const TensorList& x) {
         Tensor indices = callOp("aten.max_pool2d_with_indices.default", {x[1].detached(), kPool, kPool})[1];
         return one(op1("aten.max_pool2d_with_indices_backward.default",
                        {x[0], x[1], kPool, kPool, IntList{0, 0}, IntList{1, 1}, false, indices}));
       }},
      {"aten.avg_pool2d_backward.default", "padded, count_include_pad=False", {real({1, 2, 3, 3}), real({1, 2, 4, 4})},
       [](const TensorList& x) {
         return one(op1("aten.avg_pool2d_backward.default",
                        {x[0], x[1], IntList{3, 3}, kPool, IntList{1, 1}, true, false, None{}}));
       }},
      {"aten.max_pool3d_with_indices_backward.default", "", {real({1, 2, 2, 2, 2}), noTies({1, 2, 4, 4, 4})},
       [](const TensorList& x) {
         const IntList k{2, 2, 2};
         Tensor indices = callOp("aten.max_pool3d_with_indices.default", {x[1].detached(), k, k})[1];
         return one(op1("aten.max_pool3d_with_indices_backward.default",
                        {x[0], x[1], k, k, IntList{0}, IntList{1}, false, indices}));
       }},
      {"aten.avg_pool3d_backward.default", "padded, count_include_pad=False", {real({1, 2, 3, 3, 2}), real({1, 2, 4, 4, 3})},
       [](const TensorList& x) {
         return one(op1("aten.avg_pool3d_backward.default",
                        {x[0], x[1], IntList{3, 3, 2}, IntList{2, 2, 2}, IntList{1, 1, 0}, true, false, None{}}));
       }},
      {"aten._adaptive_avg_pool3d_backward.default", "grad_output and self", {real({2, 2, 3, 2, 4}), real({2, 2, 5, 3, 7})},
       [](const TensorList& x) { return one(op1("aten._adaptive_avg_pool3d_backward.default", {x[0], x[1]})); }},
      {"aten.embedding_dense_backward.default", "padding_idx and scale_grad_by_freq",
       {real({2, 3, 2}), ints({2, 3}, {0, 2, 2, 1, 3, 2})},
       [](const TensorList& x) { return one(op1("aten.embedding_dense_backward.default", {x[0], x[1], 4, 1, true})); }},
      {"aten.nll_loss_backward.default", "mean with weights and an ignored target",
       {real({}), real({3, 4}), ints({3}, {1, 3, 0}), constant(real({4}, 0.5, 2))},
       [](const TensorList& x) {
         // total_weight as the forward computed it (the formula assumes it is consistent, as PyTorch's does)
         Tensor total = callOp("aten.nll_loss_forward.default", {x[1].detached(), x[2], x[3], 1, 0})[1];
         return one(op1("aten.nll_loss_backward.default", {x[0], x[1], x[2], x[3], 1, 0, total}));
       }},
  };
}

}  // namespace fathom::testing
