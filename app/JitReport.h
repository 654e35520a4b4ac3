// What `fathom run --backend jit|aot_jit` reports about the compiling backend: the compile
// statistics (kernels generated, compiled now or from the caches, times) and each output against
// the eager interpreter's (layout exactly, values within tolerance).
#pragma once

#include <vector>

#include "app/CliCommon.h"
#include "engine/jit/JitBackend.h"

namespace fathom::cli {

struct JitComparison {
  size_t index = 0;
  bool layoutMatch = true;  // dtype, sizes, strides, offset
  double maxAbsDiff = 0, scale = 0;
  bool ok = true;
};

std::vector<JitComparison> compareWithEager(const ValueList& jit, const ValueList& eager, double rtol, double atol);
Json jitRunJson(const JitRun& run);
Json comparisonsJson(const std::vector<JitComparison>& comparisons);
void printJitText(const JitRun& run, const std::vector<JitComparison>& comparisons);

}  // namespace fathom::cli
