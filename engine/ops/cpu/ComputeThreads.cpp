#include "engine/ops/cpu/ComputeThreads.h"

#include <cblas.h>

#include <algorithm>

#include "engine/core/Parallel.h"

namespace fathom {

void setComputeThreads(int n) {
  n = std::max(n, 1);
  setNumThreads(n);
  openblas_set_num_threads(n);
}

}  // namespace fathom
