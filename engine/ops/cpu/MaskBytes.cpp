// Masks as PyTorch 1.13's masked kernels read them (see MaskBytes.h).
#include "engine/ops/cpu/MaskBytes.h"

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/layout/MemoryLayout.h"

namespace fathom {

Tensor maskBytes(const Tensor& mask) {
  Tensor out = allocateTensor(freshLike(mask.meta(), DType::Bool, contiguousStrides(mask.meta().sizes)));
  const auto* bytes = static_cast<const uint8_t*>(mask.data());
  const int64_t width = static_cast<int64_t>(elementSize(mask.dtype())), nd = mask.dim();
  IntList pos(static_cast<size_t>(nd), 0);
  for (int64_t i = 0; i < mask.numel(); ++i) {
    int64_t at = 0;
    for (int64_t d = 0; d < nd; ++d) at += pos[d] * mask.stride(d);
    const uint8_t b = bytes[at * width];
    FATHOM_CHECK(b <= 1, "Mask tensor can take 0 and 1 values only");
    out.dataAs<bool>()[i] = b == 1;
    for (int64_t d = nd - 1; d >= 0 && ++pos[d] == mask.size(d); --d) pos[d] = 0;
  }
  return out;
}

}  // namespace fathom
