// Shrink symbolic sizes: each symbol the candidate's inputs use is rebound to the smallest of
// 2, 4, 8, ... below its value that keeps the failure and satisfies the recorded guards
// (a dynamic trace's ShapeEnv, MinifyOptions::shapeEnv; without one, nothing to do).
#include <algorithm>
#include <set>

#include "engine/symbolic/ShapeEnv.h"
#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {

bool runShrinkSymbols(PassContext& context) {
  const auto& env = context.options().shapeEnv;
  if (!env) return false;
  Best& best = context.best();
  std::set<int32_t> used;
  for (NodeRef r : best.candidate.graph.placeholders())
    if (const auto* m = best.candidate.graph.node(r).val.tryAs<TensorMeta>())
      for (const auto& s : m->sizes)
        for (int32_t i : sym::exprOf(s).symbols()) used.insert(i);
  bool improved = false;
  const auto& symbols = env->symbols();
  for (int32_t i : used) {
    if (i < 0 || static_cast<size_t>(i) >= symbols.size() || context.stopRequested()) continue;
    const auto& info = symbols[static_cast<size_t>(i)];
    const auto it = best.cut.sizes.find(info.name);
    const int64_t now = it != best.cut.sizes.end() ? it->second : info.hint;
    std::vector<Cut> cuts;
    for (int64_t v = std::max<int64_t>(2, info.range.lo); v < now; v *= 2) {
      cuts.push_back(best.cut);
      cuts.back().sizes[info.name] = v;
    }
    if (context.replaceWithFirstFailing(best, cuts, false)) improved = true;
  }
  return improved;
}

}  // namespace fathom::minify
