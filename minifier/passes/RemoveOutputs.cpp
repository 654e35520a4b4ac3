// Remove outputs: drop chunks of outputs (ddmin-style halving), keeping at least one; after a
// success the scan goes on from the same place in the smaller list.
#include <algorithm>

#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {

bool runRemoveOutputs(PassContext& context) {
  Best& best = context.best();
  bool improved = false;
  for (size_t chunk = std::max<size_t>(best.cut.outputs.size() / 2, 1);; chunk /= 2) {
    for (size_t start = 0; start < best.cut.outputs.size() && best.cut.outputs.size() > 1 && !context.stopRequested();) {
      std::vector<Cut> cuts;
      for (size_t s = start; s < best.cut.outputs.size(); s += chunk) {
        Cut c = best.cut;
        const size_t end = std::min(s + chunk, c.outputs.size());
        if (end - s >= c.outputs.size()) break;
        c.outputs.erase(c.outputs.begin() + static_cast<std::ptrdiff_t>(s), c.outputs.begin() + static_cast<std::ptrdiff_t>(end));
        cuts.push_back(std::move(c));
      }
      auto at = context.replaceWithFirstFailing(best, cuts, false);
      if (!at) break;
      improved = true;
      start += *at * chunk;  // the next chunk moved into the removed one's place
    }
    if (chunk <= 1) break;
  }
  return improved;
}

}  // namespace fathom::minify
