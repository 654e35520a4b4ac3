// Cutting a graph: a new graph whose inputs are chosen nodes of the source and whose outputs
// are chosen values of it, holding every node in between (FX's _extract_graph_with_inputs_outputs).
// The partitioners build the forward and backward graphs this way; tracing uses it to move the
// tangents' placeholders to the front of the joint graph.
#pragma once

#include <string_view>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom::aot {

// Placeholders for `inputs` (same names and meta, in this order), then the nodes of `source`
// that `outputs` need - in source order, stopping at inputs - then an output node returning
// `outputs` (values over `source`'s NodeRefs). An error names the node that would be needed but
// is neither an input nor computable (a placeholder not in `inputs`); `what` names the graph.
Result<Graph> extractGraph(const Graph& source, const std::vector<NodeRef>& inputs, const ValueList& outputs,
                           std::string_view what);

// `v` with every NodeRef replaced by that node's recorded fake value (lists too): the argument
// a meta function takes.
Value fakeValueOf(const Graph& g, const Value& v);

// `v` with every NodeRef r replaced by map[r.index] (which must be valid).
Value remapRefs(const Value& v, const std::vector<NodeRef>& map);

}  // namespace fathom::aot
