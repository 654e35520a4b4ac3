// Output to its operands: an output computed by a call is replaced by one of the call's
// node arguments - the failure moves up a step. Binary search in truncate suffix assumes the
// failure shows in every later node, which a DAG breaks (a later node may not depend on the
// culprit); walking up from the output finds the culprit along the path that does.
#include <algorithm>

#include "minifier/PassContext.h"
#include "minifier/Passes.h"

namespace fathom::minify {

bool runOutputToOperands(PassContext& context) {
  Best& best = context.best();
  bool improved = false;
  for (size_t i = 0; i < best.cut.outputs.size(); ++i) {
    for (bool moved = true; moved;) {
      moved = false;
      const auto* r = best.cut.outputs[i].tryAs<NodeRef>();
      if (!r) break;
      const Node& n = context.graph().nodes()[static_cast<size_t>(r->index)];
      if (n.kind != NodeKind::Call || std::binary_search(best.cut.inputs.begin(), best.cut.inputs.end(), r->index)) break;
      std::vector<int32_t> operands;
      forEachNodeRef(n, [&](NodeRef a) {
        if (std::find(operands.begin(), operands.end(), a.index) == operands.end()) operands.push_back(a.index);
      });
      std::vector<Cut> cuts;
      for (int32_t a : operands) {
        cuts.push_back(best.cut);
        cuts.back().outputs[i] = Value(NodeRef{a});
      }
      if (context.replaceWithFirstFailing(best, cuts, true)) improved = moved = true;
    }
  }
  return improved;
}

}  // namespace fathom::minify
