// ShrinkMarks: a minifier candidate drawn on the ORIGINAL graph, so the user watches the graph
// shrink in a stable layout - the original stays laid out as it was (marks change fills, never
// positions) and each node says what became of it:
//   Same     still in the candidate as it was (a placeholder still an input, a call still computed)
//   Changed  a call the candidate takes as an input instead (its real value, cut in)
//   Removed  not in the candidate at all
// The mapping is by name, which is exact: every candidate is aot::extractGraph of the original
// over a cut (minifier/CandidateBuilder.cpp), and extractGraph gives each input placeholder the
// name of the node it stands for and copies the nodes it keeps with their names; the minifier
// never renames (merged inputs and simpler constants only rewrite arguments).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/graph/Graph.h"
#include "viz/model/GraphModel.h"
#include "viz/model/Scene.h"

namespace fathom::viz {

struct ShrinkView {
  std::vector<NodeMark> marks;  // per node of the original
  std::vector<int32_t> kept;    // the original's nodes still in the candidate (Same or Changed), in graph order
  size_t becameInputs = 0;      // of them, calls cut into inputs (Changed)
  size_t unknown = 0;           // candidate names the original does not have: another graph's candidate
};

// The candidate given by its placeholders' and calls' names (the progress stream's improvement).
ShrinkView mapCandidate(const GraphModel& original, const std::vector<std::string>& inputs, const std::vector<std::string>& calls);
// The candidate as a graph (a checkpoint or minified repro loaded from disk).
ShrinkView mapCandidate(const GraphModel& original, const Graph& candidate);

}  // namespace fathom::viz
