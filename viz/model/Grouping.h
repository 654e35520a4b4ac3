// GroupTree: nodes of one graph collapsed into nested groups so that no group shows more than
// `maxChildren` (~500) children, whatever the graph's size.
//
// How a scope (the whole graph, a side, a module, a block) is grouped, in this order:
//   1. Sides: a graph holding both forward and backward nodes (a joint graph) splits into the
//      two sides first.
//   2. Module paths: when calls in the scope carry module paths, one group per path prefix
//      ("encoder" > "encoder.layer" > "encoder.layer.3" > "encoder.layer.3.attention"); chains
//      of single-child groups are merged ("bert.encoder"). Nodes without a path stay at the level
//      of the scope (placeholders "layers.0.weight" have an inferred module, GraphModel.h).
//   3. Repeated structure, where there are no module paths (PyTorch 1.13 exports): periods of
//      the op sequence (RepeatedBlocks.h); each repeat becomes a block group ("block 3"), the
//      nodes before and after are grouped again by the same rules.
//   4. Sections: consecutive runs of at most maxChildren nodes in graph order, nested when there
//      are more than maxChildren sections.
// A group with more than maxChildren children after this is split into about sqrt(n) sections of
// about sqrt(n) children each (nested again if that is still over the cap).
// A group's children are its member nodes and child groups, in an order data flows along (a
// topological order of the edges between them; ties, and cycles between groups that feed each
// other, broken by first node), so layouts that draw edges from earlier to later children draw
// them downward.
//
// Structural hash: over the group's children in order - a node by its op, kind and where each
// input comes from (position within the group, or outside); a child group by its own hash - so
// groups with the same ops wired the same way hash alike, whatever their names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viz/model/GraphModel.h"

namespace fathom::viz {

enum class GroupKind : uint8_t { Root, Side, Module, Block, Section };
std::string_view groupKindName(GroupKind k);

// One child of a group: a node or a group (by index).
struct GroupChild {
  bool isGroup = false;
  int32_t index = 0;
  bool operator==(const GroupChild&) const = default;
};

struct Group {
  GroupKind kind = GroupKind::Root;
  int32_t parent = -1;            // -1 for the root
  int32_t depth = 0;              // root 0
  std::string label;              // "encoder.layer.3", "block 3", "forward", "nodes 500-999"
  std::vector<GroupChild> children;  // in flow order (above); size() <= maxChildren
  int32_t firstNode = 0;          // smallest node index below
  int32_t numNodes = 0;           // nodes below, at any depth
  uint64_t structuralHash = 0;
  int32_t repeatIndex = -1;       // Block: which repeat (0-based); -1 otherwise
  int32_t repeatCount = 0;        // Block: how many repeats of this pattern in the run
};

struct GroupingOptions {
  int32_t maxChildren = 500;
  bool useSides = true;
  bool useModules = true;
  bool useRepeats = true;
  int32_t minBlockSize = 8;       // repeats of fewer nodes are not grouped
};

class GroupTree {
 public:
  static GroupTree build(const GraphModel& model, const GroupingOptions& options = {});

  const std::vector<Group>& groups() const { return groups_; }
  const Group& group(int32_t g) const { return groups_[static_cast<size_t>(g)]; }
  int32_t root() const { return 0; }
  // The innermost group holding `node` directly.
  int32_t groupOfNode(int32_t node) const { return nodeGroup_[static_cast<size_t>(node)]; }
  // `group`'s ancestors from its parent up to the root.
  std::vector<int32_t> ancestors(int32_t group) const;
  // Whether `group` is `ancestor` or lies below it.
  bool within(int32_t group, int32_t ancestor) const;
  // Every node below `group`, in graph order.
  std::vector<int32_t> nodesBelow(int32_t group) const;
  // "encoder.layer.3 (83 nodes)".
  std::string title(int32_t group) const;

 private:
  friend class GroupBuilder;
  std::vector<Group> groups_;
  std::vector<int32_t> nodeGroup_;
};

}  // namespace fathom::viz
