// The reduction ops beyond ReductionOps.cpp, one registration function per file;
// registerReductionOps (ReductionOps.cpp) calls them all.
#pragma once

namespace fathom {
class OpRegistry;
void registerMaxReductionOps(OpRegistry& registry);   // MaxReductionOps.cpp: amax, amin, max.dim, min.dim, argmax, argmin
void registerFoldReductionOps(OpRegistry& registry);  // FoldReductionOps.cpp: prod, any
void registerSortOps(OpRegistry& registry);          // SortOps.cpp: sort, topk
void registerScanOps(OpRegistry& registry);          // ScanOps.cpp: cumsum
void registerVectorNormOps(OpRegistry& registry);    // VectorNormOps.cpp: linalg_vector_norm
}  // namespace fathom
