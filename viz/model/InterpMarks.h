// InterpMarks: the node marks (Scene.h NodeMark) a debug-interpreter run gives one graph, from how
// far it ran and the mismatches it found - the same rule for a live run (InterpSession) and for a
// `fathom check --json` report laid over the dump:
//   Origin     the node has a mismatch the interpreter classified as origin (its inputs matched)
//   Inherited  the node has only inherited mismatches, or ran on an input that mismatched (its
//              own layout may match, as the output node's: it still consumed a lying value)
//   Ran        any other node that ran
//   Current    the node at the cursor (runs next); Failed: the node that failed to execute
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/dump/CheckReportJson.h"
#include "engine/graph/Graph.h"
#include "viz/model/Scene.h"

namespace fathom::viz {

// Marks of `graph` (called `graphName` in the mismatches) after its first `ran` nodes ran.
// `cursor`: the node at the cursor (Current), or `failed`: the node that failed there.
std::vector<NodeMark> runMarks(const Graph& graph, const std::string& graphName, size_t ran,
                               const std::vector<Mismatch>& mismatches, std::optional<size_t> cursor = std::nullopt,
                               std::optional<size_t> failed = std::nullopt);

// Marks of graph `graphName` from a check report: every node ran when the report checked that
// graph (none otherwise: an empty vector).
std::vector<NodeMark> reportMarks(const Graph& graph, const std::string& graphName, const CheckReport& report);

}  // namespace fathom::viz
