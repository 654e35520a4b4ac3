#include "engine/compile/KernelLowering.h"

#include "engine/compile/KernelLowerer.h"

namespace fathom {
namespace lowering {

Result<LoweredKernel> KernelLowerer::run() {
  if (fk_.kind == KernelKind::Extern) return invalidInput("extern kernels run on the eager kernels");
  b_.kernel.name = fk_.name;
  for (NodeRef r : fk_.nodes) b_.kernel.nodes.push_back(g_.node(r).name);
  if (fk_.kind == KernelKind::RowLocal) {
    FATHOM_TRY(lowerRowLocal());
    collapseLoops();
    return std::move(b_.kernel);
  }
  FATHOM_TRY(setUpLoops());
  for (NodeRef r : fk_.nodes) FATHOM_TRY(lowerNode(r));
  for (NodeRef r : fk_.outputs) FATHOM_TRY(storeOutput(r));
  collapseLoops();
  return std::move(b_.kernel);
}

SymInt KernelLowerer::symOf(const KernelInt& k) const {
  return k.isConstant() ? SymInt(k.constant) : b_.kernel.params[static_cast<size_t>(k.param)];
}

bool KernelLowerer::mergeable(size_t d) const {
  const LoweredKernel& k = b_.kernel;
  const size_t outer = k.loop.size() - static_cast<size_t>(k.reduceDims);
  if (d + 1 == outer) return false;
  const SymInt next = symOf(k.loop[d + 1]);
  for (const auto& buf : k.buffers) {
    if (!buf.shape.empty()) continue;
    const SymInt a = symOf(buf.strides[d]), b = symOf(buf.strides[d + 1]);
    if (a.identical(SymInt(0)) && b.identical(SymInt(0))) continue;
    if (!a.identical(b * next)) return false;
  }
  return true;
}

void KernelLowerer::collapseLoops() {
  LoweredKernel& k = b_.kernel;
  for (size_t d = k.loop.size(); d-- > 1;) {
    if (!mergeable(d - 1)) continue;
    const KernelInt merged = b_.intOf(symOf(k.loop[d - 1]) * symOf(k.loop[d]));
    k.loop[d - 1] = merged;
    k.loop.erase(k.loop.begin() + static_cast<std::ptrdiff_t>(d));
    if (d >= k.loop.size() + 1 - static_cast<size_t>(k.reduceDims)) --k.reduceDims;
    for (auto& buf : k.buffers)
      if (buf.shape.empty()) buf.strides.erase(buf.strides.begin() + static_cast<std::ptrdiff_t>(d - 1));
  }
}

Status KernelLowerer::setUpLoops() {
  if (fk_.kind == KernelKind::Pointwise) {
    loopSizes_ = fk_.sizes;
  } else {
    const Node& r = g_.node(fk_.nodes.back());
    if (!isReduction(r.target)) return invalidInput("no kernel formula for the reduction " + r.target);
    const auto* in = r.args.empty() ? nullptr : r.args[0].tryAs<NodeRef>();
    const TensorMeta* x = in ? resultMeta(g_.node(*in)) : nullptr;
    if (!x) return invalidInput("a reduction without a recorded input");
    reducedInput_ = x->sizes;
    FATHOM_TRY(reducedDims(r, x->dim()));
    for (int64_t d = 0; d < x->dim(); ++d)
      if (!reduced_[static_cast<size_t>(d)]) perm_.push_back(d);
    for (int64_t d = 0; d < x->dim(); ++d)
      if (reduced_[static_cast<size_t>(d)]) perm_.push_back(d);
    for (int64_t d : perm_) loopSizes_.push_back(x->sizes[static_cast<size_t>(d)]);
    b_.kernel.reduceDims = static_cast<int32_t>(std::count(reduced_.begin(), reduced_.end(), true));
  }
  for (const auto& s : loopSizes_) b_.kernel.loop.push_back(b_.intOf(s));
  return {};
}

int32_t KernelLowerer::newPhase(bool overRow) {
  b_.kernel.phases.push_back({overRow});
  b_.phase = static_cast<int32_t>(b_.kernel.phases.size()) - 1;
  return b_.phase;
}

int32_t KernelLowerer::reduce(ReduceOp op, int32_t value) {
  b_.kernel.reductions.push_back({.op = op, .type = b_.typeOf(value), .value = value, .buffer = -1, .phase = b_.phase});
  return static_cast<int32_t>(b_.kernel.reductions.size()) - 1;
}

Status KernelLowerer::reducedDims(const Node& r, int64_t rank) {
  auto bound = bindArguments(r.op->schema, r.args, r.kwargs);
  FATHOM_TRY(bound);
  reduced_.assign(static_cast<size_t>(rank), false);
  keepdim_ = false;
  const bool hasDims = r.target != "aten.sum.default";
  const ValueList* dims = hasDims ? (*bound)[1].tryAs<ValueList>() : nullptr;
  if (hasDims && bound->size() > 2) keepdim_ = (*bound)[2].is<bool>() && (*bound)[2].as<bool>();
  if (!dims || dims->empty()) {
    reduced_.assign(static_cast<size_t>(rank), true);
    return {};
  }
  for (const Value& v : *dims) {
    if (!v.isInt() || !v.as<SymInt>().maybeConcrete()) return invalidInput("a symbolic reduction dim");
    int64_t d = *v.as<SymInt>().maybeConcrete();
    if (d < 0) d += rank;
    if (d < 0 || d >= rank) return invalidInput("reduction dim out of range");
    reduced_[static_cast<size_t>(d)] = true;
  }
  return {};
}

bool KernelLowerer::rowMajor(const SymIntList& sizes, const std::vector<SymInt>& strides) {
  TensorMeta m;
  m.sizes = sizes;
  m.strides = strides;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (strides[d].identical(SymInt(0)) && !sizes[d].identical(SymInt(1))) return false;  // broadcast
  return isStaticallyContiguous(m);
}

std::string KernelLowerer::bufferKey(const KernelBuffer& b) {
  std::string s;
  for (const auto& k : b.shape) s += std::to_string(k.constant) + ":" + std::to_string(k.param) + ",";
  s += "|";
  for (const auto& k : b.strides) s += std::to_string(k.constant) + ":" + std::to_string(k.param) + ",";
  return s;
}

Result<int32_t> KernelLowerer::valueFor(NodeRef ref, const SymIntList& at) {
  if (auto it = values_.find(ref.index); it != values_.end()) return it->second;
  const Node& n = g_.node(ref);
  const TensorMeta* m = n.val.tryAs<TensorMeta>();
  if (!m) return invalidInput("%" + n.name + " is not a tensor");
  auto buf = addBuffer(n.name, *m, at, false);
  FATHOM_TRY(buf);
  if (auto it = loads_.find(*buf); it != loads_.end()) return it->second;
  const int32_t v = b_.load(*buf, b_.kernel.buffers[static_cast<size_t>(*buf)].type);
  loads_[*buf] = v;
  return v;
}

Status KernelLowerer::lowerNode(NodeRef ref) {
  const Node& n = g_.node(ref);
  const TensorMeta* m = n.val.tryAs<TensorMeta>();
  if (!m) return invalidInput("%" + n.name + " yields no single tensor");
  if (fk_.kind == KernelKind::Reduction && ref.index != fk_.nodes.back().index && !sameSizes(m->sizes, reducedInput_))
    return invalidInput("%" + n.name + " changes sizes before the reduction");
  const FusionRole role = fusionRoleOf(g_, n);
  const auto* in = n.args.empty() ? nullptr : n.args[0].tryAs<NodeRef>();
  if (role == FusionRole::Reshape && in) {
    if (auto it = values_.find(in->index); it != values_.end()) {
      values_[ref.index] = it->second;
      return {};
    }
    // A reshape of a value from outside: read that value through the reshape's own layout
    // (both contiguous, the same offset: the same elements in the same order).
    auto buf = addBuffer(g_.node(*in).name, *m, m->sizes, false);
    FATHOM_TRY(buf);
    values_[ref.index] = b_.load(*buf, b_.kernel.buffers[static_cast<size_t>(*buf)].type);
    return {};
  }
  auto kind = scalarKindOf(m->dtype);
  if (!kind) return invalidInput("%" + n.name + " is " + std::string(dtypeName(m->dtype)));
  if (role == FusionRole::Reduction) return lowerReduction(n, ref, *kind);
  if (role != FusionRole::Pointwise) return invalidInput("%" + n.name + " (" + n.target + ") is not pointwise");
  auto bound = bindArguments(n.op->schema, n.args, n.kwargs);
  FATHOM_TRY(bound);
  std::vector<PointwiseArg> args;
  for (const Value& v : *bound) {
    if (const auto* r = v.tryAs<NodeRef>()) {
      auto value = valueFor(*r, m->sizes);
      FATHOM_TRY(value);
      args.push_back({*value, {}});
    } else {
      args.push_back({-1, v});
    }
  }
  auto v = lowerPointwiseOp(b_, n, args, *kind);
  if (!v.ok()) return invalidInput("%" + n.name + ": " + v.error().message);
  values_[ref.index] = *v;
  return {};
}

Status KernelLowerer::lowerReduction(const Node& n, NodeRef ref, ScalarKind kind) {
  const auto* in = n.args.empty() ? nullptr : n.args[0].tryAs<NodeRef>();
  if (!in) return invalidInput("%" + n.name + " reduces no tensor");
  auto x = valueFor(*in, reducedInput_);
  FATHOM_TRY(x);
  ReduceOp op = ReduceOp::Sum;
  if (n.target == "aten.mean.dim") op = ReduceOp::Mean;
  if (n.target == "aten.amax.default") op = ReduceOp::Max;
  if (n.target == "aten.amin.default") op = ReduceOp::Min;
  if (op == ReduceOp::Mean && !isFloatKind(kind)) return invalidInput("an integer mean");
  reduction_ = KernelReduction{.op = op, .type = kind, .value = b_.cast(*x, kind)};
  reductionNode_ = ref.index;
  return {};
}

Status KernelLowerer::storeOutput(NodeRef ref) {
  const Node& n = g_.node(ref);
  const TensorMeta* m = n.val.tryAs<TensorMeta>();
  auto it = values_.find(ref.index);
  if (ref.index == reductionNode_) {
    auto buf = addBuffer(n.name, *m, reducedInput_, true, true);
    FATHOM_TRY(buf);
    reduction_.buffer = *buf;
    b_.kernel.reductions.push_back(reduction_);
    return {};
  }
  if (!m || it == values_.end()) return invalidInput("%" + n.name + " is not computed in the kernel");
  // A value before the reduction that other kernels read is stored at each point as it is
  // computed (at the reduced input's index), so it is not computed twice.
  auto buf = addBuffer(n.name, *m, m->sizes, true);
  FATHOM_TRY(buf);
  b_.kernel.stores.push_back({b_.cast(it->second, b_.kernel.buffers[static_cast<size_t>(*buf)].type), *buf});
  return {};
}
Result<int32_t> KernelLowerer::addBuffer(const std::string& value, const TensorMeta& layout, const SymIntList& at, bool output,
                                         bool reducedResult) {
  auto kind = scalarKindOf(layout.dtype);
  if (!kind) return invalidInput("%" + value + " is " + std::string(dtypeName(layout.dtype)));
  if (layout.strides.size() != layout.sizes.size()) return invalidInput("%" + value + " has no recorded strides");
  const size_t rank = at.size(), own = layout.sizes.size();
  const bool reducedOutput = reducedResult;
  if (own > rank && !reducedOutput) return invalidInput("%" + value + " has more dims than its reader");
  std::vector<SymInt> strides(rank, SymInt(0));
  for (size_t d = rank - std::min(own, rank); d < rank && !reducedOutput; ++d) {
    const SymInt& size = layout.sizes[d - (rank - own)];
    if (size.identical(at[d])) strides[d] = size.identical(SymInt(1)) ? SymInt(0) : layout.strides[d - (rank - own)];
    else if (!size.identical(SymInt(1))) return invalidInput("%" + value + " broadcasts a symbolic size");
  }
  KernelBuffer buf{.value = value, .type = *kind, .output = output, .shape = {}, .strides = {}};
  if (fk_.kind != KernelKind::Pointwise) {
    if (reducedResult) {  // the reduced result: kept dims only, or all dims with the reduced ones of size 1
      size_t kept = 0;
      for (int64_t d : perm_) {
        const bool r = reduced_[static_cast<size_t>(d)];
        const size_t od = keepdim_ ? static_cast<size_t>(d) : kept;
        buf.strides.push_back(r ? KernelInt::of(0) : b_.intOf(layout.strides[od]));
        kept += r ? 0 : 1;
      }
    } else {
      for (int64_t d : perm_) buf.strides.push_back(b_.intOf(strides[static_cast<size_t>(d)]));
    }
  } else if (atLoopSizes(at)) {
    for (const auto& s : strides) buf.strides.push_back(b_.intOf(s));
  } else if (rowMajor(at, strides)) {
    // Row-major in its own sizes: its index is the loops' linear index, so it reads as the
    // loops' row-major strides (no division; the loops may then collapse and vectorize).
    for (const auto& s : contiguousStrides(loopSizes_)) buf.strides.push_back(b_.intOf(s));
  } else {
    for (const auto& s : at) buf.shape.push_back(b_.intOf(s));
    for (const auto& s : strides) buf.strides.push_back(b_.intOf(s));
  }
  const std::string key = buf.value + (output ? " out " : " in ") + bufferKey(buf);
  if (auto it = bufferIndex_.find(key); it != bufferIndex_.end()) return it->second;
  b_.kernel.buffers.push_back(std::move(buf));
  const auto index = static_cast<int32_t>(b_.kernel.buffers.size()) - 1;
  bufferIndex_[key] = index;
  return index;
}

}  // namespace lowering

Result<LoweredKernel> lowerKernel(const Graph& graph, const FusedKernel& kernel) {
  return lowering::KernelLowerer(graph, kernel).run();
}

}  // namespace fathom
