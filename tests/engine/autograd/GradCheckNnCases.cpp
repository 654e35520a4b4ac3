// Gradient-check cases for the neural-network and indexing ops (NnDerivatives.cpp,
// IndexingDerivatives.cpp, DistanceDerivatives.cpp): weights and biases are differentiated with
// the input; indices repeat, so scattered gradients must add up; grids are differentiated with
// the sampled input.
#include <limits>

#include "engine/core/Random.h"
#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {

using namespace frontend;

namespace {

// gather, index_select, the scatters and select_scatter (IndexingDerivatives.cpp).
std::vector<GradCase> indexingCases() {
  return {
      {"aten.gather.default", "dim 1, repeated indices, index smaller than self",
       {real({3, 4}), ints({2, 3}, {0, 3, 3, 1, 1, 2})},
       [](const TensorList& x) { return one(op1("aten.gather.default", {x[0], 1, x[1]})); }},
      {"aten.gather.default", "dim 0 of a transposed input", {real({4, 3}), ints({2, 4}, {2, 0, 1, 2, 2, 2, 0, 1})},
       [](const TensorList& x) { return one(op1("aten.gather.default", {t(x[0]), 0, x[1]})); }},
      {"aten.index_select.default", "dim 1, repeated indices", {real({2, 3, 4}), ints({5}, {2, 0, 2, 1, 2})},
       [](const TensorList& x) { return one(op1("aten.index_select.default", {x[0], 1, x[1]})); }},
      {"aten.index_select.default", "dim 0, 0-d index", {real({3, 4}), ints({}, {2})},
       [](const TensorList& x) { return one(op1("aten.index_select.default", {x[0], 0, x[1]})); }},
      // scatter.src with distinct places; scatter_add with a repeated one.
      {"aten.scatter.src", "dim 1, index smaller than self", {real({3, 4}), ints({2, 2}, {3, 0, 1, 2}), real({2, 2}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.scatter.src", {x[0], 1, x[1], x[2]})); }},
      {"aten.scatter.value", "transposed self", {real({4, 3}), ints({1, 4}, {2, 0, 1, 1})},
       [](const TensorList& x) { return one(op1("aten.scatter.value", {t(x[0]), 0, x[1], 1.5})); }},
      {"aten.scatter_add.default", "repeated indices", {real({3, 4}), ints({3, 2}, {0, 2, 2, 2, 1, 0}), real({3, 2}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.scatter_add.default", {x[0], 0, x[1], x[2]})); }},
      {"aten.scatter_reduce.two", "sum, repeated places", {real({3, 4}), ints({3, 3}, {0, 2, 2, 1, 1, 0, 3, 3, 3}), real({3, 3}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.scatter_reduce.two", {x[0], 1, x[1], x[2], "sum"})); }},
      {"aten.scatter_reduce.two", "mean without self", {real({3, 4}), ints({3, 3}, {0, 2, 2, 1, 1, 0, 3, 3, 3}), real({3, 3}, -2, 2, 1)},
       [](const TensorList& x) {
         return one(op1("aten.scatter_reduce.two", {x[0], 1, x[1], x[2], "mean"}, {{"include_self", false}}));
       }},
      {"aten.scatter_reduce.two", "prod with zeros", {GradInput{{2, 3}, {1.5, 0, -0.5, 2, 0.75, 0}}, ints({2, 2}, {0, 0, 2, 1}),
                                                       GradInput{{2, 2}, {0, 1.25, -1.5, 0}}},
       [](const TensorList& x) { return one(op1("aten.scatter_reduce.two", {x[0], 1, x[1], x[2], "prod"})); }},
      // (src apart from self: PyTorch's formula would split the gradient with a self element that
      // happens to equal the result even when include_self is false.)
      {"aten.scatter_reduce.two", "amax without self, no ties", {noTies({3, 4}), ints({3, 2}, {0, 2, 1, 1, 3, 0}), real({3, 2}, 5, 6, 1)},
       [](const TensorList& x) {
         return one(op1("aten.scatter_reduce.two", {x[0], 1, x[1], x[2], "amax"}, {{"include_self", false}}));
       }},
      {"aten.scatter_reduce.two", "amin", {noTies({3, 4}), ints({3, 2}, {0, 2, 1, 1, 3, 0}), noTies({3, 2}, 1)},
       [](const TensorList& x) { return one(op1("aten.scatter_reduce.two", {x[0], 1, x[1], x[2], "amin"})); }},
      {"aten.masked_scatter.default", "broadcast mask, a larger source",
       {real({3, 4}), bools({4}, {1, 0, 1, 1}), real({11}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.masked_scatter.default", {x[0], x[1], x[2]})); }},
      {"aten.select_scatter.default", "dim 1", {real({3, 4}), real({3}, -2, 2, 1)},
       [](const TensorList& x) { return one(op1("aten.select_scatter.default", {x[0], x[1], 1, -2})); }},
  };
}

// Each padding op and its backward op: batched, one pad negative (a crop), a transposed input.
std::vector<GradCase> paddingCases() {
  std::vector<GradCase> cases;
  for (int dims : {1, 2, 3}) {
    for (const char* kind : {"reflection", "replication"}) {
      const std::string pad = std::string(kind) + "_pad" + std::to_string(dims) + "d";
      IntList padding, sizes{2, 3}, padded{2, 3};
      for (int k = 0; k < dims; ++k) {
        padding.insert(padding.end(), {2, k == 0 ? -1 : 1});
        sizes.push_back(4);
        padded.push_back(k == dims - 1 ? 5 : 7);  // the last dim is padded by (2, -1)
      }
      const std::string forward = "aten." + pad + ".default", backward = "aten." + pad + "_backward.default";
      cases.push_back({forward, "", {real(sizes)}, [=](const TensorList& x) { return one(op1(forward, {x[0], padding})); }});
      cases.push_back({backward, "", {real(padded), real(sizes, -2, 2, 1)},
                       [=](const TensorList& x) { return one(op1(backward, {x[0], x[1], padding})); }});
    }
  }
  cases.push_back({"aten.reflection_pad2d.default", "a transposed input", {real({3, 5, 4})}, [](const TensorList& x) {
                     return one(op1("aten.reflection_pad2d.default", {transpose(x[0], 1, 2), IntList{1, 2, 0, 3}}));
                   }});
  return cases;
}

// Upsampling, default and .vec, and the backward ops.
std::vector<GradCase> upsampleCases() {
  std::vector<GradCase> cases;
  for (const std::string kind : {"nearest", "bilinear"}) {
    const std::string name = "aten.upsample_" + kind + "2d";
    const bool bilinear = kind == "bilinear";
    const Arg scales(Value(ValueList{Value(1.5), Value(2.0)}));  // float[] scale_factors
    auto withCorners = [bilinear](frontend::Args args, size_t at) {
      if (bilinear) args.insert(args.begin() + static_cast<std::ptrdiff_t>(at), false);
      return args;
    };
    cases.push_back({name + ".default", "5x7 from 3x4", {real({1, 2, 3, 4})}, [=](const TensorList& x) {
                       return one(op1(name + ".default", withCorners(frontend::Args{x[0], IntList{5, 7}, None{}, None{}}, 2)));
                     }});
    cases.push_back({name + ".vec", "scale factors", {real({1, 2, 3, 4})}, [=](const TensorList& x) {
                       return one(op1(name + ".vec", withCorners(frontend::Args{x[0], None{}, scales}, 2)));
                     }});
    cases.push_back({name + "_backward.default", "", {real({1, 2, 5, 7})}, [=](const TensorList& x) {
                       return one(op1(name + "_backward.default",
                                      withCorners(frontend::Args{x[0], IntList{5, 7}, IntList{1, 2, 3, 4}, None{}, None{}}, 3)));
                     }});
    cases.push_back({name + "_backward.vec", "", {real({1, 2, 4, 8})}, [=](const TensorList& x) {
                       return one(op1(name + "_backward.vec",
                                      withCorners(frontend::Args{x[0], None{}, IntList{1, 2, 3, 4}, scales}, 3)));
                     }});
  }
  return cases;
}

// 3-d pooling: padding, ceil_mode, dilation, overlapping windows, a channels_last_3d-like input.
std::vector<GradCase> pooling3dCases() {
  const IntList k3{3, 3, 3}, s2{2, 2, 2}, one3{1, 1, 1};
  auto channelsLast = [](const Tensor& x) { return permute(contiguous(permute(x, {0, 2, 3, 4, 1})), {0, 4, 1, 2, 3}); };
  return {
      {"aten.max_pool3d_with_indices.default", "overlapping windows, padding, ceil_mode", {noTies({1, 2, 5, 5, 4})},
       [=](const TensorList& x) {
         return callOp("aten.max_pool3d_with_indices.default", {x[0], k3, s2, one3, one3, true});
       }},
      {"aten.max_pool3d_with_indices.default", "dilation, stride [], 4-d input", {noTies({2, 5, 4, 5})},
       [](const TensorList& x) {
         return callOp("aten.max_pool3d_with_indices.default", {x[0], IntList{2, 2, 2}, IntList{}, IntList{0}, IntList{1, 2, 1}});
       }},
      {"aten.avg_pool3d.default", "padding, ceil_mode, count_include_pad=False", {real({1, 2, 5, 5, 4})},
       [=](const TensorList& x) { return one(op1("aten.avg_pool3d.default", {x[0], k3, s2, one3, true, false})); }},
      {"aten.avg_pool3d.default", "divisor_override, channels-last input", {real({1, 3, 4, 4, 4})},
       [=](const TensorList& x) {
         return one(op1("aten.avg_pool3d.default", {channelsLast(x[0]), IntList{2}, one3, IntList{0}, false, true, 5}));
       }},
      {"aten._adaptive_avg_pool3d.default", "overlapping windows", {real({2, 2, 5, 4, 7})},
       [](const TensorList& x) { return one(op1("aten._adaptive_avg_pool3d.default", {x[0], IntList{3, 3, 4}})); }},
      {"aten._adaptive_avg_pool3d.default", "4-d, upsampling", {real({2, 2, 3, 2})},
       [](const TensorList& x) { return one(op1("aten._adaptive_avg_pool3d.default", {x[0], IntList{3, 4, 3}})); }},
  };
}

// im2col / col2im (each the other's gradient) and grid_sampler_2d (input and grid; grid values
// past [-1, 1], so padding matters).
std::vector<GradCase> samplingCases() {
  const IntList k3{3, 3}, d21{2, 1}, p12{1, 2}, s21{2, 1};
  const std::string gs = "aten.grid_sampler_2d.default";
  auto grid = [gs](int64_t interp, int64_t padding, bool align, bool transposeGrid) {
    return [=](const TensorList& x) {
      return one(op1(gs, {x[0], transposeGrid ? transpose(x[1], 1, 2) : x[1], interp, padding, align}));
    };
  };
  return {
      {"aten.im2col.default", "dilation, padding, stride", {real({2, 3, 5, 6})},
       [=](const TensorList& x) { return one(op1("aten.im2col.default", {x[0], k3, d21, p12, s21})); }},
      {"aten.im2col.default", "unbatched, transposed input", {real({3, 6, 5})},
       [](const TensorList& x) {
         return one(op1("aten.im2col.default", {transpose(x[0], 1, 2), IntList{2, 2}, IntList{1, 1}, IntList{0, 0}, IntList{1, 1}}));
       }},
      {"aten.col2im.default", "overlapping blocks", {real({2, 12, 9})},
       [](const TensorList& x) {
         return one(op1("aten.col2im.default", {x[0], IntList{5, 5}, IntList{2, 3}, IntList{1, 1}, IntList{1, 1}, IntList{2, 2}}));
       }},
      {"aten.col2im.default", "unbatched, dilation", {real({4, 4})},
       [](const TensorList& x) {
         return one(op1("aten.col2im.default", {x[0], IntList{4, 5}, IntList{2, 2}, IntList{2, 1}, IntList{0, 0}, IntList{1, 2}}));
       }},
      {gs, "bilinear, zeros", {real({2, 3, 4, 5}), real({2, 3, 4, 2}, -1.2, 1.2, 1)}, grid(0, 0, false, false)},
      {gs, "bilinear, reflection, align_corners, transposed grid", {real({1, 2, 4, 5}), real({1, 4, 3, 2}, -1.6, 1.6, 2)},
       grid(0, 2, true, true)},
      {gs, "nearest, border", {real({1, 2, 4, 5}), real({1, 3, 4, 2}, -1.2, 1.2, 3)}, grid(1, 1, false, false)},
      {gs, "bicubic, zeros, align_corners", {real({1, 2, 4, 5}), real({1, 3, 4, 2}, -1.2, 1.2, 4)}, grid(2, 0, true, false)},
      {gs, "bicubic, border", {real({1, 2, 4, 5}), real({1, 3, 4, 2}, -1.2, 1.2, 5)}, grid(2, 1, false, false)},
  };
}

// _cdist_forward (the direct and the matmul form, each norm, a broadcast batch) and
// _pdist_forward. Coordinates are kept apart where the norm has a kink or a pole at 0; values
// are not multiples of a step where the infinity norm would see ties.
std::vector<GradCase> distanceCases() {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const auto cdist = [](const Tensor& a, const Tensor& b, double p, Arg mode) {
    return one(op1("aten._cdist_forward.default", {a, b, p, std::move(mode)}));
  };
  const auto pdist = [](const Tensor& a, double p) { return one(op1("aten._pdist_forward.default", {a, p})); };
  return {
      {"aten._cdist_forward.default", "p 2, direct form, broadcast batch", {real({2, 3, 4}), real({4, 4}, -2, 2, 1)},
       [=](const TensorList& x) { return cdist(x[0], x[1], 2.0, 2); }},
      {"aten._cdist_forward.default", "p 2, matmul form (27 rows)", {real({27, 3}), real({2, 3}, -2, 2, 1)},
       [=](const TensorList& x) { return cdist(x[0], x[1], 2.0, None{}); }},
      {"aten._cdist_forward.default", "p 1, transposed x1", {awayFromZero({4, 3}), real({2, 4}, -0.1, 0.1, 1)},
       [=](const TensorList& x) { return cdist(t(x[0]), x[1], 1.0, None{}); }},
      {"aten._cdist_forward.default", "p 3", {real({3, 4}), real({2, 4}, -2, 2, 1)},
       [=](const TensorList& x) { return cdist(x[0], x[1], 3.0, None{}); }},
      {"aten._cdist_forward.default", "p 0.5, coordinates apart", {real({3, 4}, 0.5, 2), real({2, 4}, -2, -0.5, 1)},
       [=](const TensorList& x) { return cdist(x[0], x[1], 0.5, None{}); }},
      {"aten._cdist_forward.default", "p inf", {real({3, 4}), real({2, 4}, -2, 2, 1)},
       [=](const TensorList& x) { return cdist(x[0], x[1], kInf, None{}); }},
      {"aten._pdist_forward.default", "p 2", {real({4, 3})}, [=](const TensorList& x) { return pdist(x[0], 2.0); }},
      {"aten._pdist_forward.default", "p 1.5, 9 columns (a vector and a tail)", {real({4, 9})},
       [=](const TensorList& x) { return pdist(x[0], 1.5); }},
      {"aten._pdist_forward.default", "p inf", {real({4, 3})}, [=](const TensorList& x) { return pdist(x[0], kInf); }},
  };
}

// _embedding_bag: sum with per-sample weights (both differentiated), mean with padding and
// include_last_offset, max; an empty bag and repeated rows in each.
std::vector<GradCase> embeddingBagCases() {
  const auto bag = [](const TensorList& x, int64_t mode, Arg perSample, bool includeLast, int64_t padding) {
    return callOp("aten._embedding_bag.default", {x[0], x[1], x[2], false, mode, false, std::move(perSample), includeLast, padding});
  };
  const GradInput indices = ints({6}, {0, 2, 4, 1, 3, 3});
  return {
      {"aten._embedding_bag.default", "sum, per_sample_weights", {real({5, 3}), indices, ints({3}, {0, 2, 2}), real({6}, -2, 2, 1)},
       [=](const TensorList& x) { return bag(x, 0, x[3], false, -1); }, {0}},
      {"aten._embedding_bag.default", "mean, padding_idx, include_last_offset", {real({5, 3}), indices, ints({4}, {0, 2, 2, 6})},
       [=](const TensorList& x) { return bag(x, 1, None{}, true, 3); }, {0}},
      {"aten._embedding_bag.default", "max, no ties", {noTies({5, 3}), indices, ints({3}, {0, 2, 2})},
       [=](const TensorList& x) { return bag(x, 2, None{}, false, -1); }, {0}},
  };
}

}  // namespace

// Long: a table, one case per entry.
std::vector<GradCase> nnGradCases() {
  const IntList k2{2, 2}, one1{1, 1}, zero2{0, 0};
  std::vector<GradCase> all = {
      // torch 2.x's CPU flash attention (AttentionOps.cpp): its backward op against finite differences.
      {"aten._scaled_dot_product_flash_attention_for_cpu.default", "", {real({2, 2, 3, 4}), real({2, 2, 5, 4}, -2, 2, 1), real({2, 2, 5, 4}, -2, 2, 2)},
       [](const TensorList& x) { return callOp("aten._scaled_dot_product_flash_attention_for_cpu.default", {x[0], x[1], x[2]}); },
       {0}},
      {"aten._scaled_dot_product_flash_attention_for_cpu.default", "causal, a 2-d mask, scale 0.5",
       {real({1, 2, 4, 3}), real({1, 2, 4, 3}, -2, 2, 1), real({1, 2, 4, 3}, -2, 2, 2), constant(real({4, 4}, -1, 1, 3))},
       [](const TensorList& x) {
         return callOp("aten._scaled_dot_product_flash_attention_for_cpu.default", {x[0], x[1], x[2], 0.0, true},
                       {{"attn_mask", x[3]}, {"scale", 0.5}});
       },
       {0}},
      {"aten._scaled_dot_product_flash_attention_for_cpu.default", "value head size unlike the query's",
       {real({1, 1, 3, 4}), real({1, 1, 2, 4}, -2, 2, 1), real({1, 1, 2, 5}, -2, 2, 2)},
       [](const TensorList& x) { return callOp("aten._scaled_dot_product_flash_attention_for_cpu.default", {x[0], x[1], x[2]}); },
       {0}},
      {"aten._safe_softmax.default", "", {real({3, 4})},
       [](const TensorList& x) { return one(op1("aten._safe_softmax.default", {x[0], 1})); }},
      {"aten.native_layer_norm.default", "weight and bias", {real({2, 3, 4}), real({4}, 0.5, 2, 1), real({4}, -1, 1, 2)},
       [](const TensorList& x) {
         return callOp("aten.native_layer_norm.default", {x[0], SymValues{4}, x[1], x[2], 1e-5});
       },
       {0}},
      {"aten.native_batch_norm.default", "training, weight and bias",
       {real({3, 2, 2, 2}), real({2}, 0.5, 2, 1), real({2}, -1, 1, 2), constant(real({2}, 0, 1, 3)),
        constant(real({2}, 1, 2, 4))},
       [](const TensorList& x) {
         return callOp("aten.native_batch_norm.default", {x[0], x[1], x[2], x[3], x[4], true, 0.1, 1e-5});
       },
       {0}},
      {"aten.native_batch_norm.default", "evaluation (running statistics)",
       {real({3, 2, 2}), real({2}, 0.5, 2, 1), real({2}, -1, 1, 2), constant(real({2}, 0, 1, 3)),
        constant(real({2}, 1, 2, 4))},
       [](const TensorList& x) {
         return callOp("aten.native_batch_norm.default", {x[0], x[1], x[2], x[3], x[4], false, 0.1, 1e-5});
       },
       {0}},
      {"aten._native_batch_norm_legit_functional.default", "training (functionalized batch norm)",
       {real({3, 2, 2}), real({2}, 0.5, 2, 1), real({2}, -1, 1, 2), constant(real({2}, 0, 1, 3)),
        constant(real({2}, 1, 2, 4))},
       [](const TensorList& x) {
         return callOp("aten._native_batch_norm_legit_functional.default",
                       {x[0], x[1], x[2], x[3], x[4], true, 0.1, 1e-5});
       },
       {0}},
      {"aten.convolution.default", "stride 2, padding 1, bias", {real({1, 2, 5, 5}), real({3, 2, 3, 3}, -1, 1, 1), real({3})},
       [=](const TensorList& x) {
         return one(op1("aten.convolution.default",
                        {x[0], x[1], x[2], IntList{2, 2}, one1, one1, false, zero2, 1}));
       }},
      {"aten.convolution.default", "groups 2, no bias", {real({1, 4, 4, 4}), real({2, 2, 2, 2}, -1, 1, 1)},
       [=](const TensorList& x) {
         return one(op1("aten.convolution.default", {x[0], x[1], None{}, one1, zero2, one1, false, zero2, 2}));
       }},
      {"aten.convolution.default", "transposed: stride 2, output_padding 1, groups 2, bias",
       {real({1, 4, 3, 3}), real({4, 2, 3, 3}, -1, 1, 1), real({4})},
       [=](const TensorList& x) {
         return one(op1("aten.convolution.default", {x[0], x[1], x[2], IntList{2, 2}, one1, one1, true, one1, 2}));
       }},
      {"aten.convolution.default", "transposed 1-d, dilation 2", {real({2, 3, 4}), real({3, 2, 3}, -1, 1, 1)},
       [](const TensorList& x) {
         return one(op1("aten.convolution.default", {x[0], x[1], None{}, IntList{1}, IntList{1}, IntList{2}, true, IntList{0}, 1}));
       }},
      {"aten.max_pool2d_with_indices.default", "overlapping windows, padding", {noTies({1, 2, 5, 5})},
       [=](const TensorList& x) {
         return callOp("aten.max_pool2d_with_indices.default", {x[0], IntList{3, 3}, k2, one1});
       }},
      {"aten.avg_pool2d.default", "padding, ceil_mode, count_include_pad=False", {real({1, 2, 5, 5})},
       [=](const TensorList& x) {
         return one(op1("aten.avg_pool2d.default", {x[0], IntList{3, 3}, k2, one1, true, false}));
       }},
      {"aten.avg_pool2d.default", "divisor_override, 3-d input", {real({2, 4, 4})},
       [=](const TensorList& x) { return one(op1("aten.avg_pool2d.default", {x[0], k2, one1, zero2, false, true, 3})); }},
      {"aten.embedding.default", "repeated indices", {real({4, 3}), ints({2, 3}, {0, 2, 2, 3, 0, 2})},
       [](const TensorList& x) { return one(embedding(x[0], x[1])); }},
      {"aten.native_dropout.default", "training (seeded mask)", {real({3, 4})},
       [](const TensorList& x) {
         manualSeed(7);  // the same mask on every evaluation
         return callOp("aten.native_dropout.default", {x[0], 0.25, true});
       }},
      {"aten.native_dropout.default", "evaluation: the identity", {real({3, 4})},
       [](const TensorList& x) { return callOp("aten.native_dropout.default", {x[0], 0.25, false}); }},
      {"aten.nll_loss_forward.default", "mean, weights, ignore_index", {real({3, 4}), ints({3}, {1, 3, 0}), constant(real({4}, 0.5, 2))},
       [](const TensorList& x) { return callOp("aten.nll_loss_forward.default", {x[0], x[1], x[2], 1, 0}); },
       {0}},
      {"aten.nll_loss_forward.default", "none, 1-d input", {real({4}), ints({}, {2})},
       [](const TensorList& x) { return callOp("aten.nll_loss_forward.default", {x[0], x[1], None{}, 0, -100}); },
       {0}},
      {"aten._adaptive_avg_pool2d.default", "overlapping windows", {real({2, 2, 5, 7})},
       [](const TensorList& x) { return one(op1("aten._adaptive_avg_pool2d.default", {x[0], IntList{3, 4}})); }},
      {"aten._adaptive_avg_pool2d.default", "3-d, upsampling, transposed input", {real({2, 3, 4})},
       [](const TensorList& x) { return one(op1("aten._adaptive_avg_pool2d.default", {transpose(x[0], 1, 2), IntList{5, 3}})); }},
      {"aten._adaptive_avg_pool2d_backward.default", "grad_output and self", {real({2, 2, 3, 4}), real({2, 2, 5, 7})},
       [](const TensorList& x) { return one(op1("aten._adaptive_avg_pool2d_backward.default", {x[0], x[1]})); }},
      {"aten.max_pool2d_with_indices.default", "stride [] (the kernel size)", {noTies({1, 2, 6, 6})},
       [](const TensorList& x) { return callOp("aten.max_pool2d_with_indices.default", {x[0], IntList{3, 2}, IntList{}}); }},
  };
  // Every output carries a gradient, mean and rstd too (PyTorch differentiates them).
  all.push_back({"aten.native_group_norm.default", "weight and bias", {real({2, 4, 3}), real({4}, 0.5, 2, 1), real({4}, -1, 1, 2)},
                 [](const TensorList& x) { return callOp("aten.native_group_norm.default", {x[0], x[1], x[2], 2, 4, 3, 2, 1e-5}); }});
  all.push_back({"aten.native_group_norm.default", "bias without weight, 4-d", {real({2, 4, 2, 2}), real({4}, -1, 1, 2)},
                 [](const TensorList& x) { return callOp("aten.native_group_norm.default", {x[0], None{}, x[1], 2, 4, 4, 4, 1e-5}); }});
  all.push_back({"aten.avg_pool1d.default", "stride 2, padding, ceil_mode", {real({2, 3, 7})}, [](const TensorList& x) {
                   return one(op1("aten.avg_pool1d.default", {x[0], IntList{3}, IntList{2}, IntList{1}, true, false}));
                 }});
  all.push_back({"aten.adaptive_avg_pool1d.default", "7 to 3", {real({2, 3, 7})},
                 [](const TensorList& x) { return one(op1("aten.adaptive_avg_pool1d.default", {x[0], IntList{3}})); }});
  for (auto part : {indexingCases, paddingCases, upsampleCases, pooling3dCases, samplingCases, distanceCases, embeddingBagCases})
    for (auto& c : part()) all.push_back(std::move(c));
  return all;
}

}  // namespace fathom::testing
