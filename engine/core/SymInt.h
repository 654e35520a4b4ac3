// SymInt: a size, stride or offset that is either a plain integer or a symbolic expression.
//
// Meta functions are written against SymInt, never int64_t, so the same code computes output
// metadata for real tensors (concrete sizes) and for fake tensors traced with symbolic sizes.
// The symbolic part is an interface (SymNodeImpl) that the shape environment implements; a
// concrete SymInt never touches it and costs one int64.
//
// Comparisons are *decisions*: symEq(a, b, reason) on symbolic values is answered with the
// hints and recorded as a guard by the node's shape environment, together with the reason.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace fathom {

class SymInt;
class SymNodeImpl;
using SymNode = std::shared_ptr<const SymNodeImpl>;

enum class SymRel { Eq, Ne, Lt, Le, Gt, Ge };
enum class SymOp { Add, Sub, Mul, FloorDiv, Mod, Max, Min };

// A symbolic integer expression. Implemented by the shape environment.
class SymNodeImpl {
 public:
  virtual ~SymNodeImpl() = default;
  virtual int64_t hint() const = 0;           // the example value it was created from
  virtual std::string str() const = 0;        // PyTorch syntax: "s0*s1", "(s0//2)"
  virtual SymInt apply(SymOp op, const SymInt& other, bool selfOnLeft) const = 0;
  // Decides `self REL other` with the hints, recording a guard when ranges do not decide it.
  virtual bool decide(SymRel rel, const SymInt& other, std::string_view reason) const = 0;
};

class SymInt {
 public:
  SymInt(int64_t v = 0) : value_(v) {}  // NOLINT: implicit, sizes are usually plain ints
  explicit SymInt(SymNode node);

  bool isSymbolic() const { return node_ != nullptr; }
  // The concrete value, or the hint of a symbolic one.
  int64_t hint() const { return value_; }
  std::optional<int64_t> maybeConcrete() const {
    return node_ ? std::nullopt : std::optional<int64_t>(value_);
  }
  const SymNode& node() const { return node_; }
  std::string str() const;

  friend SymInt operator+(const SymInt& a, const SymInt& b) { return combine(SymOp::Add, a, b); }
  friend SymInt operator-(const SymInt& a, const SymInt& b) { return combine(SymOp::Sub, a, b); }
  friend SymInt operator*(const SymInt& a, const SymInt& b) { return combine(SymOp::Mul, a, b); }
  SymInt& operator+=(const SymInt& b) { return *this = *this + b; }
  SymInt& operator*=(const SymInt& b) { return *this = *this * b; }
  friend SymInt floorDiv(const SymInt& a, const SymInt& b) { return combine(SymOp::FloorDiv, a, b); }
  friend SymInt mod(const SymInt& a, const SymInt& b) { return combine(SymOp::Mod, a, b); }
  friend SymInt symMax(const SymInt& a, const SymInt& b) { return combine(SymOp::Max, a, b); }
  friend SymInt symMin(const SymInt& a, const SymInt& b) { return combine(SymOp::Min, a, b); }

  // Structural identity: same concrete value, or the same expression text. Not a decision.
  bool identical(const SymInt& other) const;

  static SymInt combine(SymOp op, const SymInt& a, const SymInt& b);

 private:
  int64_t value_ = 0;
  SymNode node_;
};

// Decisions on sizes. Concrete operands compare directly; symbolic ones ask their node, which
// may record a guard with `reason` ("broadcast of dim 0").
bool symDecide(SymRel rel, const SymInt& a, const SymInt& b, std::string_view reason);
inline bool symEq(const SymInt& a, const SymInt& b, std::string_view reason) {
  return symDecide(SymRel::Eq, a, b, reason);
}
inline bool symLt(const SymInt& a, const SymInt& b, std::string_view reason) {
  return symDecide(SymRel::Lt, a, b, reason);
}
inline bool symGe(const SymInt& a, const SymInt& b, std::string_view reason) {
  return symDecide(SymRel::Ge, a, b, reason);
}

// `x REL y` on plain integers; the relation with its operands swapped (Lt <-> Gt, ...).
bool compareInts(SymRel rel, int64_t x, int64_t y);
SymRel mirrored(SymRel rel);

// Plain-integer arithmetic with overflow checks; throw OpError on overflow / division by zero.
int64_t checkedAdd(int64_t a, int64_t b);
int64_t checkedMul(int64_t a, int64_t b);
int64_t floorDivInt(int64_t a, int64_t b);
int64_t modInt(int64_t a, int64_t b);

}  // namespace fathom
