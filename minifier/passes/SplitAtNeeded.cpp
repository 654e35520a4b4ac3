// Split at needed nodes: when a failure needs several nodes together (a softmax and a gelu both
// present), the other passes keep the whole chain between them - cutting a node in the middle
// into an input drops everything upstream of it, the first needed node included. Here every
// computed node of the best becomes an output of its own first, so a node cut into an input takes
// nothing else with it; then chunks of op nodes are cut into inputs (and dropped as outputs),
// halving down to single nodes, latest first. What stays is the needed nodes, each returned,
// with what lies between them cut away: fx_minifier's "delta debugging" + "remove outputs"
// shape. Taken when it leaves fewer op nodes than the best (verified fresh, as every best).
// Ending on single nodes with none removable, it checks 1-minimality with respect to removing
// any one op node.
#include <algorithm>
#include <set>

#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {
namespace {

size_t callCount(const Candidate& c) {
  return static_cast<size_t>(std::count_if(c.graph.nodes().begin(), c.graph.nodes().end(),
                                           [](const Node& n) { return n.kind == NodeKind::Call; }));
}

// `cut` with `nodes` cut into inputs and no longer returned; nullopt when no output would be left.
std::optional<Cut> removeNodes(const Cut& cut, const std::vector<int32_t>& nodes) {
  const std::set<int32_t> gone(nodes.begin(), nodes.end());
  Cut c = cut;
  c.inputs.insert(c.inputs.end(), nodes.begin(), nodes.end());
  normalizeInputs(c);
  std::erase_if(c.outputs, [&](const Value& v) {
    const auto* r = v.tryAs<NodeRef>();
    return r && gone.count(r->index);
  });
  if (c.outputs.empty()) return std::nullopt;
  return c;
}

// ddmin over `nodes` (the candidates for removal, latest first) on `trial`: chunks that can go,
// halving down to single nodes; the nodes removed leave `nodes`.
void removeChunks(PassContext& context, Best& trial, std::vector<int32_t>& nodes) {
  for (size_t chunk = std::max<size_t>(nodes.size() / 2, 1); !nodes.empty() && !context.stopRequested();) {
    std::vector<Cut> cuts;
    std::vector<size_t> starts;
    for (size_t s = 0; s < nodes.size(); s += chunk) {
      const std::vector<int32_t> part(nodes.begin() + static_cast<std::ptrdiff_t>(s),
                                      nodes.begin() + static_cast<std::ptrdiff_t>(std::min(s + chunk, nodes.size())));
      if (auto c = removeNodes(trial.cut, part)) {
        cuts.push_back(std::move(*c));
        starts.push_back(s);
      }
    }
    // Not verified one by one: the result is verified once, by accept(), before it is taken.
    if (auto at = context.replaceWithFirstFailing(trial, cuts, false, false)) {
      const size_t s = starts[*at];
      nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(s),
                  nodes.begin() + static_cast<std::ptrdiff_t>(std::min(s + chunk, nodes.size())));
      continue;
    }
    if (chunk == 1) break;
    chunk /= 2;
  }
}

}  // namespace

bool runSplitAtNeeded(PassContext& context) {
  Best& best = context.best();
  std::vector<int32_t> nodes;
  for (int32_t i : context.computed(best))
    if (context.hasRealValue(i)) nodes.push_back(i);
  if (nodes.size() < 2) return false;
  Cut exposed = best.cut;
  std::set<int32_t> returned;
  for (const Value& v : exposed.outputs)
    if (const auto* r = v.tryAs<NodeRef>()) returned.insert(r->index);
  for (int32_t i : nodes)
    if (!returned.count(i)) exposed.outputs.emplace_back(NodeRef{i});
  Best trial = best;
  if (!context.replaceWithFirstFailing(trial, {exposed}, false, false)) return false;  // more outputs change the failure
  std::reverse(nodes.begin(), nodes.end());
  removeChunks(context, trial, nodes);
  if (callCount(trial.candidate) >= callCount(best.candidate)) return false;
  return context.accept(best, std::move(trial));
}

}  // namespace fathom::minify
