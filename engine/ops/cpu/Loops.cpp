// Loop planning for strided kernels (see Loops.h).
#include "engine/ops/cpu/Loops.h"

#include <cstdlib>

namespace fathom {

namespace {
// Row-major order reversed (innermost first), then stably sorted by the key operand's stride.
std::vector<size_t> innermostFirstOrder(const IntList& shape, const IntList& keyStrides) {
  std::vector<size_t> order;
  for (size_t d = shape.size(); d-- > 0;) order.push_back(d);
  for (size_t i = 1; i < order.size(); ++i) {
    for (size_t j = i; j > 0; --j) {
      const int64_t a = std::llabs(keyStrides[order[j - 1]]), b = std::llabs(keyStrides[order[j]]);
      if (a <= b) break;
      std::swap(order[j - 1], order[j]);
    }
  }
  return order;
}
}  // namespace

LoopPlan planLoop(const IntList& shape, std::vector<IntList> byteStrides, size_t keyOperand) {
  LoopPlan plan;
  plan.strides.resize(byteStrides.size());
  for (int64_t s : shape) plan.empty |= s == 0;
  if (plan.empty) return plan;
  for (size_t d : innermostFirstOrder(shape, byteStrides[keyOperand])) {
    if (shape[d] == 1) continue;  // contributes nothing to addressing
    const size_t last = plan.shape.size();
    bool merge = last > 0;
    for (size_t k = 0; merge && k < byteStrides.size(); ++k)
      merge = plan.strides[k][last - 1] * plan.shape[last - 1] == byteStrides[k][d];
    if (merge) {
      plan.shape[last - 1] *= shape[d];
      continue;
    }
    plan.shape.push_back(shape[d]);
    for (size_t k = 0; k < byteStrides.size(); ++k) plan.strides[k].push_back(byteStrides[k][d]);
  }
  return plan;
}

int64_t LoopPlan::numel() const {
  if (empty) return 0;
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

IntList broadcastByteStrides(const Tensor& t, const IntList& shape) {
  const int64_t es = static_cast<int64_t>(elementSize(t.dtype()));
  const int64_t lead = static_cast<int64_t>(shape.size()) - t.dim();
  IntList out(shape.size(), 0);
  for (int64_t d = 0; d < t.dim(); ++d)
    out[lead + d] = (t.size(d) == 1 && shape[lead + d] != 1) ? 0 : t.stride(d) * es;
  return out;
}

}  // namespace fathom
