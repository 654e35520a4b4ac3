// Merge inputs: an input read in place of another with the same dtype, sizes and strides
// (the later one goes), so a repro needs fewer values.
#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {

bool runMergeInputs(PassContext& context) {
  Best& best = context.best();
  const Graph& original = context.graph();
  bool improved = false;
  for (bool again = true; again && !context.stopRequested();) {
    again = false;
    const auto ph = best.candidate.graph.placeholders();
    std::vector<Cut> cuts;
    for (size_t later = 1; later < ph.size(); ++later) {
      const auto* a = best.candidate.graph.node(ph[later]).val.tryAs<TensorMeta>();
      const auto from = original.find(best.candidate.graph.node(ph[later]).name);
      for (size_t earlier = 0; earlier < later && a && from; ++earlier) {
        const auto* b = best.candidate.graph.node(ph[earlier]).val.tryAs<TensorMeta>();
        const auto to = original.find(best.candidate.graph.node(ph[earlier]).name);
        if (!b || !to || a->str() != b->str()) continue;
        Cut c = best.cut;
        c.merged[from->index] = to->index;
        cuts.push_back(std::move(c));
      }
    }
    if (!cuts.empty() && context.replaceWithFirstFailing(best, cuts, false) && best.candidate.graph.placeholders().size() < ph.size())
      improved = again = true;
  }
  return improved;
}

}  // namespace fathom::minify
