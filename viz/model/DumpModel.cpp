// DumpModel: the models of a dump's graphs and the links between their nodes (DumpModel.h).
#include "viz/model/DumpModel.h"

#include <algorithm>

#include "engine/graph/PartitionInfo.h"

namespace fathom::viz {

Result<DumpModel> DumpModel::build(std::shared_ptr<const Dump> dump) {
  if (!dump) return invalidInput("no dump to show");
  DumpModel m;
  m.dump_ = std::move(dump);
  for (const NamedGraph& g : m.dump_->graphs) {
    auto model = GraphModel::build(*m.dump_, g.name);
    if (!model.ok()) return std::move(model.error());
    m.graphs_.push_back(std::move(*model));
  }
  const std::string fwd = m.dump_->partition ? m.dump_->partition->forward : "forward";
  const std::string bwd = m.dump_->partition ? m.dump_->partition->backward : "backward";
  m.forward_ = m.graphIndex(fwd);
  m.backward_ = m.graphIndex(bwd);
  if (m.forward_ < 0 || m.backward_ < 0) m.forward_ = m.backward_ = -1;
  return m;
}

int32_t DumpModel::graphIndex(std::string_view name) const {
  for (size_t i = 0; i < graphs_.size(); ++i)
    if (graphs_[i].graphName() == name) return static_cast<int32_t>(i);
  return -1;
}

std::vector<NodeLink> DumpModel::counterparts(int32_t from, int32_t node) const {
  std::vector<NodeLink> out;
  if (from < 0 || static_cast<size_t>(from) >= graphs_.size()) return out;
  const GraphModel& a = graphs_[static_cast<size_t>(from)];
  if (node < 0 || static_cast<size_t>(node) >= a.size()) return out;
  const NodeInfo& n = a.node(node);
  for (size_t bi = 0; bi < graphs_.size(); ++bi) {
    const auto to = static_cast<int32_t>(bi);
    if (to == from) continue;
    const GraphModel& b = graphs_[bi];
    const int32_t same = b.find(n.name);
    if (same >= 0) out.push_back({to, same, LinkKind::SameName});
    // A saved value seen from outside the backward: the backward nodes that read it.
    if (to == backward_ && same >= 0 && b.node(same).role == PartitionRole::SavedInput)
      for (int32_t u : b.node(same).users) out.push_back({to, u, LinkKind::SavedUse});
    // A backward node without a counterpart: the sources of the saved values it reads.
    if (from == backward_ && same < 0)
      for (int32_t i : n.inputs)
        if (a.node(i).role == PartitionRole::SavedInput)
          if (int32_t src = b.find(a.node(i).name); src >= 0) out.push_back({to, src, LinkKind::SavedSource});
  }
  std::stable_sort(out.begin(), out.end(), [](const NodeLink& x, const NodeLink& y) {
    return x.kind == LinkKind::SameName && y.kind != LinkKind::SameName;
  });
  return out;
}

std::vector<int32_t> DumpModel::mapSelection(int32_t from, const std::vector<int32_t>& nodes, int32_t to) const {
  std::vector<int32_t> out;
  if (from == to) {
    out = nodes;
  } else {
    for (int32_t n : nodes) {
      bool same = false;
      std::vector<int32_t> others;
      for (const NodeLink& l : counterparts(from, n)) {
        if (l.graph != to) continue;
        if (l.kind == LinkKind::SameName) {
          out.push_back(l.node);
          same = true;
        } else {
          others.push_back(l.node);
        }
      }
      if (!same) out.insert(out.end(), others.begin(), others.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace fathom::viz
