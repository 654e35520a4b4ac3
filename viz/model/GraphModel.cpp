// GraphModel: per-node view data of one graph of a dump (GraphModel.h).
#include "viz/model/GraphModel.h"

#include <unordered_map>
#include <unordered_set>

#include "engine/graph/PartitionInfo.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::viz {

std::string_view sideName(Side s) {
  switch (s) {
    case Side::Forward: return "forward";
    case Side::Backward: return "backward";
    case Side::None: break;
  }
  return "";
}

std::string_view partitionRoleName(PartitionRole r) {
  switch (r) {
    case PartitionRole::SavedForBackward: return "saved";
    case PartitionRole::SavedInput: return "saved-input";
    case PartitionRole::Tangent: return "tangent";
    case PartitionRole::Recomputed: return "recomputed";
    case PartitionRole::CrossesCut: return "crosses-cut";
    case PartitionRole::None: break;
  }
  return "";
}

namespace {

std::string sizeText(const SymInt& s, bool atHints) { return atHints ? std::to_string(s.hint()) : s.str(); }

std::string tensorText(const TensorMeta& m, bool atHints) {
  std::string out(dtypeShortName(m.dtype));
  out += '[';
  for (size_t i = 0; i < m.sizes.size(); ++i) out += (i ? ", " : "") + sizeText(m.sizes[i], atHints);
  return out + ']';
}

int64_t tensorBytes(const TensorMeta& m) {
  int64_t n = 1;
  for (const SymInt& s : m.sizes) n *= s.hint();
  return n * static_cast<int64_t>(elementSize(m.dtype));
}

std::string firstDType(const Value& v) {
  if (auto* m = v.tryAs<TensorMeta>()) return std::string(dtypeShortName(m->dtype));
  if (auto* l = v.tryAs<ValueList>())
    for (const Value& e : *l)
      if (auto d = firstDType(e); !d.empty()) return d;
  return "";
}

bool isTangentName(std::string_view name) { return name.rfind("tangents_", 0) == 0; }

// The graph names of the dump's forward/backward pair, or empty names when it has none.
struct PairNames {
  std::string joint, forward, backward;
};

PairNames pairNames(const Dump& dump) {
  PairNames p{"joint", "forward", "backward"};
  if (dump.partition) p = {dump.partition->joint, dump.partition->forward, dump.partition->backward};
  if (!dump.graph(p.forward) || !dump.graph(p.backward)) p.forward.clear(), p.backward.clear();
  return p;
}

// Every module path of the graph's nodes and all its prefixes.
std::unordered_set<std::string> modulePrefixes(const Graph& g) {
  std::unordered_set<std::string> out;
  for (const Node& n : g.nodes()) {
    const std::string& m = n.provenance.module;
    if (m.empty() || out.count(m)) continue;
    for (size_t dot = m.find('.'); dot != std::string::npos; dot = m.find('.', dot + 1)) out.insert(m.substr(0, dot));
    out.insert(m);
  }
  return out;
}

std::vector<SavedValue> savedValues(const Dump& dump, const PairNames& names, bool* inferred) {
  std::vector<SavedValue> out;
  *inferred = false;
  if (names.forward.empty()) return out;
  if (dump.partition) {
    for (const SavedValueInfo& s : dump.partition->saved) {
      SavedValue v{s.name, "", "", s.bytes, s.isSymInt};
      v.metaText = s.isSymInt ? "Sym(" + s.value.str() + ")" : tensorText(s.meta, false);
      v.metaEval = s.isSymInt ? "Sym(" + std::to_string(s.value.hint()) + ")" : tensorText(s.meta, true);
      out.push_back(std::move(v));
    }
    return out;
  }
  // No partition section (PyTorch exports): the backward's placeholders that name forward nodes.
  *inferred = true;
  const Graph& fwd = *dump.graph(names.forward);
  for (const Node& n : dump.graph(names.backward)->nodes()) {
    if (n.kind != NodeKind::Placeholder || isTangentName(n.name)) continue;
    auto at = fwd.find(n.name);
    if (!at) continue;
    const Value& val = fwd.node(*at).val;
    SavedValue v{n.name, metaText(val, false), metaText(val, true), 0, val.is<SymInt>()};
    if (auto* m = val.tryAs<TensorMeta>()) v.bytes = tensorBytes(*m);
    if (v.isSymInt) v.bytes = 8;
    out.push_back(std::move(v));
  }
  return out;
}

// Which graph of a forward/backward pair a model is for, and the pair's forward graph.
struct GraphPlace {
  bool isForward = false, isBackward = false, isJoint = false;
  const Graph* forward = nullptr;
};

// Side: the stage tag, else the graph, else (a joint) whether the forward has the name. Role:
// tangents by name; saved values by name, as the graph sees them; recomputed forward ops in the
// backward (tagged "forward", or the forward's op of the same name).
void markPartition(NodeInfo& info, const Node& n, const GraphPlace& where,
                   const std::unordered_map<std::string_view, int32_t>& savedIndex) {
  if (n.stage == "forward") info.side = Side::Forward;
  else if (n.stage == "backward") info.side = Side::Backward;
  else if (where.isForward) info.side = Side::Forward;
  else if (where.isBackward) info.side = Side::Backward;
  else if (where.isJoint && n.kind != NodeKind::Output) info.side = where.forward->find(n.name) ? Side::Forward : Side::Backward;
  if (isTangentName(n.name) && n.kind == NodeKind::Placeholder) {
    info.side = Side::Backward;
    info.role = PartitionRole::Tangent;
  }
  auto saved = savedIndex.find(n.name);
  if (saved != savedIndex.end()) {
    info.savedIndex = saved->second;
    if (where.isForward) info.role = PartitionRole::SavedForBackward;
    else if (where.isBackward && n.kind == NodeKind::Placeholder) info.role = PartitionRole::SavedInput;
    else if (where.isJoint) info.role = PartitionRole::CrossesCut;
    else info.savedIndex = -1;
  }
  if (where.isBackward && n.kind == NodeKind::Call && info.role == PartitionRole::None) {
    auto same = where.forward->find(n.name);
    if (n.stage == "forward" || (same && where.forward->node(*same).target == n.target)) {
      info.role = PartitionRole::Recomputed;
      info.side = Side::Forward;
    }
  }
}

}  // namespace

std::string metaText(const Value& val, bool atHints) {
  if (auto* m = val.tryAs<TensorMeta>()) return tensorText(*m, atHints);
  if (auto* s = val.tryAs<SymInt>()) return "Sym(" + sizeText(*s, atHints) + ")";
  if (auto* l = val.tryAs<ValueList>()) {
    std::string out = "(";
    for (size_t i = 0; i < l->size(); ++i) out += (i ? ", " : "") + metaText((*l)[i], atHints);
    return out + ")";
  }
  return "";
}

std::string shortOpName(std::string_view target) {
  if (target.rfind("aten.", 0) == 0) target.remove_prefix(5);
  else if (auto ns = target.find("::"); ns != std::string_view::npos) target.remove_prefix(ns + 2);
  else if (auto dot = target.find('.'); dot != std::string_view::npos && target.find('.', dot + 1) != std::string_view::npos)
    // A custom op ("demo.row_pad.default", a plugin's): its namespace says it is not ATen's.
    return std::string(target.substr(0, dot)) + "::" + std::string(target.substr(dot + 1, target.find('.', dot + 1) - dot - 1));
  if (auto dot = target.find('.'); dot != std::string_view::npos) target = target.substr(0, dot);
  return std::string(target);
}

int32_t GraphModel::find(std::string_view name) const {
  auto r = graph_->find(name);
  return r ? r->index : -1;
}

Result<GraphModel> GraphModel::build(const Dump& dump, std::string_view graphName) {
  const Graph* graph = dump.graph(graphName);
  if (!graph) return invalidInput("the dump has no graph named '" + std::string(graphName) + "'");
  GraphModel m;
  m.name_ = std::string(graphName);
  m.dump_ = &dump;
  m.graph_ = graph;
  const PairNames names = pairNames(dump);
  GraphPlace where;
  where.isForward = !names.forward.empty() && m.name_ == names.forward;
  where.isBackward = !names.backward.empty() && m.name_ == names.backward;
  where.isJoint = !names.forward.empty() && m.name_ == names.joint;
  where.forward = names.forward.empty() ? nullptr : dump.graph(names.forward);
  m.saved_ = savedValues(dump, names, &m.savedInferred_);
  std::unordered_map<std::string_view, int32_t> savedIndex;
  for (size_t i = 0; i < m.saved_.size(); ++i) savedIndex.emplace(m.saved_[i].name, static_cast<int32_t>(i));
  const auto prefixes = modulePrefixes(*graph);

  const auto& nodes = graph->nodes();
  m.nodes_.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    NodeInfo& info = m.nodes_[i];
    info.index = static_cast<int32_t>(i);
    info.kind = n.kind;
    info.name = n.name;
    info.op = n.kind == NodeKind::Call ? n.target : std::string(nodeKindName(n.kind));
    info.opShort = n.kind == NodeKind::Call ? shortOpName(n.target) : info.op;
    info.metaText = metaText(n.val, false);
    info.metaEval = metaText(n.val, true);
    info.dtype = firstDType(n.val);
    info.source = n.provenance.source;
    info.module = n.provenance.module;
    if (info.module.empty() && n.kind == NodeKind::Placeholder)
      if (auto dot = n.name.rfind('.'); dot != std::string::npos && prefixes.count(n.name.substr(0, dot)))
        info.module = n.name.substr(0, dot), info.moduleInferred = true;
    forEachNodeRef(n, [&](NodeRef r) {
      if (r.index < 0 || static_cast<size_t>(r.index) >= i) return;  // verify() rejects these; stay safe
      for (int32_t have : info.inputs)
        if (have == r.index) return;
      info.inputs.push_back(r.index);
    });
    for (int32_t u : info.inputs) m.nodes_[static_cast<size_t>(u)].users.push_back(info.index);
    m.numEdges_ += static_cast<int64_t>(info.inputs.size());

    markPartition(info, n, where, savedIndex);
    if (info.side == Side::Forward) m.hasForward_ = true;
    if (info.side == Side::Backward) m.hasBackward_ = true;
  }
  if (dump.shapeEnv) {
    const auto& guards = dump.shapeEnv->guards();
    for (size_t g = 0; g < guards.size(); ++g) {
      const sym::GuardContext& context = guards[g].where;
      if (context.node.empty()) continue;
      if ((where.isBackward && context.stage == "aot-forward") || (where.isForward && context.stage == "aot-backward")) continue;
      const int32_t at = m.find(context.node);
      if (at >= 0) m.nodes_[static_cast<size_t>(at)].guards.push_back(static_cast<int32_t>(g));
    }
  }
  return m;
}

}  // namespace fathom::viz
