// Helpers for the frontend and model tests: a hint-answering symbolic size (no ShapeEnv needed)
// and a tensor comparison with a relative tolerance.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "engine/ops/Value.h"

namespace fathom::testing {

// A symbol that answers every decision with its hint and prints expressions over it.
class HintSymbol : public SymNodeImpl {
 public:
  HintSymbol(std::string text, int64_t hint) : text_(std::move(text)), hint_(hint) {}
  int64_t hint() const override { return hint_; }
  std::string str() const override { return text_; }
  SymInt apply(SymOp op, const SymInt& other, bool selfOnLeft) const override {
    const int64_t a = selfOnLeft ? hint_ : other.hint(), b = selfOnLeft ? other.hint() : hint_;
    const std::string l = selfOnLeft ? text_ : other.str(), r = selfOnLeft ? other.str() : text_;
    int64_t v = 0;
    const char* name = "?";
    switch (op) {
      case SymOp::Add: v = a + b, name = "+"; break;
      case SymOp::Sub: v = a - b, name = "-"; break;
      case SymOp::Mul: v = a * b, name = "*"; break;
      case SymOp::FloorDiv: v = b ? a / b : 0, name = "//"; break;
      case SymOp::Mod: v = b ? a % b : 0, name = "%"; break;
      case SymOp::Max: v = std::max(a, b), name = "max"; break;
      case SymOp::Min: v = std::min(a, b), name = "min"; break;
    }
    return SymInt(std::make_shared<HintSymbol>("(" + l + name + r + ")", v));
  }
  bool decide(SymRel rel, const SymInt& other, std::string_view) const override {
    return compareInts(rel, hint_, other.hint());
  }

 private:
  std::string text_;
  int64_t hint_;
};

inline SymInt hintSymbol(const std::string& name, int64_t hint) {
  return SymInt(std::make_shared<HintSymbol>(name, hint));
}

// Same dtype, sizes and strides, and values within `rel` relative (plus a tiny absolute slack
// for values near zero).
inline ::testing::AssertionResult sameTensor(const Tensor& a, const Tensor& b, double rel = 1e-5) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes() || a.strides() != b.strides())
    return ::testing::AssertionFailure() << "layouts differ: " << a.meta().str() << " vs " << b.meta().str();
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.atLinear(i), y = b.atLinear(i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (std::abs(x - y) > rel * std::max(std::abs(x), std::abs(y)) + 1e-30)
      return ::testing::AssertionFailure() << "element " << i << ": " << x << " vs " << y;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace fathom::testing
