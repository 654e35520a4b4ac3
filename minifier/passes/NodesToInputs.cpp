// Nodes -> inputs: cut chunks of computed nodes into inputs (their upstream drops out),
// latest first; after a success the scan starts again on the smaller candidate, and halving
// down to single nodes makes the result 1-minimal.
#include <algorithm>

#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {
namespace {

// With jobs workers: the next `jobs` chunks run at once, and when several still fail, their
// union (every one of those chunks cut) is tried too - a success of each worker counts,
// instead of all but the first being thrown away. Still 1-minimal: it ends only after a
// round of single nodes where none could go.
bool nodesToInputsInBatches(PassContext& context) {
  Best& best = context.best();
  bool improved = false;
  size_t chunk = std::max<size_t>(context.chunkCuts(best, 1).size() / 2, 1);
  for (size_t start = 0; !context.stopRequested();) {
    std::vector<Cut> cuts = context.chunkCuts(best, chunk);
    if (start >= cuts.size()) {
      if (chunk == 1) break;
      chunk /= 2;
      start = 0;
      continue;
    }
    std::vector<Cut> batch(cuts.begin() + static_cast<std::ptrdiff_t>(start),
                           cuts.begin() + static_cast<std::ptrdiff_t>(std::min(start + context.options().jobs, cuts.size())));
    PassContext::Asked a = context.ask(batch, best.candidate.graph.size(), true);
    if (a.failing.empty()) {
      start += batch.size();
      continue;
    }
    improved = true;
    if (a.failing.size() > 1) {
      Cut merged = best.cut;
      for (size_t i : a.failing) merged.inputs.insert(merged.inputs.end(), batch[i].inputs.begin(), batch[i].inputs.end());
      normalizeInputs(merged);
      if (context.replaceWithFirstFailing(best, {merged}, true)) {
        start = 0;
        continue;
      }
    }
    const size_t first = a.failing.front();
    if (a.built[first]) context.accept(best, Best{batch[first], std::move(*a.built[first])});
    start = 0;
  }
  return improved;
}

}  // namespace

bool runNodesToInputs(PassContext& context) {
  if (context.options().isolate && context.options().jobs > 1) return nodesToInputsInBatches(context);
  Best& best = context.best();
  bool improved = false;
  for (size_t chunk = std::max<size_t>(context.chunkCuts(best, 1).size() / 2, 1);;) {
    if (context.stopRequested()) break;
    if (context.replaceWithFirstFailing(best, context.chunkCuts(best, chunk), true)) {
      improved = true;
      continue;
    }
    if (chunk == 1) break;
    chunk /= 2;
  }
  return improved;
}

}  // namespace fathom::minify
