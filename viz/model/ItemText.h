// ItemText: the text lines of scene items and the box sizes they need under a SceneStyle.
// Lines come most important first, so the GUI can drop the tail when zoomed out:
//   node  : "addmm_3", "addmm", "f32[8, 256]" (at the hints), "f32[s0, 256]" (only if symbolic)
//   group : "encoder.layer.3 (83 nodes)", "module" / "block 4 of 12" / "section"
#pragma once

#include <string>
#include <vector>

#include "viz/model/Grouping.h"
#include "viz/model/SceneStyle.h"

namespace fathom::viz {

std::vector<std::string> nodeLines(const NodeInfo& node);
std::vector<std::string> groupLines(const GroupTree& tree, int32_t group);

struct BoxSize {
  double width = 0, height = 0;
};
// Width from the longest line (digit runs count as at least 3 characters, so labels differing
// only in a number size alike; clamped, rounded up to the quantum), height from the line count.
BoxSize boxSizeFor(const std::vector<std::string>& lines, const SceneStyle& style);

}  // namespace fathom::viz
