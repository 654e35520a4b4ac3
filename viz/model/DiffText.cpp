// DiffText (see the header).
#include "viz/model/DiffText.h"

#include <algorithm>
#include <functional>

#include "engine/graph/GraphDiff.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::viz {
namespace {

std::string listText(const SymIntList& l) {
  std::string out = "[";
  for (size_t i = 0; i < l.size(); ++i) out += (i ? ", " : "") + l[i].str();
  return out + "]";
}

// One part of a recorded meta as text, tensor by tensor ("(...)" around a list of outputs); ""
// for values that are not tensors, so a part only compares where both sides have tensors.
std::string partText(const Value& v, const std::function<std::string(const TensorMeta&)>& part) {
  if (const auto* m = v.tryAs<TensorMeta>()) return part(*m);
  if (const auto* l = v.tryAs<ValueList>()) {
    std::string out = "(";
    for (size_t i = 0; i < l->size(); ++i) out += (i ? ", " : "") + partText((*l)[i], part);
    return out + ")";
  }
  return "";
}

// "other: %y -> %z'" per positional argument (named by the op's schema where it has one),
// "alpha: 1 -> 2" / "alpha added: 2" / "alpha removed: 1" per keyword.
std::vector<std::string> argChanges(const Node& a, const Node& b, const std::function<std::string(NodeRef)>& nameA,
                                    const std::function<std::string(NodeRef)>& nameB) {
  std::vector<std::string> out;
  const size_t n = std::max(a.args.size(), b.args.size());
  for (size_t i = 0; i < n; ++i) {
    const std::string ta = i < a.args.size() ? diffValueText(a.args[i], nameA) : "";
    const std::string tb = i < b.args.size() ? diffValueText(b.args[i], nameB) : "";
    if (ta == tb) continue;
    const OpDef* op = a.op ? a.op : b.op;
    const std::string arg = op && i < op->schema.args.size() ? op->schema.args[i].name : "arg " + std::to_string(i);
    if (ta.empty()) out.push_back(arg + " added: " + tb);
    else if (tb.empty()) out.push_back(arg + " removed: " + ta);
    else out.push_back(arg + ": " + ta + " -> " + tb);
  }
  auto find = [](const Kwargs& kw, const std::string& key) -> const Value* {
    for (const auto& [k, v] : kw)
      if (k == key) return &v;
    return nullptr;
  };
  for (const auto& [key, value] : a.kwargs) {
    const std::string ta = diffValueText(value, nameA);
    const Value* other = find(b.kwargs, key);
    if (!other) out.push_back(key + " removed: " + ta);
    else if (const std::string tb = diffValueText(*other, nameB); ta != tb) out.push_back(key + ": " + ta + " -> " + tb);
  }
  for (const auto& [key, value] : b.kwargs)
    if (!find(a.kwargs, key)) out.push_back(key + " added: " + diffValueText(value, nameB));
  return out;
}

std::vector<std::string> guardTexts(const GraphModel& m, int32_t node) {
  std::vector<std::string> out;
  if (!m.dump().shapeEnv) return out;
  for (int32_t g : m.node(node).guards) out.push_back(m.dump().shapeEnv->guards()[static_cast<size_t>(g)].expr.str());
  return out;
}

// "guard added: Eq(s0, s2)" / "guard removed: ..." for each guard raised by only one of the two.
std::vector<std::string> guardChanges(const GraphModel& left, int32_t l, const GraphModel& right, int32_t r) {
  std::vector<std::string> a = guardTexts(left, l), b = guardTexts(right, r), out;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<std::string> removed, added;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(removed));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(added));
  for (const auto& g : added) out.push_back("guard added: " + g);
  for (const auto& g : removed) out.push_back("guard removed: " + g);
  return out;
}

// The engine's "what: A -> B" as "what A -> B" (the fallback when no detail explains it).
std::string plain(const std::string& change) {
  const size_t colon = change.find(": ");
  return colon == std::string::npos ? change : change.substr(0, colon) + " " + change.substr(colon + 2);
}

}  // namespace

std::vector<std::string> metaChanges(const Value& a, const Value& b) {
  std::vector<std::string> out;
  const std::string ma = metaText(a, false), mb = metaText(b, false);
  if (ma != mb) out.push_back("meta " + (ma.empty() ? "none" : ma) + " -> " + (mb.empty() ? "none" : mb));
  auto part = [&](const char* what, const std::function<std::string(const TensorMeta&)>& fn) {
    const std::string pa = partText(a, fn), pb = partText(b, fn);
    if (pa != pb && !pa.empty() && !pb.empty()) out.push_back(std::string(what) + " " + pa + " -> " + pb);
  };
  if (ma == mb) part("stride", [](const TensorMeta& m) { return listText(m.strides); });
  part("offset", [](const TensorMeta& m) { return m.storageOffset.str(); });
  part("device", [](const TensorMeta& m) { return m.device; });
  part("requires_grad", [](const TensorMeta& m) { return std::string(m.requiresGrad ? "True" : "False"); });
  return out;
}

std::vector<std::string> describeChanges(const GraphModel& left, int32_t l, const GraphModel& right, int32_t r,
                                         const std::vector<int32_t>& rightToLeft, const std::vector<std::string>& engineChanges) {
  const Node& a = left.graph().nodes()[static_cast<size_t>(l)];
  const Node& b = right.graph().nodes()[static_cast<size_t>(r)];
  auto nameA = [&](NodeRef ref) { return "%" + left.graph().node(ref).name; };
  auto nameB = [&](NodeRef ref) {
    const int32_t m = ref.index >= 0 && static_cast<size_t>(ref.index) < rightToLeft.size() ? rightToLeft[static_cast<size_t>(ref.index)] : -1;
    return m >= 0 ? "%" + left.node(m).name : "%" + right.graph().node(ref).name + "'";
  };
  std::vector<std::string> out;
  for (const std::string& change : engineChanges) {
    std::vector<std::string> detail;
    auto orNone = [](const std::string& text) { return text.empty() ? std::string("none") : text; };
    if (change.starts_with("op:")) detail.push_back("op " + orNone(a.target) + " -> " + orNone(b.target));
    else if (change.starts_with("stage:")) detail.push_back("stage " + orNone(a.stage) + " -> " + orNone(b.stage));
    else if (change.starts_with("args:")) detail = argChanges(a, b, nameA, nameB);
    else if (change.starts_with("meta:")) detail = metaChanges(a.val, b.val);
    else if (change.starts_with("guards:")) detail = guardChanges(left, l, right, r);
    if (detail.empty()) detail.push_back(plain(change));
    out.insert(out.end(), detail.begin(), detail.end());
  }
  return out;
}

std::string describeNode(const GraphModel& model, int32_t node) {
  const NodeInfo& n = model.node(node);
  std::string out = n.op;
  if (!n.metaText.empty()) out += (n.kind == NodeKind::Call ? " -> " : " ") + n.metaText;
  return out;
}

}  // namespace fathom::viz
