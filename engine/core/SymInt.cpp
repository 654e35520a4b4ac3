#include "engine/core/SymInt.h"

#include <algorithm>

#include "engine/core/Error.h"

namespace fathom {

SymInt::SymInt(SymNode node) : value_(node ? node->hint() : 0), node_(std::move(node)) {}

std::string SymInt::str() const { return node_ ? node_->str() : std::to_string(value_); }

bool SymInt::identical(const SymInt& other) const {
  if (!node_ && !other.node_) return value_ == other.value_;
  if (!node_ || !other.node_) return false;
  return node_ == other.node_ || node_->str() == other.node_->str();
}

int64_t checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  FATHOM_CHECK(!__builtin_add_overflow(a, b, &r), "integer overflow: ", a, " + ", b);
  return r;
}

int64_t checkedMul(int64_t a, int64_t b) {
  int64_t r;
  FATHOM_CHECK(!__builtin_mul_overflow(a, b, &r), "integer overflow: ", a, " * ", b);
  return r;
}

int64_t floorDivInt(int64_t a, int64_t b) {
  FATHOM_CHECK(b != 0, "integer division by zero");
  FATHOM_CHECK(!(a == INT64_MIN && b == -1), "integer overflow: ", a, " // ", b);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t modInt(int64_t a, int64_t b) {
  FATHOM_CHECK(b != 0, "integer modulo by zero");
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

SymInt SymInt::combine(SymOp op, const SymInt& a, const SymInt& b) {
  if (a.node_) return a.node_->apply(op, b, /*selfOnLeft=*/true);
  if (b.node_) return b.node_->apply(op, a, /*selfOnLeft=*/false);
  const int64_t x = a.value_, y = b.value_;
  switch (op) {
    case SymOp::Add: return checkedAdd(x, y);
    case SymOp::Sub: {
      int64_t r;
      FATHOM_CHECK(!__builtin_sub_overflow(x, y, &r), "integer overflow: ", x, " - ", y);
      return r;
    }
    case SymOp::Mul: return checkedMul(x, y);
    case SymOp::FloorDiv: return floorDivInt(x, y);
    case SymOp::Mod: return modInt(x, y);
    case SymOp::Max: return std::max(x, y);
    case SymOp::Min: return std::min(x, y);
  }
  return 0;
}

bool compareInts(SymRel rel, int64_t x, int64_t y) {
  switch (rel) {
    case SymRel::Eq: return x == y;
    case SymRel::Ne: return x != y;
    case SymRel::Lt: return x < y;
    case SymRel::Le: return x <= y;
    case SymRel::Gt: return x > y;
    case SymRel::Ge: return x >= y;
  }
  return false;
}

SymRel mirrored(SymRel rel) {
  switch (rel) {
    case SymRel::Lt: return SymRel::Gt;
    case SymRel::Le: return SymRel::Ge;
    case SymRel::Gt: return SymRel::Lt;
    case SymRel::Ge: return SymRel::Le;
    default: return rel;
  }
}

bool symDecide(SymRel rel, const SymInt& a, const SymInt& b, std::string_view reason) {
  if (a.isSymbolic()) return a.node()->decide(rel, b, reason);
  if (b.isSymbolic()) return b.node()->decide(mirrored(rel), a, reason);
  return compareInts(rel, a.hint(), b.hint());
}

}  // namespace fathom
