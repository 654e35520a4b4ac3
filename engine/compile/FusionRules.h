// The per-node facts the fusion planner (FusionPlan.cpp) decides with: what part a node can play
// in a kernel, whether nothing may move across it, and when two nodes read each other at the same
// index. They come from the op tags (OpTags.h) and the recorded meta, never from lists of op
// names - except the row-local composites, which the tags do not tell from other composites.
//
// Sizes are compared structurally (SymInt::identical: the same integer or the same canonical
// expression), which is what is known without deciding: the plan records no guard, and two
// symbolic sizes that only happen to share a hint never fuse.
#pragma once

#include <string_view>

#include "engine/graph/Graph.h"

namespace fathom {

enum class FusionRole {
  Pointwise,  // tagged Pointwise, not random, one tensor result: joins a producer's kernel
  Reduction,  // tagged Reduction: joins the kernel of its input, then ends it
  RowLocal,   // softmax, log-softmax, layer norm and their backwards: a kernel of its own
  Reshape,    // view/reshape/squeeze/unsqueeze of contiguous data into contiguous data:
              // the same linear index on both sides, so it may sit inside a pointwise kernel
  Getitem,    // picks an element of a multi-output node: goes where that node goes
  Extern,     // everything else stays a call to the eager kernel
};

FusionRole fusionRoleOf(const Graph& graph, const Node& node);

// In-place writes, random draws (their order is the RNG stream's), hooks and opaque ops: the
// planner closes every open kernel at such a node, so no node moves across it.
bool isFusionBarrier(const Node& node);

// The tensor a node yields (the first of a multi-output node's); null when it yields none.
const TensorMeta* resultMeta(const Node& node);

// Same rank and every size identical (see above).
bool sameSizes(const SymIntList& a, const SymIntList& b);

// Row-major strides and offset known without a decision (size-1 dims may have any stride).
bool isStaticallyContiguous(const TensorMeta& meta);

}  // namespace fathom
