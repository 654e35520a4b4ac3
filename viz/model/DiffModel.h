// DiffModel: the view model of a graph diff (issue 22) - two graphs, the left one "before" and
// the right one "after", compared by the engine's diffGraphs (engine/graph/GraphDiff.h: nodes
// matched by name, then by kind, op and matched inputs at the nearest position, as HotSpot's IGV
// does). For each side it gives a NodeMark per node (left: Removed / Changed / Same; right:
// Added / Changed / Same), the correspondence both ways (synchronized selection), and the list
// of differences, each with a one-line description of what changed:
//
//   DiffModel d = DiffModel::build(before, after);        // two GraphModels, any dumps
//   d.marks(DiffSide::Left)[n];                            // NodeMark::Removed
//   d.counterpart(DiffSide::Left, n);                      // its node on the right, -1: none
//   d.entries()[0].what;   // "op aten.add.Tensor -> aten.sub.Tensor; meta f32[8, 16] -> f32[8, 32]"
//
// Built once (on a worker thread in the GUI), immutable after; both GraphModels must outlive it.
#pragma once

#include <string>
#include <vector>

#include "engine/graph/GraphDiff.h"
#include "viz/model/GraphModel.h"
#include "viz/model/Scene.h"

namespace fathom::viz {

// The node mark of a diff state: Same, Changed, Added, Removed.
NodeMark diffMark(NodeDiffState s);

enum class DiffSide : uint8_t { Left, Right };
inline DiffSide otherSide(DiffSide s) { return s == DiffSide::Left ? DiffSide::Right : DiffSide::Left; }

// One difference: a changed pair, a removed left node or an added right node.
struct DiffEntry {
  NodeDiffState state = NodeDiffState::Changed;
  int32_t left = -1, right = -1;     // node indices on each side; -1 where it has none
  std::string name;                  // "%mul", "%relu -> %relu_7" when the match was renamed
  std::vector<std::string> changes;  // one each: "op ...", "meta ...", "stride ...", "guard added: ..."
  std::string what;                  // the one line: changes joined by "; ", or the node's op and meta
};

class DiffModel {
 public:
  static DiffModel build(const GraphModel& left, const GraphModel& right);

  const GraphModel& model(DiffSide side) const { return side == DiffSide::Left ? *left_ : *right_; }
  // Per node of that side's graph.
  const std::vector<NodeMark>& marks(DiffSide side) const { return side == DiffSide::Left ? leftMarks_ : rightMarks_; }
  // The node of the other side matched to `node` of `side`; -1 when none (removed, added) or out of range.
  int32_t counterpart(DiffSide side, int32_t node) const;
  // Nodes of `side` carried to the other side (unmatched ones dropped), in the order given.
  std::vector<int32_t> mapSelection(DiffSide side, const std::vector<int32_t>& nodes) const;

  // The differences: the left graph's changed and removed nodes in its order, then the right's
  // added nodes in its order. Same nodes have no entry.
  const std::vector<DiffEntry>& entries() const { return entries_; }
  // The entry of `node` of `side`; -1 when the node is the same on both sides.
  int32_t entryOf(DiffSide side, int32_t node) const;

  const GraphDiffSummary& counts() const { return counts_; }
  bool equal() const { return counts_.changed == 0 && counts_.added == 0 && counts_.removed == 0; }
  // "142 changed, 6 added, 17 removed, 57 same" (or "equal: 84 nodes the same").
  std::string countsText() const;
  // What a selection of one node of `side` means across the diff, for a status line:
  // "%mul: changed - args ...; same node on the right", "%y was removed: nothing on the right".
  std::string nodeText(DiffSide side, int32_t node) const;

 private:
  const GraphModel* left_ = nullptr;
  const GraphModel* right_ = nullptr;
  std::vector<NodeMark> leftMarks_, rightMarks_;
  std::vector<int32_t> leftToRight_, rightToLeft_;
  std::vector<int32_t> leftEntry_, rightEntry_;
  std::vector<DiffEntry> entries_;
  GraphDiffSummary counts_;
};

}  // namespace fathom::viz
