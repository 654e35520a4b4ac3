// SceneStyle: the metrics the core lays boxes out with. The GUI passes its font's figures (an
// average character width and a line height) so boxes fit the text it draws; everything else is
// spacing. Box widths are rounded up to `widthQuantum`, so groups whose labels differ only in a
// digit ("addmm_9" / "addmm_10") get the same sizes and share one cached layout.
#pragma once

#include "viz/layout/AutoLayout.h"

namespace fathom::viz {

struct SceneStyle {
  double charWidth = 7;       // average character width of the item font
  double lineHeight = 15;
  double padding = 6;         // inside a box, around its text
  double minWidth = 60, maxWidth = 300;  // box width limits (longer text is elided by the GUI)
  double widthQuantum = 20;
  double frameTitle = 20;     // height of an expanded group's title bar
  double framePadding = 12;   // between an expanded group's frame and its children
  int32_t asideUsers = 8;     // nodes with more users are drawn aside
  // An edge whose ends lie further apart vertically (a saved value running from deep inside the
  // forward side to the backward side) becomes labelled stubs at both ends.
  double maxEdgeLength = 1600;
  AutoLayoutOptions layout;   // engines, threshold, spacing
};

}  // namespace fathom::viz
