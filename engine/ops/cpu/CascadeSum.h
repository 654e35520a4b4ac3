// The order ATen 1.13's CPU sum adds a reduction's elements in (SumKernel.cpp, cascade_sum), for
// sums over the last dim of a 2-d operand. It is not one running sum: multi_row_sum adds chunks
// of 16 (longer rows: 2^(ceil(log2 n) / 4)) into the first of four levels, moving each level up
// when the count says so; row_sum keeps four such sums of every fourth element; and the
// vectorized paths keep one row_sum per SIMD lane (8 floats or 4 doubles with AVX2, the build
// the oracle records) and add the lanes at the end. Which path a row takes depends on the layout
// of the squares being summed (see lastDimSums). Equal results to the bit matter where a sum
// feeds a cancellation, as the norms of cdist's matmul form do.
#pragma once

#include <cstdint>

namespace fathom {

// Sums over the last dim of a [rows, n] operand of Acc values (float, or double), ATen's way:
// `transposed` false when element [r, k] is at x[r * n + k] (contiguous), true when it is at
// x[k * rows + r] (the layout of a transposed input's squares). Writes out[r] for each row.
template <class Acc>
void lastDimSums(const Acc* x, int64_t rows, int64_t n, bool transposed, Acc* out);

}  // namespace fathom
