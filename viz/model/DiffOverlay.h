// DiffOverlay: both graphs of a diff on one canvas. The union is the right ("after") graph with
// the left graph's removed nodes added back, each wired to its inputs through the match (a
// removed node reading a matched node reads that node's right counterpart), so what went away
// shows where it used to hang. Marks: the right graph's (Added / Changed / Same) and Removed for
// the nodes added back.
//
// Why this union and not the left graph plus the added nodes: the right graph is the one being
// debugged (the recompile, the minified repro, Fathom's own trace); its edges are drawn exactly,
// and a removed node keeps every edge into it. What cannot be drawn is an edge from a removed
// node to a node that stayed, whose right version no longer reads it (that is the change the
// entry for that node describes).
//
// The union is a Graph in a Dump of its own (GraphModel and the grouping take dumps): the
// right dump's graphs with the compared one replaced, so a joint graph keeps its forward and
// backward sides, and its shape env and partition. Order: the right graph's placeholders, the
// removed placeholders, then each removed call right after the last right node it must follow
// (its inputs, and the match of the left node before it), so module paths and repeated blocks
// group the union as they group the right graph.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "viz/model/DiffModel.h"

namespace fathom::viz {

struct DiffOverlay {
  std::shared_ptr<const Dump> dump;       // holds the union as graph `graph`
  std::string graph;                      // the right graph's name
  std::vector<NodeMark> marks;            // per union node
  std::vector<int32_t> toLeft, toRight;   // per union node: its node on each side, -1 where none
  std::vector<int32_t> fromLeft, fromRight;  // per node of each side: its union node, -1 where none

  // The union node showing `node` of `side`; -1 when none (the left graph's output, if removed).
  int32_t fromSide(DiffSide side, int32_t node) const;
  // The node of `side` a union node stands for; -1 when none.
  int32_t toSide(DiffSide side, int32_t node) const;
};

// The union of `diff`'s two graphs (see above). An error only if the union fails to build (a
// name clash, which the match by name rules out).
Result<DiffOverlay> buildDiffOverlay(const DiffModel& diff);

}  // namespace fathom::viz
