// Scene: everything one graph tab draws, in scene coordinates (x right, y down, 1 unit = 1 px at
// zoom 1). ViewState::scene() produces it; the Qt shell turns each entry into a graphics item and
// holds no semantics: clicks are reported back as item indices or node/group ids.
//
// Level of detail: every item carries its text lines, most important first (name, op, meta);
// the GUI chooses by zoom how many to draw (none when a box is a few pixels tall).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viz/layout/Geometry.h"
#include "viz/model/GraphModel.h"

namespace fathom::viz {

enum class Highlight : uint8_t { None, Guard, Find, Related, Error };

// What a debugging panel says about a node, drawn as the box's fill (a highlight is an outline,
// so both show): the interpreter's run (ran, the node at the cursor, a mismatch that starts here
// or one inherited from an input, a node that failed to execute) or a diff's state. Larger values
// win when a collapsed group holds several (`markRank`).
enum class NodeMark : uint8_t { None, Same, Ran, Removed, Added, Changed, Current, Inherited, Failed, Origin };
inline int markRank(NodeMark m) { return static_cast<int>(m); }

struct SceneItem {
  bool isGroup = false;       // a collapsed group (or one whose layout is not ready yet)
  int32_t id = 0;             // node index, or group index when isGroup
  Rect box;
  std::vector<std::string> lines;  // "addmm_3", "addmm", "f32[8, 256]"; a group: its title, kinds
  int32_t depth = 0;          // nesting depth of the frame it sits in (root's children: 1)
  Side side = Side::None;
  PartitionRole role = PartitionRole::None;   // nodes
  bool aside = false;         // drawn aside (many users)
  bool selected = false;      // the node, or a node inside the group, is selected
  bool dimmed = false;        // a filter is set and nothing here matches it
  Highlight highlight = Highlight::None;
  NodeMark mark = NodeMark::None;  // a group: the highest-ranked mark of its nodes
  bool breakpoint = false;    // the node (a group: one of its nodes) has a breakpoint
  int32_t matches = 0;        // group: nodes inside matching the filter
  bool pending = false;       // group: expanded, its layout is being computed
};

// The frame of an expanded group, drawn behind its children.
struct SceneFrame {
  int32_t group = 0;
  Rect box;                   // title bar on top, frameTitle high
  std::string title;          // "encoder.layer.3 (83 nodes)"
  int32_t depth = 1;
};

struct SceneEdge {
  int32_t from = 0, to = 0;   // item indices
  std::vector<Point> points;  // from's bottom ... to's top
  int32_t count = 1;          // graph edges it stands for (edges between groups are merged)
  bool crossesCut = false;    // joint graph: forward value read by the backward
  bool reversed = false;      // drawn against the flow (a cycle between groups)
};

// A short stub with a label instead of a long edge: at an edge's target ("← %w0") for an input
// drawn aside or far above, at its source ("→ %mm_7") for a user far below.
struct SceneStub {
  int32_t item = 0;           // the item it hangs off
  Point at;                   // where it touches the item (top for incoming, bottom for outgoing)
  bool incoming = true;
  std::string label;          // the other end: a node name, or a group title
  int32_t otherItem = -1;     // the item at the other end (click: go there)
  int32_t otherNode = -1;     // the node at the other end when it is one node (else -1)
  int32_t count = 1;
  bool crossesCut = false;
};

struct Scene {
  std::vector<SceneItem> items;
  std::vector<SceneFrame> frames;  // outer frames first (draw in order)
  std::vector<SceneEdge> edges;
  std::vector<SceneStub> stubs;
  Rect bounds;
  bool complete = true;       // false while some expanded group waits for its layout

  // The item showing `node`: its own box, or the collapsed group holding it; -1 if none.
  int32_t itemOfNode(int32_t node) const {
    return node >= 0 && static_cast<size_t>(node) < nodeItems.size() ? nodeItems[static_cast<size_t>(node)] : -1;
  }
  // The topmost item whose box contains `p`, or -1. Linear; the GUI has its own index.
  int32_t itemAt(Point p) const;

  std::vector<int32_t> nodeItems;  // per node of the graph: the item showing it, -1 if none
};

}  // namespace fathom::viz
