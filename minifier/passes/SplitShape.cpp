#include "minifier/passes/SplitShape.h"

#include <algorithm>
#include <set>

#include "minifier/PassContext.h"

namespace fathom::minify {
namespace {

// Call nodes: the split passes are judged by op nodes, not all nodes.
size_t callCount(const Candidate& c) {
  return static_cast<size_t>(std::count_if(c.graph.nodes().begin(), c.graph.nodes().end(),
                                           [](const Node& n) { return n.kind == NodeKind::Call; }));
}

// The best with every computed node that has a real value returned, and those nodes, earliest
// first.
struct SplitTrial {
  Best trial;
  std::vector<int32_t> nodes;
};

std::set<int32_t> returnedNodes(const Cut& cut) {
  std::set<int32_t> out;
  for (const Value& v : cut.outputs)
    if (const auto* r = v.tryAs<NodeRef>()) out.insert(r->index);
  return out;
}

// The returned op nodes alone, taken when it still fails.
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

// The split shape of the best; nullopt when it has fewer than two such nodes, a stop was
// requested, or returning every node changes the failure.
std::optional<SplitTrial> exposeComputed(PassContext& context) {
  const Best& best = context.best();
  std::vector<int32_t> nodes;
  for (int32_t i : context.computed(best))
    if (context.hasRealValue(i)) nodes.push_back(i);
  if (nodes.size() < 2 || context.stopRequested()) return std::nullopt;
  Cut exposed = best.cut;
  const std::set<int32_t> returned = returnedNodes(exposed);
  for (int32_t i : nodes)
    if (!returned.count(i)) exposed.outputs.emplace_back(NodeRef{i});
  SplitTrial split{best, std::move(nodes)};
  if (!context.replaceWithFirstFailing(split.trial, {exposed}, false, false)) return std::nullopt;
  return split;
}

bool acceptIfFewerCalls(PassContext& context, Best trial) {
  if (callCount(trial.candidate) >= callCount(context.best().candidate)) return false;
  return context.accept(context.best(), std::move(trial));
}

}  // namespace

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


void removeChunks(PassContext& context, Best& trial, std::vector<int32_t>& nodes, size_t firstChunk) {
  for (size_t chunk = std::max<size_t>(firstChunk, 1); !nodes.empty() && !context.stopRequested();) {
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

bool runSplitPass(PassContext& context, SplitReduction reduce) {
  const bool improved = keepReturnedAlone(context);
  std::optional<SplitTrial> split = exposeComputed(context);
  if (!split) return improved;
  reduce(context, split->trial, split->nodes);
  return acceptIfFewerCalls(context, std::move(split->trial)) || improved;
}

}  // namespace fathom::minify
