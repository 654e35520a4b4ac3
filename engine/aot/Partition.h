// Partitioners: split a joint graph into a forward graph (run now, returns what the backward
// needs) and a backward graph (run later on the saved values and the tangents).
//
//   default  saves every forward value the backward reads (AOTAutograd's default_partition); a
//            tensor the backward only asks the sizes of is not saved - its sizes are, as SymInts
//   min-cut  chooses what to save by a minimum cut of the joint graph (max-flow, Boost.Graph),
//            weighting each value by its bytes under the hints: cheap ops (pointwise, views,
//            size arithmetic) are recomputed in the backward when that saves memory; matmuls,
//            convolutions, normalizations and random ops never are
//            (min_cut_rematerialization_partition)
//
// Both keep symbolic sizes and save SymInts as well as tensors.
#pragma once

#include <string_view>

#include "engine/aot/JointGraph.h"
#include "engine/graph/PartitionInfo.h"

namespace fathom::aot {

enum class Partitioner { Default, MinCut };
std::string_view partitionerName(Partitioner p);
std::optional<Partitioner> parsePartitioner(std::string_view name);

struct PartitionedGraphs {
  Graph forward;
  Graph backward;
  PartitionInfo info;
};

Result<PartitionedGraphs> partition(const JointGraph& joint, Partitioner partitioner);

// The saved values the min-cut partitioner picks: nodes of the joint graph, in graph order.
Result<std::vector<NodeRef>> minCutSavedValues(const JointGraph& joint);

// Bytes of a recorded value under the hints (SymInt: 8).
int64_t valueBytes(const Value& val);

}  // namespace fathom::aot
