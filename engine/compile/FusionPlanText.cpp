// The text form of FusionPlanText.h. Columns are padded to the widest entry, so a plan reads as
// a table in a terminal and diffs line by line.
#include "engine/compile/FusionPlanText.h"

#include <algorithm>

#include "engine/ops/layout/NnLayout.h"  // sizesText

namespace fathom {

std::string abbreviatedNodeNames(const Graph& graph, const FusedKernel& kernel) {
  const auto& nodes = kernel.nodes;
  auto name = [&](size_t i) { return graph.node(nodes[i]).name; };
  if (nodes.size() > 4) return name(0) + ", " + name(1) + ", ... " + name(nodes.size() - 1);
  std::string out;
  for (size_t i = 0; i < nodes.size(); ++i) out += (i ? ", " : "") + name(i);
  return out;
}

std::string fusionSummaryLine(const FusionSummary& s) {
  return std::to_string(s.kernels) + " kernels: " + std::to_string(s.pointwise) + " pointwise fused from " +
         std::to_string(s.pointwiseOps) + " ops, " + std::to_string(s.reduction) + " reduction from " +
         std::to_string(s.reductionOps) + " ops, " + std::to_string(s.rowLocal) + " row-local, " +
         std::to_string(s.extern_) + " extern";
}

std::string printFusionPlan(const Graph& graph, const FusionPlan& plan, const std::vector<std::string>& notes) {
  size_t nameWidth = 0;
  for (const auto& k : plan.kernels) nameWidth = std::max(nameWidth, k.name.size());
  std::string out;
  for (const auto& k : plan.kernels) {
    std::string kind(kernelKindName(k.kind));
    const std::string count = std::to_string(k.nodes.size()) + (k.nodes.size() == 1 ? " node " : " nodes");
    out += k.name + std::string(nameWidth - k.name.size() + 2, ' ') + kind + std::string(11 - kind.size(), ' ') +
           count + "  " + abbreviatedNodeNames(graph, k) + "  " + sizesText(k.sizes);
    const size_t i = static_cast<size_t>(&k - plan.kernels.data());
    out += (i < notes.size() && !notes[i].empty() ? "  " + notes[i] : "") + "\n";
  }
  return out + fusionSummaryLine(plan.summary()) + "\n";
}

}  // namespace fathom
