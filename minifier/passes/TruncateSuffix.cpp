// Truncate suffix: the earliest node whose value alone, returned, still fails. Monotone in the
// common case (a failure at node k shows in any suffix cut after it): a binary search - with
// jobs workers, a (jobs+1)-ary one, all points of a round tested at once. Only tensor-valued
// nodes: a size computation (sym_size, operator.mul) returned alone shows nothing and would
// break the search's monotonicity.
#include <optional>

#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {

bool runTruncateSuffix(PassContext& context) {
  Best& best = context.best();
  std::vector<int32_t> nodes;
  for (int32_t i : context.computed(best))
    if (context.graph().nodes()[static_cast<size_t>(i)].val.tryAs<TensorMeta>()) nodes.push_back(i);
  auto suffixCut = [&](size_t k) {
    Cut c = best.cut;  // the best's inputs, and what the shrinking passes changed
    c.outputs = {Value(NodeRef{nodes[k]})};
    return c;
  };
  size_t lo = 0, hi = nodes.size();
  std::optional<Best> found;
  const size_t ways = context.parallelism();
  while (lo < hi && !context.stopRequested()) {
    std::vector<size_t> points;
    for (size_t k = 1; k <= ways; ++k) {
      const size_t p = lo + (hi - lo) * k / (ways + 1);
      if (p < hi && (points.empty() || p > points.back())) points.push_back(p);
    }
    std::vector<Cut> cuts;
    for (size_t p : points) cuts.push_back(suffixCut(p));
    Best probe = best;
    if (auto at = context.replaceWithFirstFailing(probe, cuts, false, false)) {  // verified once, at the end
      found = std::move(probe);
      hi = points[*at];
      lo = *at ? points[*at - 1] + 1 : lo;
    } else {
      lo = points.back() + 1;
    }
  }
  if (!found || found->candidate.graph.size() >= best.candidate.graph.size()) return false;
  return context.accept(best, std::move(*found));
}

}  // namespace fathom::minify
