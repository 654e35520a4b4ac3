// diffGraphs: which nodes of graph B are graph A's, and what changed - `fathom diff A B`, and the
// GUI's diff view (issue 22). Nodes are matched as HotSpot's IGV matches compiler graphs: first by
// name; then through the matches so far, the unmatched inputs at the same argument of a matched
// pair (same kind and op: how a PyTorch export's %primals_1 is found to be a Fathom trace's
// %conv1.weight); then, for what is left in graph order, by kind, op and already-matched inputs,
// the nearest position first (and once more through the new matches' inputs). A matched pair is "changed" when its op, its arguments (inputs named by
// their match), its recorded meta, its stage or its guards differ; a node of A without a match is "removed",
// one of B "added".
//
//   GraphDiff d = diffGraphs(before, after);
//   d.equal(); d.summary.changed; for (auto& n : d.nodes) n.state, n.a, n.b, n.changes
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/Graph.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {

enum class NodeDiffState { Same, Changed, Added, Removed };
std::string_view nodeDiffStateName(NodeDiffState s);  // "same", "changed", "added", "removed"

struct NodeDiff {
  NodeDiffState state = NodeDiffState::Same;
  std::string a, b;                  // the node's name in each graph ("" where it has none)
  std::vector<std::string> changes;  // "op: aten.add.Tensor -> aten.sub.Tensor", "meta: ...", ...
  int32_t ia = -1, ib = -1;          // the node's index in each graph (-1 where it has none)
};

struct GraphDiffSummary {
  int64_t same = 0, changed = 0, added = 0, removed = 0;
};

struct GraphDiff {
  std::vector<NodeDiff> nodes;  // A's nodes in A's order (same, changed, removed), then B's added ones
  GraphDiffSummary summary;
  bool equal() const { return summary.changed == 0 && summary.added == 0 && summary.removed == 0; }
};

// With the dumps' shape envs, a matched pair is also changed when the guards its node raised
// differ (the guards' simplified expressions, by the node named in their provenance).
// A value as the diff compares arguments: node references named by `name`, lists element by
// element, constants as the graph printer writes them ("[%x, 2, 1.5]").
std::string diffValueText(const Value& v, const std::function<std::string(NodeRef)>& name);

GraphDiff diffGraphs(const Graph& a, const Graph& b, const sym::ShapeEnv* envA = nullptr, const sym::ShapeEnv* envB = nullptr);

}  // namespace fathom
