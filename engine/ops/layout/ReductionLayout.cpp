// Reduction output layouts (see ReductionLayout.h).
#include "engine/ops/layout/ReductionLayout.h"

#include <algorithm>

#include "engine/core/Error.h"

namespace fathom {

std::vector<bool> reducedDims(const std::optional<IntList>& dims, int64_t ndim) {
  std::vector<bool> mask(static_cast<size_t>(ndim), !dims || dims->empty());
  if (!dims) return mask;
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(ndim, 1)), false);
  for (int64_t d : *dims) {
    const int64_t w = wrapDim(d, ndim);
    FATHOM_CHECK(!seen[w], "dim ", w, " appears multiple times in the list of dims");
    seen[w] = true;
    if (w < ndim) mask[w] = true;
  }
  return mask;
}

ReductionLayout reductionLayout(const TensorMeta& self, const std::optional<IntList>& dims, bool keepdim,
                                DType outDtype) {
  ReductionLayout r;
  r.reduced = reducedDims(dims, self.dim());
  SymIntList sizes;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!r.reduced[d]) {
      sizes.push_back(self.sizes[d]);
    } else {
      r.count = r.count * self.sizes[d];
      if (keepdim) sizes.push_back(SymInt(1));
    }
  }
  r.output.dtype = outDtype;
  r.output.device = self.device;
  r.output.strides = contiguousStrides(sizes);
  r.output.sizes = std::move(sizes);
  return r;
}

void checkReducibleDim(const TensorMeta& self, int64_t dim, const char* fn) {
  if (self.dim() == 0) {
    if (dim != 0 && dim != -1)
      throw OpError(detail::concat(fn, ": Expected reduction dim -1 or 0 for scalar but got ", dim));
    return;
  }
  const int64_t w = wrapDim(dim, self.dim());
  FATHOM_CHECK(!symEq(self.sizes[w], 0, "reduction: is the reduced dim empty"), fn, ": Expected reduction dim ",
               dim, " to have non-zero size.");
}

void checkReducibleDims(const TensorMeta& self, const IntList& dims, const char* fn) {
  FATHOM_CHECK(!dims.empty(), fn,
               ": Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
               "the 'dim' argument.");
  for (int64_t d : dims) checkReducibleDim(self, d, fn);
}

}  // namespace fathom
