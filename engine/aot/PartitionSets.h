// Internal to the partitioners: which nodes of a joint graph the forward outputs need, which
// depend on the tangents, and which the gradients need.
#pragma once

#include <vector>

#include "engine/aot/JointGraph.h"

namespace fathom::aot {

struct JointSets {
  std::vector<char> requiredForward;   // ancestors of the forward outputs (mutations included)
  std::vector<char> fromTangents;      // the tangents and everything computed from them
  std::vector<char> requiredBackward;  // computed from the tangents and needed by a gradient
  std::vector<char> needed;            // needed by any output
  std::vector<NodeRef> gradOutputs;    // the gradient values (NodeRefs) the joint returns
};

JointSets jointSets(const JointGraph& joint);

}  // namespace fathom::aot
