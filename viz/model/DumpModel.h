// DumpModel: the GraphModels of every graph of one dump, and the mapping between them that keeps
// a selection meaningful when the user switches tab (forward -> joint -> backward).
//
// Counterparts of node n of graph A in graph B:
//   - SameName: B's node with n's name (the graphs of one AOT compile share names: the joint's
//     `addmm` is the forward's `addmm`, and the backward's placeholder for a saved value has the
//     forward value's name; a recomputed forward op keeps its name too);
//   - SavedUse: when B is the backward and n is saved for it, the backward nodes that use the
//     saved value (the users of its placeholder);
//   - SavedSource: from the backward to the forward, a node that reads saved values maps to the
//     forward nodes that produced them (used when it has no same-name counterpart).
#pragma once

#include <memory>
#include <vector>

#include "viz/model/GraphModel.h"

namespace fathom::viz {

enum class LinkKind : uint8_t { SameName, SavedUse, SavedSource };

struct NodeLink {
  int32_t graph = 0;  // index into DumpModel::graphs()
  int32_t node = 0;
  LinkKind kind = LinkKind::SameName;
};

class DumpModel {
 public:
  // Models of every graph of `dump`, which must outlive the result (it is shared for that).
  static Result<DumpModel> build(std::shared_ptr<const Dump> dump);

  const Dump& dump() const { return *dump_; }
  const std::vector<GraphModel>& graphs() const { return graphs_; }
  const GraphModel& graph(int32_t i) const { return graphs_[static_cast<size_t>(i)]; }
  int32_t graphIndex(std::string_view name) const;  // -1 when absent

  // Every counterpart of `node` of graph `from` in the other graphs, SameName first.
  std::vector<NodeLink> counterparts(int32_t from, int32_t node) const;
  // A selection of graph `from` carried to graph `to`: SameName counterparts, and where a node
  // has none, its SavedUse / SavedSource links. Sorted, without duplicates.
  std::vector<int32_t> mapSelection(int32_t from, const std::vector<int32_t>& nodes, int32_t to) const;

 private:
  std::shared_ptr<const Dump> dump_;
  std::vector<GraphModel> graphs_;
  int32_t forward_ = -1, backward_ = -1;
};

}  // namespace fathom::viz
