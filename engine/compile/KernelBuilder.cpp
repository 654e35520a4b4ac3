#include "engine/compile/KernelBuilder.h"

namespace fathom {

namespace {
bool isComparison(KOp op) {
  return op == KOp::Lt || op == KOp::Le || op == KOp::Gt || op == KOp::Ge || op == KOp::Eq || op == KOp::Ne;
}
}  // namespace

void KernelBuilder::push(KernelInstr in) {
  in.phase = phase;
  kernel.body.push_back(in);
}

int32_t KernelBuilder::load(int32_t buffer, ScalarKind type) {
  push({.op = KOp::Load, .type = type, .buffer = buffer});
  return static_cast<int32_t>(kernel.body.size()) - 1;
}

int32_t KernelBuilder::acc(int32_t reduction) {
  const KernelReduction& r = kernel.reductions.at(static_cast<size_t>(reduction));
  push({.op = KOp::Acc, .type = r.type, .iconst = reduction});
  return static_cast<int32_t>(kernel.body.size()) - 1;
}

int32_t KernelBuilder::constant(ScalarKind type, double value) {
  KernelInstr in{.op = KOp::Const, .type = type};
  // The constant as the element type holds it: float(0.1) for f32, as ATen converts a scalar
  // to the op's compute type before the loop.
  if (type == ScalarKind::F32) in.fconst = static_cast<double>(static_cast<float>(value));
  else if (type == ScalarKind::F64) in.fconst = value;
  else if (type == ScalarKind::Bool) in.iconst = value != 0;
  else in.iconst = static_cast<int64_t>(value);
  push(in);
  return static_cast<int32_t>(kernel.body.size()) - 1;
}

int32_t KernelBuilder::cast(int32_t v, ScalarKind to) {
  if (typeOf(v) == to) return v;
  push({.op = KOp::Cast, .type = to, .a = v});
  return static_cast<int32_t>(kernel.body.size()) - 1;
}

int32_t KernelBuilder::unary(KOp op, int32_t a) {
  push({.op = op, .type = typeOf(a), .a = a});
  return static_cast<int32_t>(kernel.body.size()) - 1;
}

int32_t KernelBuilder::binary(KOp op, int32_t a, int32_t b) {
  push({.op = op, .type = isComparison(op) ? ScalarKind::Bool : typeOf(a), .a = a, .b = b});
  return static_cast<int32_t>(kernel.body.size()) - 1;
}

int32_t KernelBuilder::select(int32_t cond, int32_t a, int32_t b) {
  push({.op = KOp::Select, .type = typeOf(a), .a = cond, .b = a, .c = b});
  return static_cast<int32_t>(kernel.body.size()) - 1;
}

KernelInt KernelBuilder::intOf(const SymInt& s) {
  if (auto c = s.maybeConcrete()) return KernelInt::of(*c);
  for (size_t i = 0; i < kernel.params.size(); ++i)
    if (kernel.params[i].identical(s)) return KernelInt::slot(static_cast<int32_t>(i));
  kernel.params.push_back(s);
  return KernelInt::slot(static_cast<int32_t>(kernel.params.size()) - 1);
}

}  // namespace fathom
