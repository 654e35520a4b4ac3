// The reduction ops beyond ReductionOps.cpp, one registration function per file;
// registerReductionOps (ReductionOps.cpp) calls them all.
#pragma once

namespace fathom {
class OpRegistry;
void registerMaxReductionOps(OpRegistry& registry);  // MaxReductionOps.cpp: amax, max.dim, argmax
void registerScanOps(OpRegistry& registry);          // ScanOps.cpp: cumsum
}  // namespace fathom
