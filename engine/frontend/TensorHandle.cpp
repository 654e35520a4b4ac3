#include "engine/frontend/TensorHandle.h"

#include <optional>

#include "engine/frontend/OpCall.h"
#include "engine/frontend/TraceContext.h"

namespace fathom::frontend {

SymValue SymValue::fromTensor(SymInt value, NodeRef tensor, int64_t dim, std::source_location loc) {
  SymValue s(std::move(value), NodeRef{}, loc);
  s.tensor_ = tensor;
  s.dim_ = dim;
  return s;
}

namespace {

// Concrete operands compute directly (a symbolic operand without a trace cannot happen: symbolic
// sizes only exist inside one).
SymValue arithmetic(std::string_view op, SymOp symOp, const SymValue& a, const SymValue& b) {
  if (!a.isSymbolic() && !b.isSymbolic()) {
    try {
      return SymValue(SymInt::combine(symOp, a.sym(), b.sym()), NodeRef{}, a.location());
    } catch (const OpError& e) {
      fail(e.what(), a.location());
    }
  }
  TraceContext* ctx = TraceContext::current();
  if (!ctx) fail("symbolic size arithmetic outside a trace", a.location());
  return ctx->symBinary(op, a, b);
}

}  // namespace

SymValue operator+(const SymValue& a, const SymValue& b) { return arithmetic("operator.add", SymOp::Add, a, b); }
SymValue operator-(const SymValue& a, const SymValue& b) { return arithmetic("operator.sub", SymOp::Sub, a, b); }
SymValue operator*(const SymValue& a, const SymValue& b) { return arithmetic("operator.mul", SymOp::Mul, a, b); }
SymValue floorDiv(const SymValue& a, const SymValue& b) {
  return arithmetic("operator.floordiv", SymOp::FloorDiv, a, b);
}

SymValue product(const SymValues& sizes) {
  std::optional<SymValue> p;
  for (const auto& s : sizes) {
    if (!s.isSymbolic() && s.hint() == 1) continue;
    p = p ? *p * s : s;
  }
  return p ? *p : SymValue(1);
}

Tensor Tensor::eager(fathom::Tensor real) {
  Tensor t;
  t.real_ = std::move(real);
  return t;
}

Tensor Tensor::traced(TraceContext* context, NodeRef node) {
  Tensor t;
  t.context_ = context;
  t.node_ = node;
  return t;
}

TensorMeta Tensor::meta() const {
  if (!context_) return real_.meta();
  const Value& v = context_->builder().valueOf(node_);
  if (auto* m = v.tryAs<TensorMeta>()) return *m;
  return TensorMeta{};
}

DType Tensor::dtype() const { return context_ ? meta().dtype : real_.dtype(); }

int64_t Tensor::dim() const { return context_ ? meta().dim() : real_.dim(); }

bool Tensor::isContiguous() const { return context_ ? fathom::isContiguous(meta()) : real_.isContiguous(); }

SymValue Tensor::size(int64_t d, std::source_location loc) const {
  if (!defined()) fail("size() of an undefined tensor", loc);
  if (!context_) {
    const int64_t rank = real_.dim();
    if (d < -rank || d >= rank)
      fail("Dimension out of range (expected to be in range of [" + std::to_string(-rank) + ", " +
               std::to_string(rank - 1) + "], but got " + std::to_string(d) + ")",
           loc);
    return SymValue(real_.size(d < 0 ? d + rank : d));
  }
  const TensorMeta m = meta();
  if (d < -m.dim() || d >= m.dim())
    fail("Dimension out of range (expected to be in range of [" + std::to_string(-m.dim()) + ", " +
             std::to_string(m.dim() - 1) + "], but got " + std::to_string(d) + ")",
         loc);
  const int64_t dim = d < 0 ? d + m.dim() : d;
  const SymInt& s = m.sizes[static_cast<size_t>(dim)];
  if (!s.isSymbolic()) return SymValue(s.hint());
  return SymValue::fromTensor(s, node_, dim, loc);
}

SymValues Tensor::sizes(std::source_location loc) const {
  SymValues out;
  for (int64_t d = 0; d < dim(); ++d) out.push_back(size(d, loc));
  return out;
}

}  // namespace fathom::frontend
