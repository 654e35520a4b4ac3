// RepeatedBlocks: finds repeated structure (transformer blocks, ResNet stages) in a graph that
// has no module paths, from its op sequence in graph order. Near-linear.
//
// Method:
//   1. Ops become small integers; a rolling hash over every window of `window` consecutive ops.
//   2. For every window hash seen more than once, the gaps between consecutive occurrences are
//      counted; the most frequent gaps (>= minBlock) are the candidate periods. (A block of d ops
//      repeated r times contributes about d * (r - 1) to gap d; sub-patterns inside a block give
//      smaller counts or shorter runs.)
//   3. Each candidate period d is verified on the sequence itself: the longest run where
//      op[i] == op[i + d] gives floor(run / d) + 1 equal consecutive blocks. The candidate
//      covering the most nodes wins (ties: the longer period, i.e. whole layers rather than
//      their halves).
//   4. Phase: the block boundaries are shifted (within one period) to where the fewest graph
//      edges cross them - between layers only the residual stream crosses, mid-layer more.
//   5. The caller groups the blocks and searches the rest (before and after) again, so the
//      backward half of a joint graph, with its own period, is found too.
#pragma once

#include <cstdint>
#include <vector>

namespace fathom::viz {

struct RepeatRun {
  int32_t begin = 0;   // position of the first block's first element
  int32_t period = 0;  // block length
  int32_t count = 0;   // blocks; begin + period * count <= sequence length
};

struct RepeatOptions {
  int32_t minBlock = 8;     // shortest block worth a group
  int32_t minCount = 2;     // fewest repeats
  int32_t window = 12;      // hash window (clamped to minBlock)
  int32_t candidates = 8;   // periods verified
};

// The best run of repeated blocks in `ops` (op ids in graph order), or count == 0 when none.
// `inputs[i]` are the positions (in the same sequence, < i) that element i reads; positions
// outside the sequence must be left out. Used to place block boundaries (step 4); may be empty.
RepeatRun findRepeatRun(const std::vector<int32_t>& ops, const std::vector<std::vector<int32_t>>& inputs,
                        const RepeatOptions& options = {});

}  // namespace fathom::viz
