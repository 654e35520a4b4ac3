#include "engine/aot/Partition.h"

#include <algorithm>

#include "engine/aot/GraphExtract.h"
#include "engine/aot/PartitionSets.h"

namespace fathom::aot {

std::string_view partitionerName(Partitioner p) { return p == Partitioner::MinCut ? "min-cut" : "default"; }

std::optional<Partitioner> parsePartitioner(std::string_view name) {
  if (name == "default") return Partitioner::Default;
  if (name == "min-cut" || name == "mincut") return Partitioner::MinCut;
  return std::nullopt;
}

int64_t valueBytes(const Value& val) {
  if (val.isInt()) return 8;
  if (auto* m = val.tryAs<TensorMeta>()) {
    int64_t n = static_cast<int64_t>(elementSize(m->dtype));
    for (const auto& s : m->sizes) n *= s.hint();
    return n;
  }
  return 0;
}

namespace {

// The default partitioner's saved values: forward values (ancestors of the forward outputs, the
// primals, and size arithmetic and tuple elements computable from them - a tuple cannot be
// saved, its elements can) that backward nodes or gradients read.
std::vector<NodeRef> defaultSavedValues(const JointGraph& joint, const JointSets& sets) {
  const Graph& g = joint.graph;
  std::vector<char> fw = sets.requiredForward;
  for (NodeRef p : joint.primals()) fw[static_cast<size_t>(p.index)] = 1;
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    const bool cheap = n.val.isInt() || n.target == "getitem";
    if (fw[i] || !cheap || sets.fromTangents[i] || n.kind != NodeKind::Call) continue;
    bool inputsForward = true;
    forEachNodeRef(n, [&](NodeRef r) { inputsForward = inputsForward && fw[static_cast<size_t>(r.index)]; });
    fw[i] = inputsForward;
  }
  std::vector<char> saved(g.size(), 0);
  const auto users = g.users();
  for (size_t i = 0; i < g.size(); ++i) {
    if (!fw[i]) continue;
    for (int32_t u : users[i]) {
      const Node& un = g.nodes()[static_cast<size_t>(u)];
      if (un.kind == NodeKind::Call && !fw[static_cast<size_t>(u)]) saved[i] = 1;
    }
  }
  for (NodeRef r : sets.gradOutputs)
    if (fw[static_cast<size_t>(r.index)]) saved[static_cast<size_t>(r.index)] = 1;
  std::vector<NodeRef> out;
  for (size_t i = 0; i < g.size(); ++i)
    if (saved[i]) out.push_back(NodeRef{static_cast<int32_t>(i)});
  return out;
}

}  // namespace

Result<PartitionedGraphs> partition(const JointGraph& joint, Partitioner partitioner) {
  const Graph& g = joint.graph;
  const JointSets sets = jointSets(joint);
  std::vector<NodeRef> saved;
  if (partitioner == Partitioner::MinCut) {
    auto cut = minCutSavedValues(joint);
    FATHOM_TRY(cut);
    saved = std::move(*cut);
  } else {
    saved = defaultSavedValues(joint, sets);
  }
  // Tensors first, then SymInts, each in graph order (as AOTAutograd orders them).
  std::stable_partition(saved.begin(), saved.end(), [&](NodeRef r) { return !g.node(r).val.isInt(); });
  const ValueList& outs = joint.outputs();
  const size_t numFwd = joint.mutatedInputs.size() + joint.numForwardOutputs;
  ValueList fwdOutputs(outs.begin(), outs.begin() + static_cast<std::ptrdiff_t>(numFwd));
  for (NodeRef r : saved) fwdOutputs.push_back(r);
  ValueList grads(outs.begin() + static_cast<std::ptrdiff_t>(numFwd), outs.end());
  std::vector<NodeRef> bwdInputs = saved;
  for (NodeRef t : joint.tangents()) bwdInputs.push_back(t);

  PartitionedGraphs out;
  auto fwd = extractGraph(g, joint.primals(), fwdOutputs, "forward");
  FATHOM_TRY(fwd);
  auto bwd = extractGraph(g, bwdInputs, grads, "backward");
  FATHOM_TRY(bwd);
  out.forward = std::move(*fwd);
  out.backward = std::move(*bwd);
  FATHOM_TRY(out.forward.verify());
  FATHOM_TRY(out.backward.verify());
  PartitionInfo& info = out.info;
  info.partitioner = std::string(partitionerName(partitioner));
  for (size_t p : joint.mutatedInputs) info.mutatedInputs.push_back(g.nodes()[p].name);
  info.numForwardOutputs = static_cast<int64_t>(joint.numForwardOutputs);
  for (NodeRef r : saved) {
    const Node& n = g.node(r);
    SavedValueInfo s;
    s.name = n.name;
    s.isSymInt = n.val.isInt();
    if (s.isSymInt) s.value = n.val.as<SymInt>();
    else s.meta = n.val.as<TensorMeta>();
    s.bytes = valueBytes(n.val);
    info.saved.push_back(std::move(s));
  }
  for (size_t i = 0; i < joint.numPrimals; ++i)
    info.gradInputs.push_back(grads[i].isNone() ? std::string() : g.nodes()[i].name);
  return out;
}

}  // namespace fathom::aot
