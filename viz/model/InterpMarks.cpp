// Node marks of a debug-interpreter run (see InterpMarks.h).
#include "viz/model/InterpMarks.h"

#include <algorithm>

namespace fathom::viz {

std::vector<NodeMark> runMarks(const Graph& graph, const std::string& graphName, size_t ran,
                               const std::vector<Mismatch>& mismatches, std::optional<size_t> cursor,
                               std::optional<size_t> failed) {
  const auto& nodes = graph.nodes();
  ran = std::min(ran, nodes.size());
  std::vector<NodeMark> marks(nodes.size(), NodeMark::None);
  for (size_t i = 0; i < ran; ++i) marks[i] = NodeMark::Ran;
  for (const Mismatch& m : mismatches) {
    if (m.graph != graphName) continue;
    auto ref = graph.find(m.node);
    if (!ref || static_cast<size_t>(ref->index) >= ran) continue;
    NodeMark& mark = marks[static_cast<size_t>(ref->index)];
    mark = m.origin || mark == NodeMark::Origin ? NodeMark::Origin : NodeMark::Inherited;
  }
  // A node that ran on a value that mismatched inherits it, even when its own layout matches.
  std::vector<char> lied(nodes.size(), 0);
  for (size_t i = 0; i < ran; ++i) lied[i] = marks[i] == NodeMark::Origin || marks[i] == NodeMark::Inherited;
  for (size_t i = 0; i < ran; ++i) {
    if (marks[i] != NodeMark::Ran) continue;
    forEachNodeRef(nodes[i], [&](NodeRef r) {
      if (lied[static_cast<size_t>(r.index)]) marks[i] = NodeMark::Inherited;
    });
  }
  if (failed && *failed < nodes.size()) marks[*failed] = NodeMark::Failed;
  else if (cursor && *cursor < nodes.size()) marks[*cursor] = NodeMark::Current;
  return marks;
}

std::vector<NodeMark> reportMarks(const Graph& graph, const std::string& graphName, const CheckReport& report) {
  if (std::find(report.graphs.begin(), report.graphs.end(), graphName) == report.graphs.end()) return {};
  return runMarks(graph, graphName, graph.size(), report.mismatches);
}

}  // namespace fathom::viz
