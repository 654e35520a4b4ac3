// The groups opened to follow a run (see FollowExpansion.h).
#include "viz/model/FollowExpansion.h"

#include <algorithm>

namespace fathom::viz {

void FollowExpansion::follow(ViewState& view, int32_t node) {
  if (node < 0 || static_cast<size_t>(node) >= view.model().size()) return;
  const GroupTree& tree = view.tree();
  std::vector<int32_t> path;  // the groups holding `node`, innermost first
  for (int32_t g = tree.groupOfNode(node); g >= 0; g = tree.group(g).parent) path.push_back(g);
  std::vector<int32_t> still;
  for (int32_t g : opened_) {
    if (std::find(path.begin(), path.end(), g) != path.end()) still.push_back(g);
    else if (view.isExpanded(g)) view.setExpanded(g, false);
  }
  for (int32_t g : path)
    if (!view.isExpanded(g)) {
      view.setExpanded(g, true);
      still.push_back(g);
    }
  opened_ = std::move(still);
}

}  // namespace fathom::viz
