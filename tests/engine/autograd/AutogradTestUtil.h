// Helpers for the autograd tests: eager tensors from values, and reading them back.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "engine/autograd/Autograd.h"
#include "engine/frontend/Functional.h"

namespace fathom::testing {

// A contiguous eager tensor with `values` (row-major), float64 unless told otherwise.
inline frontend::Tensor eagerTensor(const IntList& sizes, const std::vector<double>& values,
                                    DType dtype = DType::Float64) {
  auto t = Tensor::empty(sizes, dtype);
  EXPECT_TRUE(t.ok());
  for (size_t i = 0; i < values.size(); ++i) t->setLinear(static_cast<int64_t>(i), values[i]);
  return frontend::Tensor::eager(*t);
}

inline std::vector<double> valuesOf(const frontend::Tensor& t) {
  std::vector<double> out;
  if (!t.defined()) return out;
  for (int64_t i = 0; i < t.real().numel(); ++i) out.push_back(t.real().atLinear(i));
  return out;
}

}  // namespace fathom::testing
