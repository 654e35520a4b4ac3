// Neural-network ops: their gradients are ATen's fused backward ops, asked only for the
// gradients that are needed (output_mask). The pooling, embedding and nll_loss backward ops are
// linear in grad_output, so their own gradient there is a forward-like op on the incoming
// gradient (max_pool_double_backward, embedding_dense_double_backward, nll_loss); they are
// piecewise constant in self (zeros).
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

Arg mask3(bool a, bool b, bool c) { return Arg(Value(ValueList{a, b, c})); }

// Sets the gradients of a fused backward op's outputs on argument positions `pos`.
void setFused(GradContext& c, const std::vector<Tensor>& grads, std::initializer_list<size_t> pos) {
  size_t i = 0;
  for (size_t p : pos) {
    if (c.needs(p) && i < grads.size()) c.set(p, castLike(grads[i], c.tensor(p)));
    ++i;
  }
}

// embedding_dense_double_backward: row i of the result is row indices[i] of `g` (0 for padding).
// Unlike PyTorch 1.13, scale_grad_by_freq is honoured (each row divided by its index's count):
// the backward scaled the rows, so its derivative must too.
Tensor embeddingDoubleBackward(const GradContext& c) {
  const Tensor& indices = c.tensor(1);
  const int64_t paddingIdx = c.integer(3);
  Tensor flat = reshape(indices, {SymValue(-1)});
  Tensor rows = callOp1("aten.index_select.default", {c.grad(), 0, flat});
  if (c.flag(4)) {
    Tensor ones = callOp1("aten.ones_like.default", {to(unsqueeze(flat, 1), c.grad().dtype())});
    Tensor counts = callOp1("aten.embedding_dense_backward.default", {ones, flat, c.symInt(2), -1, false});
    rows = div(rows, callOp1("aten.index_select.default", {counts, 0, flat}));
  }
  if (paddingIdx >= 0) rows = maskedFill(rows, unsqueeze(callOp1("aten.eq.Scalar", {flat, paddingIdx}), 1), 0.0);
  SymValues sizes = indices.sizes();
  sizes.push_back(c.grad().size(-1));
  return view(rows, sizes);
}

// max_pool_double_backward: each output position reads the incoming gradient at its argmax, over
// planes of the last `dims` dims flattened (2-d or 3-d pooling).
Tensor maxPoolDoubleBackward(const Tensor& g, const Tensor& indices, size_t dims) {
  auto planes = [dims](const Tensor& t) {
    SymValues s = t.sizes();
    SymValue volume = s.back();
    for (size_t d = 2; d <= dims; ++d) volume = volume * s[s.size() - d];
    s.resize(s.size() - dims);
    s.push_back(volume);
    return reshape(t, s);
  };
  const int64_t flat = static_cast<int64_t>(indices.dim()) - static_cast<int64_t>(dims);  // the volume's dim
  return view(callOp1("aten.gather.default", {planes(g), flat, planes(indices)}), indices.sizes());
}

// _embedding_bag: weight through _embedding_bag_backward, per_sample_weights through
// _embedding_bag_per_sample_weights_backward, both reading the forward's offset2bag, bag_size
// and max_indices (only output 0 is differentiable). 1.13's backward refuses indices or offsets
// that are not contiguous; Fathom hands it contiguous ones.
void embeddingBagDerivative(GradContext& c) {
  if (!c.grad(0).defined()) return;
  const Tensor indices = contiguous(c.tensor(1)), offsets = contiguous(c.tensor(2));
  const Arg perSample = c.isNone(6) ? Arg(None{}) : Arg(c.tensor(6));
  if (c.needs(0))
    c.set(0, callOp1("aten._embedding_bag_backward.default",
                     {c.grad(0), indices, offsets, c.output(1), c.output(2), c.output(3), c.tensor(0).size(0),
                      c.flag(3), c.integer(4), c.flag(5), perSample, c.integer(8)}));
  if (c.needs(6))
    c.set(6, callOp1("aten._embedding_bag_per_sample_weights_backward.default",
                     {c.grad(0), c.tensor(0), indices, offsets, c.output(1), c.integer(4), c.integer(8)}));
}

void batchNormDerivative(GradContext& c) {
  if (!c.grad(0).defined()) return;
  auto g = callOp("aten.native_batch_norm_backward.default",
                  {c.grad(0), c.tensor(0), c.tensor(1), c.tensor(3), c.tensor(4), c.output(1), c.output(2), c.flag(5),
                   c.number(7), mask3(c.needs(0), c.needs(1), c.needs(2))});
  setFused(c, g, {0, 1, 2});
}

// reflection / replication padding through their backward ops; the backward ops' own gradient
// is the forward pad of the incoming gradient (self's values do not matter).
void registerPaddingDerivatives() {
  static const std::vector<std::string> kPads = {"reflection_pad1d", "reflection_pad2d", "reflection_pad3d",
                                                 "replication_pad1d", "replication_pad2d", "replication_pad3d"};
  for (const std::string& pad : kPads) {
    const std::string forward = "aten." + pad + ".default", backward = "aten." + pad + "_backward.default";
    registerDerivative(forward, [backward](GradContext& c) {
      if (c.needs(0)) c.set(0, callOp1(backward, {c.grad(), c.tensor(0), c.intList(1)}));
    });
    registerDerivative(backward, [forward](GradContext& c) {
      if (c.needs(0)) c.set(0, callOp1(forward, {c.grad(), c.intList(2)}));
      if (c.needs(1)) c.set(1, zerosLike(c.tensor(1)));
    });
  }
}

// upsample_{nearest,bilinear}2d (default and .vec) through their backward ops, which take the
// forward's arguments with input_size after output_size; their own gradient is the forward op
// on the incoming gradient.
void registerUpsampleDerivatives() {
  for (const std::string kind : {"nearest", "bilinear"}) {
    for (const std::string overload : {"default", "vec"}) {
      const std::string forward = "aten.upsample_" + kind + "2d." + overload;
      const std::string backward = "aten.upsample_" + kind + "2d_backward." + overload;
      const size_t n = (overload == "default" ? 4 : 3) + (kind == "bilinear" ? 1 : 0);  // the forward's arguments
      registerDerivative(forward, [backward, n](GradContext& c) {
        if (!c.needs(0)) return;
        frontend::Args args{c.grad(), c.arg(1), c.sizes(0)};
        for (size_t i = 2; i < n; ++i) args.push_back(c.arg(i));
        c.set(0, callOp1(backward, args));
      });
      registerDerivative(backward, [forward, n](GradContext& c) {
        if (!c.needs(0)) return;
        frontend::Args args{c.grad(), c.arg(1)};
        for (size_t i = 3; i <= n; ++i) args.push_back(c.arg(i));
        c.set(0, callOp1(forward, args));
      });
    }
  }
}

// Max, average and adaptive average pooling, 2-d and 3-d, through their backward ops (kernel_size,
// stride and padding passed as given: int[N] accepts one int, and stride=[] means kernel_size).
// The backward ops are linear in grad_output: their own gradient there is the forward op on the
// incoming gradient (max pooling: max_pool_double_backward), and zero for self.
void registerPoolingDerivatives() {
  for (const size_t dims : {2, 3}) {
    const std::string nd = std::to_string(dims) + "d";
    const std::string maxPool = "aten.max_pool" + nd + "_with_indices.default";
    const std::string maxBackward = "aten.max_pool" + nd + "_with_indices_backward.default";
    const std::string avgPool = "aten.avg_pool" + nd + ".default", avgBackward = "aten.avg_pool" + nd + "_backward.default";
    const std::string adaptive = "aten._adaptive_avg_pool" + nd + ".default";
    const std::string adaptiveBackward = "aten._adaptive_avg_pool" + nd + "_backward.default";
    registerDerivative(maxPool, [maxBackward](GradContext& c) {
      if (!c.needs(0) || !c.grad(0).defined()) return;
      c.set(0, callOp1(maxBackward, {c.grad(0), c.tensor(0), c.arg(1), c.arg(2), c.arg(3), c.arg(4), c.flag(5), c.output(1)}));
    });
    registerDerivative(maxBackward, [dims](GradContext& c) {
      if (c.needs(0)) c.set(0, maxPoolDoubleBackward(c.grad(), c.tensor(7), dims));
      if (c.needs(1)) c.set(1, zerosLike(c.tensor(1)));
    });
    registerDerivative(avgPool, [avgBackward](GradContext& c) {
      if (c.needs(0))
        c.set(0, callOp1(avgBackward, {c.grad(), c.tensor(0), c.arg(1), c.arg(2), c.arg(3), c.flag(4), c.flag(5), c.arg(6)}));
    });
    registerDerivative(avgBackward, [avgPool](GradContext& c) {
      if (c.needs(0)) c.set(0, callOp1(avgPool, {c.grad(), c.arg(2), c.arg(3), c.arg(4), c.flag(5), c.flag(6), c.arg(7)}));
      if (c.needs(1)) c.set(1, zerosLike(c.tensor(1)));
    });
    // _adaptive_avg_pool_backward does not depend on self's values; pooled to grad_output's size.
    registerDerivative(adaptive, [adaptiveBackward](GradContext& c) {
      if (c.needs(0)) c.set(0, callOp1(adaptiveBackward, {c.grad(), c.tensor(0)}));
    });
    registerDerivative(adaptiveBackward, [adaptive, dims](GradContext& c) {
      const SymValues sizes = c.tensor(0).sizes();
      if (c.needs(0)) c.set(0, callOp1(adaptive, {c.grad(), SymValues(sizes.end() - static_cast<std::ptrdiff_t>(dims), sizes.end())}));
      if (c.needs(1)) c.set(1, zerosLike(c.tensor(1)));
    });
  }
}

// native_group_norm(input, weight, bias, N, C, HxW, group, eps): the fused backward op for Y's
// gradient (1.13's shapes the bias gradient like weight, so without a weight that one is summed
// here), plus what flows through the mean and rstd outputs, which PyTorch differentiates too:
// d mean / dx = 1 / M and d rstd / dx = -rstd^3 (x - mean) / M over each group's M elements.
void groupNormDerivative(GradContext& c) {
  const bool weight = !c.isNone(1);
  const SymValue n = c.symInt(3), groups = SymValue(c.integer(6));
  Tensor dx;
  if (c.grad(0).defined()) {
    auto g = callOp("aten.native_group_norm_backward.default",
                    {c.grad(0), c.tensor(0), c.output(1), c.output(2), c.tensor(1), n, c.symInt(4), c.symInt(5),
                     c.integer(6), mask3(c.needs(0), c.needs(1), weight && c.needs(2))});
    dx = g[0];
    setFused(c, {g[1], g[2]}, {1, 2});
    if (!weight && c.needs(2))
      c.set(2, castLike(sum(reshape(c.grad(0), {n, c.symInt(4), c.symInt(5)}), {0, 2}), c.tensor(2)));
  }
  if (!c.needs(0)) return;
  if (c.grad(1).defined() || c.grad(2).defined()) {
    const Tensor x = reshape(c.tensor(0), {n, groups, SymValue(-1)});
    const SymValue count = x.sizes()[2];
    Tensor extra = zerosLike(x);
    if (c.grad(1).defined()) extra = add(extra, callOp1("aten.div.Scalar", {unsqueeze(c.grad(1), -1), count}));
    if (c.grad(2).defined()) {
      const Tensor r = unsqueeze(c.output(2), -1);
      const Tensor slope = callOp1("aten.div.Scalar", {mul(neg(mul(mul(r, r), r)), unsqueeze(c.grad(2), -1)), count});
      extra = add(extra, mul(slope, sub(x, unsqueeze(c.output(1), -1))));
    }
    extra = reshape(extra, c.sizes(0));
    dx = dx.defined() ? add(dx, extra) : extra;
  }
  if (dx.defined()) c.set(0, castLike(dx, c.tensor(0)));
}

// im2col and col2im are each other's derivative (both linear); grid_sampler_2d's is its fused
// backward op, asked for the input's gradient only when needed (the grid's always comes back).
void registerSamplingDerivatives() {
  registerDerivative("aten.im2col.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    c.set(0, callOp1("aten.col2im.default", {c.grad(), SymValues{sizes[sizes.size() - 2], sizes.back()}, c.arg(1),
                                             c.arg(2), c.arg(3), c.arg(4)}));
  });
  registerDerivative("aten.col2im.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.im2col.default", {c.grad(), c.arg(2), c.arg(3), c.arg(4), c.arg(5)}));
  });
  registerDerivative("aten.grid_sampler_2d.default", [](GradContext& c) {
    if (!c.grad().defined()) return;
    const Arg mask(Value(ValueList{c.needs(0), c.needs(1)}));
    auto g = callOp("aten.grid_sampler_2d_backward.default",
                    {c.grad(), c.tensor(0), c.tensor(1), c.integer(2), c.integer(3), c.flag(4), mask});
    setFused(c, g, {0, 1});
  });
}

}  // namespace

// Long: one registration per NN op (each a line or a few), a table in code.
void registerNnDerivatives() {
  registerDerivative("aten.native_layer_norm.default", [](GradContext& c) {
    if (!c.grad(0).defined()) return;
    auto g = callOp("aten.native_layer_norm_backward.default",
                    {c.grad(0), c.tensor(0), c.symList(1), c.output(1), c.output(2), c.tensor(2), c.tensor(3),
                     mask3(c.needs(0), c.needs(2), c.needs(3))});
    setFused(c, g, {0, 2, 3});
  });
  registerDerivative("aten.native_group_norm.default", groupNormDerivative);
  // The functional form (Functionalize.h) has the same first three outputs and the same gradients.
  for (const char* op : {"aten.native_batch_norm.default", "aten._native_batch_norm_legit_functional.default"})
    registerDerivative(op, batchNormDerivative);
  registerDerivative("aten.convolution.default", [](GradContext& c) {
    Arg biasSizes = c.isNone(2) ? Arg(None{}) : Arg(c.sizes(2));
    auto g = callOp("aten.convolution_backward.default",
                    {c.grad(), c.tensor(0), c.tensor(1), biasSizes, c.arg(3), c.arg(4), c.arg(5),
                     c.flag(6), c.arg(7), c.integer(8), mask3(c.needs(0), c.needs(1), c.needs(2))});
    setFused(c, g, {0, 1, 2});
  });
  // avg_pool1d is avg_pool2d over a unit height (1.13's composite): so is its gradient.
  registerDerivative("aten.avg_pool1d.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const IntList k = c.intList(1), s = c.intList(2).empty() ? k : c.intList(2), p = c.intList(3);
    const Tensor g = callOp1("aten.avg_pool2d_backward.default",
                             {unsqueeze(c.grad(), -2), unsqueeze(c.tensor(0), -2), IntList{1, k[0]}, IntList{1, s[0]},
                              IntList{0, p[0]}, c.flag(4), c.flag(5), None{}});
    c.set(0, callOp1("aten.squeeze.dim", {g, -2}));
  });
  // adaptive_avg_pool1d: _adaptive_avg_pool2d's gradient over a unit height (for output size 1,
  // 1.13's mean gives the same: each element its row's gradient over its length).
  registerDerivative("aten.adaptive_avg_pool1d.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const Tensor g = callOp1("aten._adaptive_avg_pool2d_backward.default", {unsqueeze(c.grad(), -2), unsqueeze(c.tensor(0), -2)});
    c.set(0, callOp1("aten.squeeze.dim", {g, -2}));
  });
  registerPoolingDerivatives();
  registerDerivative("aten.embedding.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    c.set(0, callOp1("aten.embedding_dense_backward.default",
                     {c.grad(), c.tensor(1), c.tensor(0).size(0), c.integer(2), c.flag(3)}));
  });
  registerDerivative("aten.embedding_dense_backward.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, embeddingDoubleBackward(c));
  });
  registerDerivative("aten._embedding_bag.default", embeddingBagDerivative);
  // The second output, total_weight, is not differentiable (as in PyTorch).
  registerDerivative("aten.nll_loss_forward.default", [](GradContext& c) {
    if (!c.needs(0) || !c.grad(0).defined()) return;
    c.set(0, callOp1("aten.nll_loss_backward.default",
                     {c.grad(0), c.tensor(0), c.tensor(1), c.tensor(2), c.integer(3), c.integer(4), c.output(1)}));
  });
  registerDerivative("aten.nll_loss_backward.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp("aten.nll_loss_forward.default", {c.grad(), c.tensor(2), c.tensor(3), c.integer(4), c.integer(5)})[0]);
    if (c.needs(1)) c.set(1, zerosLike(c.tensor(1)));
  });
  registerDerivative("aten.native_dropout.default", [](GradContext& c) {
    if (!c.needs(0) || !c.grad(0).defined()) return;
    // train=False returns the input (mask all ones, no scaling); train=None trains.
    const double p = c.number(1);
    const bool train = c.isNone(2) || c.flag(2);
    const double scale = !train ? 1.0 : p >= 1.0 ? 0.0 : 1.0 / (1.0 - p);
    c.set(0, callOp1("aten.native_dropout_backward.default", {c.grad(0), c.output(1), scale}));
  });
  registerPaddingDerivatives();
  registerUpsampleDerivatives();
  // torch 2.x's CPU flash attention: the backward op takes the forward's output and logsumexp;
  // logsumexp itself is not differentiable (derivatives.yaml's output_differentiability).
  registerDerivative("aten._scaled_dot_product_flash_attention_for_cpu.default", [](GradContext& c) {
    if (!c.grad(0).defined() || !(c.needs(0) || c.needs(1) || c.needs(2))) return;
    auto g = callOp("aten._scaled_dot_product_flash_attention_for_cpu_backward.default",
                    {c.grad(0), c.tensor(0), c.tensor(1), c.tensor(2), c.output(0), c.output(1), c.arg(3), c.arg(4)},
                    {{"attn_mask", c.arg(5)}, {"scale", c.arg(6)}});
    setFused(c, g, {0, 1, 2});
  });
  registerSamplingDerivatives();
}

}  // namespace fathom::autograd
