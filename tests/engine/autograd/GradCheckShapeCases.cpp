// Gradient-check cases for views, reshapes and joins (ShapeDerivatives.cpp): the gradient must
// land on the elements each view element came from, for transposed inputs too.
#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

using namespace frontend;

namespace {

GradCase view1(const char* op, const char* label, GradInput in, frontend::Args extra, bool transposed = false) {
  return {op, label, {std::move(in)}, [=](const TensorList& x) {
            frontend::Args args{transposed ? t(x[0]) : x[0]};
            args.insert(args.end(), extra.begin(), extra.end());
            return one(op1(op, args));
          }};
}

}  // namespace

std::vector<GradCase> shapeGradCases() {
  return {
      view1("aten.view.default", "", real({3, 4}), {SymValues{2, 6}}),
      view1("aten._unsafe_view.default", "", real({3, 4}), {SymValues{4, 3}}),
      view1("aten._reshape_alias.default", "", real({3, 4}), {SymValues{2, 2, 3}, SymValues{6, 3, 1}}),
      view1("aten.reshape.default", "transposed input (copies)", real({4, 3}), {SymValues{12}}, true),
      view1("aten.squeeze.default", "", real({3, 1, 4}), {}),
      view1("aten.squeeze.dim", "", real({3, 1, 4}), {1}),
      view1("aten.squeeze.dim", "size > 1: unchanged", real({3, 4}), {-1}),
      view1("aten.permute.default", "", real({2, 3, 4}), {IntList{2, 0, 1}}),
      view1("aten.transpose.int", "", real({2, 3, 4}), {0, -1}),
      view1("aten.t.default", "", real({3, 4}), {}),
      view1("aten.expand.default", "new leading dim and a size-1 dim", real({3, 1}), {SymValues{2, 3, 4}}),
      view1("aten.unsqueeze.default", "", real({3, 4}), {-1}),
      view1("aten.slice.Tensor", "step 2 of a transposed input", real({5, 3}), {1, 1, 5, 2}, true),
      view1("aten.select.int", "", real({3, 4}), {1, -1}),
      // as_strided (AsStridedDerivative.cpp): each path of PyTorch's as_strided_backward.
      view1("aten.as_strided.default", "a window at an offset", real({4, 6}), {IntList{2, 3}, IntList{6, 2}, 3}),
      view1("aten.as_strided.default", "no offset: the input's", real({4, 6}), {IntList{3, 2}, IntList{1, 6}}),
      view1("aten.as_strided.default", "overlapping windows (added up)", real({6}), {IntList{3, 3}, IntList{1, 1}, 1}),
      view1("aten.as_strided.default", "stride-0 and size-1 dims", real({3, 4}), {IntList{2, 1, 4}, IntList{0, 7, 1}, 2}),
      view1("aten.as_strided.default", "transposed input", real({4, 3}), {IntList{2, 2}, IntList{1, 3}, 1}, true),
      {"aten.as_strided.default", "expanded input (divided by its overlap)", {real({3})},
       [](const TensorList& x) {
         return one(op1("aten.as_strided.default", {expand(x[0], {2, 3}), IntList{2, 2}, IntList{0, 1}, 1}));
       }},
      {"aten.split.Tensor", "uneven parts", {real({5, 3})},
       [](const TensorList& x) { return split(x[0], 2, 0); }},
      {"aten.split.Tensor", "only the last part used", {real({5, 3})},
       [](const TensorList& x) { return one(split(x[0], 2, 0)[2]); }},
      {"aten.split_with_sizes.default", "three parts along dim 1, the middle one unused", {real({3, 5})},
       [](const TensorList& x) {
         auto parts = callOp("aten.split_with_sizes.default", {x[0], IntList{1, 3, 1}, 1});
         return TensorList{parts[0], parts[2]};
       }},
      {"aten.unbind.int", "dim -1, the middle pieces unused", {real({3, 4})},
       [](const TensorList& x) {
         auto parts = callOp("aten.unbind.int", {x[0], -1});
         return TensorList{parts[0], parts[3]};
       }},
      {"aten.cat.default", "dim 1, a transposed part", {real({3, 2}), real({2, 3}, -2, 2, 1)},
       [](const TensorList& x) { return one(cat({x[0], t(x[1])}, 1)); }},
      {"aten.stack.default", "", {real({3, 4}), real({3, 4}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.stack.default", {std::vector<Tensor>{x[0], x[1]}, 1})); }},
      view1("aten.flip.default", "", real({3, 4}), {IntList{0, 1}}),
      view1("aten.diagonal.default", "offset 1", real({3, 4}), {1}),
      view1("aten.diagonal.default", "dims 1 and 0 of a transposed input, below the diagonal", real({4, 3}), {-1, 1, 0}, true),
      view1("aten.diagonal.default", "dims 2 and 0 of a 3-d input", real({2, 3, 4}), {1, 2, 0}),
      view1("aten.repeat.default", "new leading dim", real({2, 3}), {IntList{2, 1, 3}}),
      view1("aten.repeat.default", "a transposed input", real({3, 2}), {IntList{2, 2}}, true),
      {"aten.copy.default", "broadcast src of another dtype", {real({3, 4}), real({4}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.copy.default", {x[0], x[1]})); }},
      {"aten.copy.default", "same sizes (the result is src)", {real({3, 4}), real({4, 3}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.copy.default", {x[0], t(x[1])})); }},
  };
}

}  // namespace fathom::testing
