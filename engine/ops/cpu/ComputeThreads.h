// The threads one process computes with: parallelFor's pool and OpenBLAS's own (process-wide)
// count together. The minifier's workers call it after fork, so N workers on N cores do not
// each start a core's worth of threads and fight over them.
#pragma once

namespace fathom {

void setComputeThreads(int n);

}  // namespace fathom
