// Row-local composites as phased kernels (KernelIR.h): the kept dims are the outer loops, the dims
// the op works along the inner ones, and each op is the passes ATen's CPU kernel makes over a row.
//   _softmax          max; sum of exp(x - max); exp(x - max) * (1 / sum)
//   _log_softmax      max; sum of exp(x - max); x - max - log(sum)
//   _softmax_backward_data      sum of g * y; y * (g - sum)
//   _log_softmax_backward_data  sum of g; g - exp(y) * sum
//   native_layer_norm mean; mean of (x - mean)^2; mean and rstd = 1 / sqrt(var + eps) stored per
//                     row; (x * rstd + -rstd * mean) * weight + bias
// Floating dtypes only, the result in the input's dtype (no half_to_float); anything else stays
// eager. Sums are reassociated (vectorized), so values round differently from the eager kernels'.
#include "engine/compile/KernelLowerer.h"

namespace fathom::lowering {

Status KernelLowerer::rowLoops(const TensorMeta& x, const std::vector<int64_t>& dims, bool keepdim) {
  const int64_t rank = x.dim();
  reduced_.assign(static_cast<size_t>(rank), false);
  for (int64_t d : dims) {
    const int64_t at = d < 0 ? d + rank : d;
    if (at < 0 || at >= rank) return invalidInput("dim out of range");
    reduced_[static_cast<size_t>(at)] = true;
  }
  keepdim_ = keepdim;
  reducedInput_ = x.sizes;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced_[static_cast<size_t>(d)]) perm_.push_back(d);
  for (int64_t d = 0; d < rank; ++d)
    if (reduced_[static_cast<size_t>(d)]) perm_.push_back(d);
  for (int64_t d : perm_) loopSizes_.push_back(x.sizes[static_cast<size_t>(d)]);
  for (const auto& s : loopSizes_) b_.kernel.loop.push_back(b_.intOf(s));
  b_.kernel.reduceDims = static_cast<int32_t>(dims.size());
  return {};
}

// A fresh load of `value` in the current phase (a phase never reads another phase's instructions).
Result<int32_t> KernelLowerer::rowLoad(NodeRef value) {
  const Node& n = g_.node(value);
  const TensorMeta* m = n.val.tryAs<TensorMeta>();
  if (!m) return invalidInput("%" + n.name + " is not a tensor");
  auto buf = addBuffer(n.name, *m, reducedInput_, false);
  FATHOM_TRY(buf);
  return b_.load(*buf, b_.kernel.buffers[static_cast<size_t>(*buf)].type);
}

// `value` stored as node `n`: at every point, or once per row (reduced dims of size 1).
Status KernelLowerer::rowStore(const Node& n, int32_t value, bool perRow) {
  const TensorMeta* m = n.val.tryAs<TensorMeta>();
  if (!m) return invalidInput("%" + n.name + " records no tensor");
  if (perRow && m->dim() != static_cast<int64_t>(reducedInput_.size())) return invalidInput("%" + n.name + ": a per-row value of another rank");
  auto buf = addBuffer(n.name, *m, reducedInput_, true, perRow);
  FATHOM_TRY(buf);
  b_.kernel.stores.push_back({b_.cast(value, b_.kernel.buffers[static_cast<size_t>(*buf)].type), *buf, b_.phase});
  return {};
}

// The getitem node picking result `index` of the composite, when another kernel reads it.
const Node* KernelLowerer::rowOutput(int64_t index) const {
  for (NodeRef r : fk_.outputs) {
    const Node& n = g_.node(r);
    const auto* i = n.args.size() == 2 ? n.args[1].tryAs<SymInt>() : nullptr;
    if (n.target == "getitem" && i && i->maybeConcrete() == index) return &n;
  }
  return nullptr;
}

Status KernelLowerer::softmax(const Node& n, const ValueList& args, bool log) {
  if (args.size() < 3 || !args[1].isInt() || (args[2].is<bool>() && args[2].as<bool>()))
    return invalidInput("softmax with half_to_float");
  const auto* x = args[0].tryAs<NodeRef>();
  FATHOM_TRY(rowLoops(*g_.node(*x).val.tryAs<TensorMeta>(), {*args[1].as<SymInt>().maybeConcrete()}, true));
  newPhase(true);
  auto v0 = rowLoad(*x);
  FATHOM_TRY(v0);
  const int32_t max = reduce(ReduceOp::Max, *v0);
  newPhase(true);
  auto v1 = rowLoad(*x);
  FATHOM_TRY(v1);
  const int32_t sum = reduce(ReduceOp::Sum, b_.unary(KOp::Exp, b_.binary(KOp::Sub, *v1, b_.acc(max))));
  newPhase(true);
  auto v2 = rowLoad(*x);
  FATHOM_TRY(v2);
  const ScalarKind t = b_.typeOf(*v2);
  const int32_t shifted = b_.binary(KOp::Sub, *v2, b_.acc(max));
  const int32_t out = log ? b_.binary(KOp::Sub, shifted, b_.unary(KOp::Log, b_.acc(sum)))
                          : b_.binary(KOp::Mul, b_.unary(KOp::Exp, shifted), b_.binary(KOp::Div, b_.constant(t, 1), b_.acc(sum)));
  return rowStore(n, out, false);
}

Status KernelLowerer::softmaxBackward(const Node& n, const ValueList& args, bool log) {
  const auto* g = args.size() > 2 ? args[0].tryAs<NodeRef>() : nullptr;
  const auto* y = args.size() > 2 ? args[1].tryAs<NodeRef>() : nullptr;
  if (!g || !y || !args[2].isInt()) return invalidInput("softmax backward without its tensors");
  const TensorMeta* ym = g_.node(*y).val.tryAs<TensorMeta>();
  const TensorMeta* gm = g_.node(*g).val.tryAs<TensorMeta>();
  if (!ym || !gm || !sameSizes(ym->sizes, gm->sizes)) return invalidInput("softmax backward of broadcast sizes");
  // PyTorch 1.13's CPU kernel reads strided gradients and outputs its own way (the eager kernels
  // follow it, the oracle records it): only contiguous ones are generated.
  if (!isStaticallyContiguous(*ym) || !isStaticallyContiguous(*gm)) return invalidInput("softmax backward of strided tensors");
  FATHOM_TRY(rowLoops(*ym, {*args[2].as<SymInt>().maybeConcrete()}, true));
  newPhase(true);
  auto g0 = rowLoad(*g);
  FATHOM_TRY(g0);
  int32_t summed = *g0;
  if (!log) {
    auto y0 = rowLoad(*y);
    FATHOM_TRY(y0);
    summed = b_.binary(KOp::Mul, *g0, *y0);
  }
  const int32_t sum = reduce(ReduceOp::Sum, summed);
  newPhase(true);
  auto g1 = rowLoad(*g), y1 = rowLoad(*y);
  FATHOM_TRY(g1);
  FATHOM_TRY(y1);
  const int32_t out = log ? b_.binary(KOp::Sub, *g1, b_.binary(KOp::Mul, b_.unary(KOp::Exp, *y1), b_.acc(sum)))
                          : b_.binary(KOp::Mul, *y1, b_.binary(KOp::Sub, *g1, b_.acc(sum)));
  return rowStore(n, out, false);
}

Status KernelLowerer::layerNorm(const Node& n, const ValueList& args) {
  const auto* x = args.size() == 5 ? args[0].tryAs<NodeRef>() : nullptr;
  const auto* shape = x ? args[1].tryAs<ValueList>() : nullptr;
  if (!shape || !args[4].isNumber()) return invalidInput("layer norm without its arguments");
  const TensorMeta& xm = g_.node(*x).val.as<TensorMeta>();
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape->size(); ++i) dims.push_back(xm.dim() - static_cast<int64_t>(shape->size() - i));
  FATHOM_TRY(rowLoops(xm, dims, true));
  const double eps = args[4].toDouble();
  newPhase(true);
  auto x0 = rowLoad(*x);
  FATHOM_TRY(x0);
  const int32_t mean = reduce(ReduceOp::Mean, *x0);
  newPhase(true);
  auto x1 = rowLoad(*x);
  FATHOM_TRY(x1);
  const int32_t centered = b_.binary(KOp::Sub, *x1, b_.acc(mean));
  const int32_t var = reduce(ReduceOp::Mean, b_.binary(KOp::Mul, centered, centered));
  const ScalarKind t = b_.typeOf(*x1);
  auto rstdOf = [&] {
    const int32_t clamped = b_.binary(KOp::Max, b_.acc(var), b_.constant(t, 0));
    return b_.binary(KOp::Div, b_.constant(t, 1), b_.unary(KOp::Sqrt, b_.binary(KOp::Add, clamped, b_.constant(t, eps))));
  };
  newPhase(false);
  if (const Node* m = rowOutput(1)) FATHOM_TRY(rowStore(*m, b_.acc(mean), true));
  if (const Node* r = rowOutput(2)) FATHOM_TRY(rowStore(*r, rstdOf(), true));
  const Node* y = rowOutput(0);
  if (!y) return {};
  newPhase(true);
  auto x3 = rowLoad(*x);
  FATHOM_TRY(x3);
  const int32_t rstd = rstdOf();
  const int32_t shift = b_.binary(KOp::Mul, b_.unary(KOp::Neg, rstd), b_.acc(mean));
  int32_t out = b_.binary(KOp::Add, b_.binary(KOp::Mul, *x3, rstd), shift);
  for (size_t i : {2, 3}) {
    const auto* p = args[i].tryAs<NodeRef>();
    if (!p) continue;
    auto v = rowLoad(*p);
    FATHOM_TRY(v);
    out = b_.binary(i == 2 ? KOp::Mul : KOp::Add, out, *v);
  }
  return rowStore(*y, out, false);
}

Status KernelLowerer::lowerRowLocal() {
  const Node& n = g_.node(fk_.nodes.front());
  const TensorMeta* x = nullptr;
  if (!n.args.empty())
    if (const auto* r = n.args[0].tryAs<NodeRef>()) x = g_.node(*r).val.tryAs<TensorMeta>();
  if (!x || !isFloatKind(scalarKindOf(x->dtype).value_or(ScalarKind::Bool))) return invalidInput("a row-local op on a non-float tensor");
  auto bound = bindArguments(n.op->schema, n.args, n.kwargs);
  FATHOM_TRY(bound);
  Status lowered;
  if (n.target == "aten._softmax.default" || n.target == "aten._log_softmax.default")
    lowered = softmax(n, *bound, n.target == "aten._log_softmax.default");
  else if (n.target == "aten._softmax_backward_data.default" || n.target == "aten._log_softmax_backward_data.default")
    lowered = softmaxBackward(n, *bound, n.target == "aten._log_softmax_backward_data.default");
  else if (n.target == "aten.native_layer_norm.default")
    lowered = layerNorm(n, *bound);
  else
    return invalidInput("no kernel formula for the row-local " + n.target);
  if (!lowered.ok()) return invalidInput("%" + n.name + ": " + lowered.error().message);
  // The composite's own result read directly (not through a getitem) must be stored too.
  for (NodeRef r : fk_.outputs)
    if (g_.node(r).target != "getitem" && r.index != fk_.nodes.front().index) return invalidInput("%" + g_.node(r).name + " is read elsewhere");
  return {};
}

}  // namespace fathom::lowering
