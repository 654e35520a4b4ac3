// Split at needed nodes: when a failure needs several nodes together (a softmax and a gelu both
// present), the other passes keep the whole chain between them - cutting a node in the middle
// into an input drops everything upstream of it, the first needed node included. Here every
// computed node of the best becomes an output of its own first, so a node cut into an input takes
// nothing else with it; then chunks of op nodes are cut into inputs (and dropped as outputs),
// halving down to single nodes, earliest first. What stays is the needed nodes, each returned,
// with what lies between them cut away: fx_minifier's "delta debugging" + "remove outputs"
// shape. Taken when it leaves fewer op nodes than the best (verified fresh, as every best).
// Ending on single nodes with none removable, it checks 1-minimality with respect to removing
// any one op node.
//
// It runs right after truncate suffix and remove outputs (issue 25's side-by-side bench,
// tests/bench/MinifyPredicatesBench.cpp, BERT-12 forward), because it finds k needed nodes
// among n in about 2k log n queries where the walking passes take time linear in a distance:
// output-to-operands walks up one node per step from where truncate suffix's binary search
// landed - far from the culprit when independent nodes (weight transposes) break the search's
// monotonicity: 182 queries for a culprit a layer away -, and nodes-to-inputs halves down to
// single nodes over the whole chain between two needed nodes, starting over after each success
// (636 queries). Earliest first: the passes before it leave the output at or just past the
// culprit, so the early chunks go first and each halving costs one query, not two.
// First it asks the returned op nodes alone (everything else cut into inputs): with one culprit,
// returned, that is the end in one query.
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

// ddmin over `nodes` (the candidates for removal, earliest first) on `trial`: chunks that can go,
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

std::set<int32_t> returnedNodes(const Cut& cut) {
  std::set<int32_t> out;
  for (const Value& v : cut.outputs)
    if (const auto* r = v.tryAs<NodeRef>()) out.insert(r->index);
  return out;
}

// The returned op nodes alone: every other computed node cut into an input. Taken when it still
// fails (verified, as every best).
bool keepReturnedAlone(PassContext& context) {
  Best& best = context.best();
  const std::set<int32_t> returned = returnedNodes(best.cut);
  Cut alone = best.cut;
  for (int32_t i : context.computed(best))
    if (!returned.count(i) && context.hasRealValue(i)) alone.inputs.push_back(i);
  if (alone.inputs.size() == best.cut.inputs.size()) return false;
  normalizeInputs(alone);
  return context.replaceWithFirstFailing(best, {alone}, true).has_value();
}

}  // namespace

bool runSplitAtNeeded(PassContext& context) {
  Best& best = context.best();
  const bool improved = keepReturnedAlone(context);
  std::vector<int32_t> nodes;
  for (int32_t i : context.computed(best))
    if (context.hasRealValue(i)) nodes.push_back(i);
  if (nodes.size() < 2 || context.stopRequested()) return improved;
  Cut exposed = best.cut;
  const std::set<int32_t> returned = returnedNodes(exposed);
  for (int32_t i : nodes)
    if (!returned.count(i)) exposed.outputs.emplace_back(NodeRef{i});
  Best trial = best;
  if (!context.replaceWithFirstFailing(trial, {exposed}, false, false)) return improved;  // more outputs change the failure
  removeChunks(context, trial, nodes);
  if (callCount(trial.candidate) >= callCount(best.candidate)) return improved;
  return context.accept(best, std::move(trial)) || improved;
}

}  // namespace fathom::minify
