// Gradient-check cases for advanced indexing, the functionalized scatters and fills, masked_fill,
// padding and rolling (ScatterDerivatives.cpp): repeated indices must add up, and every differentiable
// input (self, values, src, the fill value) is checked.
#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

using namespace frontend;

std::vector<GradCase> scatterGradCases() {
  const auto idx = [](std::vector<double> v) { return ints({static_cast<int64_t>(v.size())}, v); };
  return {
      {"aten.index.Tensor", "repeated indices", {real({4, 3}), idx({1, 3, 1, 0, 1})},
       [](const TensorList& x) { return one(op1("aten.index.Tensor", {x[0], std::vector<Tensor>{x[1]}})); }},
      {"aten.index.Tensor", "indices apart, broadcast together", {real({3, 2, 4}), ints({2, 1}, {2, 0}), idx({3, 1, 3})},
       [](const TensorList& x) { return one(op1("aten.index.Tensor", {x[0], std::vector<Tensor>{x[1], Tensor(), x[2]}})); }},
      {"aten.index_put.default", "accumulate, repeated indices, values broadcast", {real({4, 3}), idx({2, 0, 2}), real({3}, -1, 1, 1)},
       [](const TensorList& x) { return one(op1("aten.index_put.default", {x[0], std::vector<Tensor>{x[1]}, x[2], true})); }},
      {"aten.index_put.default", "overwrite", {real({4, 3}), idx({3, 0}), real({2, 3}, -1, 1, 2)},
       [](const TensorList& x) { return one(op1("aten.index_put.default", {x[0], std::vector<Tensor>{x[1]}, x[2], false})); }},
      // torch 2.x's unchecked spellings (upsampling's decomposition): the same ops and gradients.
      {"aten._unsafe_index.Tensor", "repeated indices", {real({4, 3}), idx({1, 3, 1, 0, 1})},
       [](const TensorList& x) { return one(op1("aten._unsafe_index.Tensor", {x[0], std::vector<Tensor>{x[1]}})); }},
      {"aten._unsafe_index_put.default", "accumulate, repeated indices", {real({4, 3}), idx({2, 0, 2}), real({3}, -1, 1, 1)},
       [](const TensorList& x) { return one(op1("aten._unsafe_index_put.default", {x[0], std::vector<Tensor>{x[1]}, x[2], true})); }},
      {"aten.slice_scatter.default", "dim 1, step 2", {real({3, 5}), real({3, 2}, -1, 1, 1)},
       [](const TensorList& x) { return one(op1("aten.slice_scatter.default", {x[0], x[1], 1, 1, 5, 2})); }},
      {"aten.as_strided_scatter.default", "a strided window", {real({4, 6}), real({2, 3}, -1, 1, 1)},
       [](const TensorList& x) {
         return one(op1("aten.as_strided_scatter.default", {x[0], x[1], IntList{2, 3}, IntList{6, 2}, 3}));
       }},
      {"aten.zero.default", "", {real({3, 4})}, [](const TensorList& x) { return one(op1("aten.zero.default", {x[0]})); }},
      {"aten.fill.Tensor", "self and value", {real({3, 4}), real({}, -1, 1, 1)},
       [](const TensorList& x) { return one(op1("aten.fill.Tensor", {x[0], x[1]})); }},
      {"aten.masked_fill.Tensor", "self and value, broadcast bool mask", {real({3, 4}), bools({4}, {1, 0, 0, 1}), real({}, -1, 1, 1)},
       [](const TensorList& x) { return one(op1("aten.masked_fill.Tensor", {x[0], x[1], x[2]})); }},
      {"aten.masked_fill.Scalar", "int64 0/1 mask", {real({3, 4}), ints({3, 4}, {0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1})},
       [](const TensorList& x) { return one(op1("aten.masked_fill.Scalar", {x[0], x[1], 2.5})); }},
      {"aten.lift_fresh_copy.default", "", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten.lift_fresh_copy.default", {x[0]})); }},
      {"aten.constant_pad_nd.default", "padding and narrowing", {real({2, 3, 4})},
       [](const TensorList& x) { return one(op1("aten.constant_pad_nd.default", {x[0], IntList{1, -1, 0, 2}, 0.5})); }},
      {"aten.roll.default", "two dims, of a transposed input", {real({4, 3})},
       [](const TensorList& x) { return one(op1("aten.roll.default", {t(x[0]), IntList{-1, 2}, IntList{0, 1}})); }},
      {"aten.roll.default", "flattened", {real({2, 3})},
       [](const TensorList& x) { return one(op1("aten.roll.default", {x[0], IntList{4}, IntList{}})); }},
  };
}

}  // namespace fathom::testing
