// Helpers for the frontend and model tests: a hint-answering symbolic size (no ShapeEnv needed)
// and a tensor comparison with a relative tolerance.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "engine/ops/Value.h"
#include "tests/engine/HintSymbol.h"

namespace fathom::testing {

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
