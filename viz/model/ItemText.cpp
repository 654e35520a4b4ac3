// ItemText: lines and box sizes of scene items (ItemText.h).
#include "viz/model/ItemText.h"

#include <algorithm>
#include <cmath>

namespace fathom::viz {

std::vector<std::string> nodeLines(const NodeInfo& node) {
  std::vector<std::string> lines{node.name, node.opShort};
  if (!node.metaEval.empty()) lines.push_back(node.metaEval);
  if (node.metaText != node.metaEval && !node.metaText.empty()) lines.push_back(node.metaText);
  return lines;
}

std::vector<std::string> groupLines(const GroupTree& tree, int32_t group) {
  const Group& g = tree.group(group);
  std::string second(groupKindName(g.kind));
  if (g.kind == GroupKind::Block)
    second = "block " + std::to_string(g.repeatIndex + 1) + " of " + std::to_string(g.repeatCount) + " (repeated)";
  return {tree.title(group), second};
}

namespace {

// Characters a line is sized for. A run of digits counts as at least 3, so "encoder.layer.3" and
// "encoder.layer.10" (or "addmm_9" and "addmm_10") size alike and equal groups share a layout.
size_t sizedLength(const std::string& line) {
  size_t n = 0;
  for (size_t i = 0; i < line.size();) {
    if (line[i] < '0' || line[i] > '9') {
      ++n, ++i;
      continue;
    }
    size_t run = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++run, ++i;
    n += std::max<size_t>(run, 3);
  }
  return n;
}

}  // namespace

BoxSize boxSizeFor(const std::vector<std::string>& lines, const SceneStyle& style) {
  size_t longest = 0;
  for (const auto& l : lines) longest = std::max(longest, sizedLength(l));
  double w = static_cast<double>(longest) * style.charWidth + 2 * style.padding;
  w = std::clamp(w, style.minWidth, style.maxWidth);
  if (style.widthQuantum > 0) w = std::min(style.maxWidth, std::ceil(w / style.widthQuantum) * style.widthQuantum);
  return {w, static_cast<double>(lines.size()) * style.lineHeight + 2 * style.padding};
}

}  // namespace fathom::viz
