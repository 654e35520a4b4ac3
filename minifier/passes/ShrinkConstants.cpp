// Shrink constants: a floating scalar argument of a computed node becomes 0, else 1, so the
// repro does not hinge on a value like 0.044715 when a plainer one fails the same way.
#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {

bool runShrinkConstants(PassContext& context) {
  Best& best = context.best();
  bool improved = false;
  for (int32_t node : context.computed(best)) {
    const Node& n = context.graph().nodes()[static_cast<size_t>(node)];
    for (size_t a = 0; a < n.args.size() && !context.stopRequested(); ++a) {
      const auto* d = n.args[a].tryAs<double>();
      const auto it = best.cut.constants.find({node, a});
      const double now = it != best.cut.constants.end() ? it->second : d ? *d : 0;
      if (!d || now == 0) continue;
      std::vector<Cut> cuts;
      for (double simpler : {0.0, 1.0}) {
        if (simpler == now) break;
        cuts.push_back(best.cut);
        cuts.back().constants[{node, a}] = simpler;
      }
      if (context.replaceWithFirstFailing(best, cuts, false)) improved = true;
    }
  }
  return improved;
}

}  // namespace fathom::minify
