// Wrapped numbers for elementwise kernels (see ElementwiseKernel.h).
#include "engine/ops/cpu/ElementwiseKernel.h"

namespace fathom {

Tensor wrappedNumberTensor(const ScalarArg& s) {
  Tensor t = allocateTensor(wrappedNumberMeta(s.dtype));
  switch (s.dtype) {
    case DType::Bool: *t.dataAs<bool>() = s.integer != 0; break;
    case DType::Int64: *t.dataAs<int64_t>() = s.integer; break;  // exact, not through double
    default: *t.dataAs<double>() = s.real; break;
  }
  return t;
}

}  // namespace fathom
