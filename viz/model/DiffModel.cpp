// DiffModel (see the header).
#include "viz/model/DiffModel.h"

#include "engine/symbolic/ShapeEnv.h"
#include "viz/model/DiffText.h"

namespace fathom::viz {
namespace {

int32_t at(const std::vector<int32_t>& v, int32_t i) { return i >= 0 && static_cast<size_t>(i) < v.size() ? v[static_cast<size_t>(i)] : -1; }

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

NodeMark diffMark(NodeDiffState s) {
  switch (s) {
    case NodeDiffState::Same: return NodeMark::Same;
    case NodeDiffState::Changed: return NodeMark::Changed;
    case NodeDiffState::Added: return NodeMark::Added;
    case NodeDiffState::Removed: return NodeMark::Removed;
  }
  return NodeMark::None;
}

DiffModel DiffModel::build(const GraphModel& left, const GraphModel& right) {
  DiffModel m;
  m.left_ = &left;
  m.right_ = &right;
  const GraphDiff d = diffGraphs(left.graph(), right.graph(), left.dump().shapeEnv.get(), right.dump().shapeEnv.get());
  m.counts_ = d.summary;
  m.leftMarks_.assign(left.size(), NodeMark::Same);
  m.rightMarks_.assign(right.size(), NodeMark::Same);
  m.leftToRight_.assign(left.size(), -1);
  m.rightToLeft_.assign(right.size(), -1);
  m.leftEntry_.assign(left.size(), -1);
  m.rightEntry_.assign(right.size(), -1);
  // The correspondence first: describing an argument names right inputs by their left match.
  for (const NodeDiff& n : d.nodes) {
    if (n.ia >= 0) m.leftMarks_[static_cast<size_t>(n.ia)] = diffMark(n.state);
    if (n.ib >= 0) m.rightMarks_[static_cast<size_t>(n.ib)] = diffMark(n.state);
    if (n.ia >= 0 && n.ib >= 0) {
      m.leftToRight_[static_cast<size_t>(n.ia)] = n.ib;
      m.rightToLeft_[static_cast<size_t>(n.ib)] = n.ia;
    }
  }
  for (const NodeDiff& n : d.nodes) {
    if (n.state == NodeDiffState::Same) continue;
    DiffEntry e{.state = n.state, .left = n.ia, .right = n.ib, .name = "", .changes = {}, .what = ""};
    e.name = n.a.empty() ? "%" + n.b : (n.b.empty() || n.a == n.b ? "%" + n.a : "%" + n.a + " -> %" + n.b);
    if (n.state == NodeDiffState::Changed) {
      e.changes = describeChanges(left, n.ia, right, n.ib, m.rightToLeft_, n.changes);
      e.what = joined(e.changes);
    } else {
      e.what = n.state == NodeDiffState::Added ? describeNode(right, n.ib) : describeNode(left, n.ia);
    }
    const auto index = static_cast<int32_t>(m.entries_.size());
    if (n.ia >= 0) m.leftEntry_[static_cast<size_t>(n.ia)] = index;
    if (n.ib >= 0) m.rightEntry_[static_cast<size_t>(n.ib)] = index;
    m.entries_.push_back(std::move(e));
  }
  return m;
}

int32_t DiffModel::counterpart(DiffSide side, int32_t node) const {
  return at(side == DiffSide::Left ? leftToRight_ : rightToLeft_, node);
}

std::vector<int32_t> DiffModel::mapSelection(DiffSide side, const std::vector<int32_t>& nodes) const {
  std::vector<int32_t> out;
  for (int32_t n : nodes)
    if (const int32_t c = counterpart(side, n); c >= 0) out.push_back(c);
  return out;
}

int32_t DiffModel::entryOf(DiffSide side, int32_t node) const { return at(side == DiffSide::Left ? leftEntry_ : rightEntry_, node); }

std::string DiffModel::countsText() const {
  const auto& c = counts_;
  if (equal()) return "equal: " + std::to_string(c.same) + " nodes the same";
  return std::to_string(c.changed) + " changed, " + std::to_string(c.added) + " added, " + std::to_string(c.removed) +
         " removed, " + std::to_string(c.same) + " same";
}

std::string DiffModel::nodeText(DiffSide side, int32_t node) const {
  const GraphModel& here = model(side);
  if (node < 0 || static_cast<size_t>(node) >= here.size()) return "";
  const std::string name = "%" + here.node(node).name;
  const char* other = side == DiffSide::Left ? "right" : "left";
  const int32_t entry = entryOf(side, node);
  const int32_t match = counterpart(side, node);
  if (match < 0)
    return name + (side == DiffSide::Left ? " was removed" : " was added") + ": nothing matches it on the " + other;
  const std::string there = "%" + model(otherSide(side)).node(match).name;
  if (entry < 0) return name + ": the same as " + there + " on the " + other;
  return name + ": changed (" + there + " on the " + other + "): " + entries_[static_cast<size_t>(entry)].what;
}

}  // namespace fathom::viz
