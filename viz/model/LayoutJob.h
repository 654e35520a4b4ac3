// LayoutJob: laying out one expanded group's children, as a self-contained value that can run on
// a worker thread. ViewState makes jobs (it knows which children are expanded and how big their
// frames are); runLayoutJob computes; ViewState::accept stores the result in the LayoutCache.
//
// Key: the group's structural hash, its children's box sizes and aside flags, and the layout
// options - everything the result depends on - so equal groups (BERT layers) share one entry.
#pragma once

#include <memory>
#include <vector>

#include "viz/layout/LayoutCache.h"
#include "viz/model/Grouping.h"
#include "viz/model/SceneStyle.h"

namespace fathom::viz {

struct LayoutJob {
  int32_t group = 0;
  uint64_t key = 0;
  LayoutGraph graph;          // node i = child i of the group; edges between children
  AutoLayoutOptions options;
};

// The edges between `group`'s children: graph edges u -> v whose ends lie below two different
// children, merged per (from, to) pair with weight = how many, sorted. O(edges below `group`).
std::vector<LayoutEdge> childEdges(const GraphModel& model, const GroupTree& tree, int32_t group);

// The key of a job for `graph` (its sizes, aside flags and edges) under `structuralHash`.
uint64_t layoutKey(uint64_t structuralHash, const LayoutGraph& graph, const AutoLayoutOptions& options);

// Lays the job out (AutoLayout). Thread-safe; cancellable (then isCancelled(error)).
Result<std::shared_ptr<const GroupLayout>> runLayoutJob(const LayoutJob& job, const CancelFlag* cancel = nullptr);

}  // namespace fathom::viz
