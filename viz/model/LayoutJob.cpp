// LayoutJob: the edges between a group's children, the cache key, and running a job
// (LayoutJob.h).
#include "viz/model/LayoutJob.h"
#include "viz/model/HashMix.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace fathom::viz {

std::vector<LayoutEdge> childEdges(const GraphModel& model, const GroupTree& tree, int32_t group) {
  // Which child each node below the group lies under.
  std::unordered_map<int32_t, int32_t> childOf;
  const auto& children = tree.group(group).children;
  std::vector<int32_t> below;
  for (size_t c = 0; c < children.size(); ++c) {
    if (children[c].isGroup) {
      for (int32_t n : tree.nodesBelow(children[c].index)) {
        childOf.emplace(n, static_cast<int32_t>(c));
        below.push_back(n);
      }
    } else {
      childOf.emplace(children[c].index, static_cast<int32_t>(c));
      below.push_back(children[c].index);
    }
  }
  std::vector<std::pair<int32_t, int32_t>> pairs;
  for (int32_t v : below) {
    const int32_t cv = childOf[v];
    for (int32_t u : model.node(v).inputs) {
      auto it = childOf.find(u);
      if (it != childOf.end() && it->second != cv) pairs.emplace_back(it->second, cv);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<LayoutEdge> out;
  for (size_t k = 0; k < pairs.size(); ++k) {
    if (k > 0 && pairs[k] == pairs[k - 1]) {
      ++out.back().weight;
      continue;
    }
    out.push_back({pairs[k].first, pairs[k].second, 1});
  }
  return out;
}

namespace {
uint64_t mix(uint64_t h, uint64_t v) { return hashMix(h, v); }
uint64_t bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
}  // namespace

uint64_t layoutKey(uint64_t structuralHash, const LayoutGraph& graph, const AutoLayoutOptions& options) {
  uint64_t h = mix(structuralHash, graph.nodes.size());
  for (const LayoutNode& n : graph.nodes) h = mix(mix(mix(h, bits(n.width)), bits(n.height)), n.aside);
  for (const LayoutEdge& e : graph.edges)
    h = mix(mix(mix(h, static_cast<uint64_t>(e.from)), static_cast<uint64_t>(e.to)), static_cast<uint64_t>(e.weight));
  h = mix(h, static_cast<uint64_t>(options.choice));
  h = mix(h, static_cast<uint64_t>(options.graphvizMaxNodes));
  h = mix(h, bits(options.layered.nodeSpacing));
  h = mix(h, bits(options.layered.layerSpacing));
  h = mix(h, static_cast<uint64_t>(options.layered.maxSpan));
  h = mix(h, static_cast<uint64_t>(options.layered.sweeps));
  return h;
}

Result<std::shared_ptr<const GroupLayout>> runLayoutJob(const LayoutJob& job, const CancelFlag* cancel) {
  auto layout = autoLayout(job.graph, job.options, cancel);
  if (!layout.ok()) return std::move(layout.error());
  auto out = std::make_shared<GroupLayout>();
  out->edges = job.graph.edges;
  out->layout = std::move(*layout);
  return std::shared_ptr<const GroupLayout>(std::move(out));
}

}  // namespace fathom::viz
