#include "engine/jit/PlanOrder.h"

#include <functional>

namespace fathom {
namespace {

Value renumbered(const Value& v, const std::vector<int32_t>& newIndex) {
  if (const auto* r = v.tryAs<NodeRef>()) return NodeRef{newIndex[static_cast<size_t>(r->index)]};
  if (const auto* l = v.tryAs<ValueList>()) {
    ValueList out;
    out.reserve(l->size());
    for (const auto& e : *l) out.push_back(renumbered(e, newIndex));
    return out;
  }
  return v;
}

}  // namespace

Result<Graph> graphInPlanOrder(const Graph& graph, const FusionPlan& plan) {
  std::vector<int32_t> order;
  for (NodeRef p : graph.placeholders()) order.push_back(p.index);
  for (const auto& k : plan.kernels)
    for (NodeRef n : k.nodes) order.push_back(n.index);
  if (const Node* out = graph.outputNode()) order.push_back(static_cast<int32_t>(out - graph.nodes().data()));
  if (order.size() != graph.size())
    return internalError("the fusion plan covers " + std::to_string(order.size()) + " of the graph's " +
                         std::to_string(graph.size()) + " nodes");
  std::vector<int32_t> newIndex(graph.size(), -1);
  for (size_t i = 0; i < order.size(); ++i) newIndex[static_cast<size_t>(order[i])] = static_cast<int32_t>(i);
  Graph g;
  g.reserve(graph.size());
  for (int32_t old : order) {
    Node n = graph.nodes()[static_cast<size_t>(old)];
    for (auto& a : n.args) a = renumbered(a, newIndex);
    for (auto& [name, v] : n.kwargs) v = renumbered(v, newIndex);
    g.append(std::move(n));
  }
  return g;
}

}  // namespace fathom
