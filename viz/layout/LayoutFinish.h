// The last steps every engine shares (internal to layout/): the aside column and moving the
// layout so its bounds start at (0, 0).
#pragma once

#include "viz/layout/LayoutGraph.h"

namespace fathom::viz {

// Aside boxes in one column whose right side is `gap` left of `mainLeft`, each level with the
// highest box it is joined to, stacked top-down without overlap (`spacing` apart).
void placeAsideColumn(const LayoutGraph& graph, Layout& out, double mainLeft, double gap, double spacing);
// Translates boxes and routes so the bounds start at (0, 0); sets out.bounds.
void normalizeLayout(Layout& out);

}  // namespace fathom::viz
