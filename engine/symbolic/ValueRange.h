// ValueRange: the closed integer interval a symbolic value is known to lie in, with open ends
// (-inf, +inf) - what lets the ShapeEnv settle `s0 == 1` for a size symbol (range [2, inf))
// without a guard, as PyTorch's value ranges do.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/core/SymInt.h"

namespace fathom::sym {

class Expr;

struct ValueRange {
  static constexpr int64_t kNegInf = INT64_MIN;
  static constexpr int64_t kPosInf = INT64_MAX;
  int64_t lo = kNegInf, hi = kPosInf;

  static ValueRange exactly(int64_t v) { return {v, v}; }
  static ValueRange atLeast(int64_t v) { return {v, kPosInf}; }
  bool isExact() const { return lo == hi && lo != kNegInf && lo != kPosInf; }
  // "[2, inf]", "[-inf, 5]", "[3, 3]"
  std::string str() const;
};

// The range of `e` given each symbol's range (interval arithmetic, saturating at infinity).
ValueRange rangeOf(const Expr& e, const std::function<ValueRange(int32_t)>& symbolRange);

// `rel(a, 0)` decided from a's range alone, or nullopt when the range straddles the answer.
std::optional<bool> decideAgainstZero(SymRel rel, const ValueRange& a);

}  // namespace fathom::sym
