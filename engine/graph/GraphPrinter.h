// Text forms of a graph: one line per node,
//   %add_3 : f32[8, 128, 768] [98304, 768, 1] = aten.add.Tensor(%x, %y)
// and Graphviz dot source (text only; layout happens in viz/).
#pragma once

#include <string>

#include "engine/graph/Graph.h"

namespace fathom {

// A value as it appears in printed graphs: %x, 3, 1.5, True, None, torch.float32, [a, b].
std::string formatValue(const Value& v, const Graph* graph = nullptr);
// The right-hand side of a call, "aten.add.Tensor(%x, %y, alpha=2)".
std::string formatCall(const Graph& graph, const Node& node);
// One full line for the node, without a trailing newline.
std::string formatNode(const Graph& graph, const Node& node);
std::string printGraph(const Graph& graph);
std::string graphToDot(const Graph& graph, const std::string& name);

}  // namespace fathom
