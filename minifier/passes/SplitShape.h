// The split shape, which the passes that keep several needed nodes share (split-at-needed,
// probdd): every computed node of the best is returned, so that cutting one into an input takes
// nothing else with it - its operands are still computed, for being returned themselves. In that
// shape the nodes are independent elements, and a reduction removes a set of them (cut into
// inputs, no longer returned) while the candidate still fails; what stays is the needed nodes,
// each returned, with what lay between them cut away. The strategies differ in which sets they
// try: split-at-needed halves (ddmin), probdd asks where a node is least likely needed (ProbDD).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "minifier/Cut.h"

namespace fathom::minify {

class PassContext;

// `cut` with `nodes` cut into inputs and no longer returned; nullopt when no output would be left.
std::optional<Cut> removeNodes(const Cut& cut, const std::vector<int32_t>& nodes);

// ddmin over `nodes` on `trial`, from chunks of `firstChunk` nodes: chunks that can go, halving
// down to single nodes; the nodes removed leave `nodes`. It ends on a round of single nodes none
// of which can go: 1-minimal in the split shape.
void removeChunks(PassContext& context, Best& trial, std::vector<int32_t>& nodes, size_t firstChunk);

// How a split pass reduces the split shape: removes nodes of `nodes` (every computed node with a
// real value, earliest first) from `trial` while it still fails (not verified: the frame verifies
// the result once), leaving in `nodes` the ones that stay - 1-minimal: it ends on a round of
// single nodes none of which can go.
using SplitReduction = void (*)(PassContext& context, Best& trial, std::vector<int32_t>& nodes);

// A split pass: the returned op nodes alone first (every other computed node cut into an input;
// with one culprit returned, the end in one query, verified as every best); else the split shape
// (asked once: returning every node may change the failure - more outputs, another verdict - and
// then nothing more is asked), `reduce` over it, and its result taken when it holds fewer op
// nodes than the best (verified fresh). Whether the best changed.
bool runSplitPass(PassContext& context, SplitReduction reduce);

}  // namespace fathom::minify
