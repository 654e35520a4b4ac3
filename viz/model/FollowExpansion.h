// FollowExpansion: the groups a view opened to follow a run (the interpreter's cursor), so it can
// close them again when the run moves on. Revealing every node a run passes would leave the whole
// graph expanded - stepping over BERT-12's parameters opens all twelve layers - and every frame
// would then draw thousands of boxes; a debugger keeps open only the path to where it is, and
// whatever the user opened.
//
//   FollowExpansion follow;                 // one per graph tab
//   follow.follow(view, cursorNode);        // expands its groups, closes the ones opened before
#pragma once

#include <cstdint>
#include <vector>

#include "viz/model/ViewState.h"

namespace fathom::viz {

class FollowExpansion {
 public:
  // Expands the groups holding `node` in `view`; collapses the groups this object expanded for an
  // earlier node that do not hold this one. Groups that were open already (the user's) stay open.
  void follow(ViewState& view, int32_t node);
  // Forgets what it opened (the view was replaced, or the user collapsed everything).
  void reset() { opened_.clear(); }
  const std::vector<int32_t>& opened() const { return opened_; }

 private:
  std::vector<int32_t> opened_;
};

}  // namespace fathom::viz
