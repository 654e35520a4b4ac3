// DiffOverlay (see the header).
#include "viz/model/DiffOverlay.h"

#include <algorithm>
#include <optional>

#include "engine/aot/GraphExtract.h"

namespace fathom::viz {
namespace {

int32_t at(const std::vector<int32_t>& v, int32_t i) { return i >= 0 && static_cast<size_t>(i) < v.size() ? v[static_cast<size_t>(i)] : -1; }

// For each removed left node, the right node it goes after (-1: before them all; the output of
// the left graph, when removed, is not placed: -2). Inputs come first: a removed node goes after
// its matched inputs' right nodes and its removed inputs' anchors (ties keep the left order).
std::vector<int32_t> anchors(const DiffModel& diff) {
  const Graph& a = diff.model(DiffSide::Left).graph();
  const Graph& b = diff.model(DiffSide::Right).graph();
  int32_t lastPlaceholder = -1, lastBeforeOutput = static_cast<int32_t>(b.size()) - 1;
  for (size_t j = 0; j < b.size(); ++j) {
    if (b.nodes()[j].kind == NodeKind::Placeholder) lastPlaceholder = static_cast<int32_t>(j);
    if (b.nodes()[j].kind == NodeKind::Output) lastBeforeOutput = static_cast<int32_t>(j) - 1;
  }
  std::vector<int32_t> anchor(a.size(), -2);
  int32_t previous = lastPlaceholder;  // the match of the last matched left node so far
  for (size_t i = 0; i < a.size(); ++i) {
    const Node& n = a.nodes()[i];
    const int32_t match = diff.counterpart(DiffSide::Left, static_cast<int32_t>(i));
    if (match >= 0) {
      previous = std::max(lastPlaceholder, match);
      continue;
    }
    if (n.kind == NodeKind::Output) continue;
    int32_t where = n.kind == NodeKind::Placeholder ? lastPlaceholder : previous;
    forEachNodeRef(n, [&](NodeRef r) {
      const int32_t m = diff.counterpart(DiffSide::Left, r.index);
      where = std::max(where, m >= 0 ? m : at(anchor, r.index));
    });
    anchor[i] = std::min(where, lastBeforeOutput);
  }
  return anchor;
}

}  // namespace

int32_t DiffOverlay::fromSide(DiffSide side, int32_t node) const { return at(side == DiffSide::Left ? fromLeft : fromRight, node); }
int32_t DiffOverlay::toSide(DiffSide side, int32_t node) const { return at(side == DiffSide::Left ? toLeft : toRight, node); }

Result<DiffOverlay> buildDiffOverlay(const DiffModel& diff) {
  const GraphModel& left = diff.model(DiffSide::Left);
  const GraphModel& right = diff.model(DiffSide::Right);
  const Graph& a = left.graph();
  const Graph& b = right.graph();
  const std::vector<int32_t> anchor = anchors(diff);
  std::vector<std::vector<int32_t>> after(b.size() + 1);  // after[j + 1]: removed nodes placed after right node j
  for (size_t i = 0; i < a.size(); ++i)
    if (anchor[i] >= -1) after[static_cast<size_t>(anchor[i] + 1)].push_back(static_cast<int32_t>(i));

  DiffOverlay o;
  o.fromLeft.assign(a.size(), -1);
  o.fromRight.assign(b.size(), -1);
  std::vector<NodeRef> mapA(a.size()), mapB(b.size());  // each side's nodes as union nodes, once placed
  Graph u;
  u.reserve(b.size() + a.size());
  std::optional<Error> clash;
  auto place = [&](Node n, const std::vector<NodeRef>& map, NodeMark mark, int32_t l, int32_t r) {
    for (auto& arg : n.args) arg = aot::remapRefs(arg, map);
    for (auto& [key, arg] : n.kwargs) arg = aot::remapRefs(arg, map);
    if (u.find(n.name)) clash = invalidInput("diff overlay: node %" + n.name + " is on both sides unmatched");
    if (clash) return;
    const NodeRef ref = u.append(std::move(n));
    o.marks.push_back(mark);
    o.toLeft.push_back(l);
    o.toRight.push_back(r);
    if (l >= 0) o.fromLeft[static_cast<size_t>(l)] = ref.index, mapA[static_cast<size_t>(l)] = ref;
    if (r >= 0) o.fromRight[static_cast<size_t>(r)] = ref.index, mapB[static_cast<size_t>(r)] = ref;
  };
  auto placeRemoved = [&](size_t slot) {
    for (int32_t i : after[slot]) place(a.nodes()[static_cast<size_t>(i)], mapA, NodeMark::Removed, i, -1);
  };
  placeRemoved(0);
  for (size_t j = 0; j < b.size(); ++j) {
    const int32_t l = diff.counterpart(DiffSide::Right, static_cast<int32_t>(j));
    place(b.nodes()[j], mapB, diff.marks(DiffSide::Right)[j], l, static_cast<int32_t>(j));
    placeRemoved(j + 1);
  }
  if (clash) return *clash;

  auto dump = std::make_shared<Dump>();
  dump->producer = {{"tool", "fathom-gui"}, {"command", "diff overlay of " + left.graphName() + " and " + right.graphName()}};
  dump->shapeEnv = right.dump().shapeEnv;
  dump->partition = right.dump().partition;
  for (const NamedGraph& g : right.dump().graphs)
    dump->graphs.push_back(g.name == right.graphName() ? NamedGraph{g.name, std::move(u)} : g);
  o.dump = std::move(dump);
  o.graph = right.graphName();
  return o;
}

}  // namespace fathom::viz
