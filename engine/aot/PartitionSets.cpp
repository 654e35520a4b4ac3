#include "engine/aot/PartitionSets.h"

namespace fathom::aot {
namespace {

// Marks every ancestor of `roots` (roots included).
std::vector<char> ancestors(const Graph& g, const std::vector<NodeRef>& roots) {
  std::vector<char> mark(g.size(), 0);
  std::vector<int32_t> stack;
  for (NodeRef r : roots)
    if (!mark[static_cast<size_t>(r.index)]) {
      mark[static_cast<size_t>(r.index)] = 1;
      stack.push_back(r.index);
    }
  while (!stack.empty()) {
    const Node& n = g.nodes()[static_cast<size_t>(stack.back())];
    stack.pop_back();
    forEachNodeRef(n, [&](NodeRef r) {
      if (!mark[static_cast<size_t>(r.index)]) {
        mark[static_cast<size_t>(r.index)] = 1;
        stack.push_back(r.index);
      }
    });
  }
  return mark;
}

std::vector<NodeRef> refsIn(const ValueList& values, size_t begin, size_t end) {
  std::vector<NodeRef> out;
  for (size_t i = begin; i < end && i < values.size(); ++i) forEachNodeRef(values[i], [&](NodeRef r) { out.push_back(r); });
  return out;
}

}  // namespace

JointSets jointSets(const JointGraph& joint) {
  const Graph& g = joint.graph;
  const ValueList& outs = joint.outputs();
  const size_t numFwd = joint.mutatedInputs.size() + joint.numForwardOutputs;
  JointSets s;
  s.requiredForward = ancestors(g, refsIn(outs, 0, numFwd));
  s.gradOutputs = refsIn(outs, numFwd, outs.size());
  const std::vector<char> forGrads = ancestors(g, s.gradOutputs);
  s.fromTangents.assign(g.size(), 0);
  for (NodeRef t : joint.tangents()) s.fromTangents[static_cast<size_t>(t.index)] = 1;
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    if (n.kind != NodeKind::Call) continue;
    forEachNodeRef(n, [&](NodeRef r) { s.fromTangents[i] = s.fromTangents[i] || s.fromTangents[static_cast<size_t>(r.index)]; });
  }
  s.requiredBackward.assign(g.size(), 0);
  s.needed.assign(g.size(), 0);
  for (size_t i = 0; i < g.size(); ++i) {
    s.requiredBackward[i] = s.fromTangents[i] && forGrads[i];
    s.needed[i] = s.requiredForward[i] || forGrads[i];
  }
  return s;
}

}  // namespace fathom::aot
