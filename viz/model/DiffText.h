// DiffText: the words the diff view uses for one difference. The engine (GraphDiff) says which
// parts of a matched pair changed, coarsely ("args: (%relu, 2.0) -> (%relu, 3.0)", a whole meta
// value); these name the part precisely, so the list of differences reads at a glance:
//   op aten.add.Tensor -> aten.sub.Tensor     other: 2.0 -> 3.0     alpha added: 2
//   meta f32[8, 16] -> f32[8, 32]             stride [16, 1] -> [1, 8]     offset 0 -> 4
//   guard added: Eq(s0, s2)                   stage forward -> backward
// A change the details cannot account for is kept as the engine wrote it.
#pragma once

#include <string>
#include <vector>

#include "viz/model/GraphModel.h"

namespace fathom::viz {

// The changes of left node `l` matched to right node `r`, given the engine's change lines for
// the pair and the right-to-left correspondence (arguments are compared with right inputs named
// by their left match, an unmatched one as "%name'", as the engine does).
std::vector<std::string> describeChanges(const GraphModel& left, int32_t l, const GraphModel& right, int32_t r,
                                         const std::vector<int32_t>& rightToLeft, const std::vector<std::string>& engineChanges);

// Recorded meta of two values, part by part: sizes and dtype ("meta ..."), and only when those
// agree the strides; storage offset, device and requires_grad whenever they differ.
std::vector<std::string> metaChanges(const Value& a, const Value& b);

// A node without a counterpart, in a few words: "aten.mm.default -> f32[8, 32]", "placeholder f32[4, 8]".
std::string describeNode(const GraphModel& model, int32_t node);

}  // namespace fathom::viz
