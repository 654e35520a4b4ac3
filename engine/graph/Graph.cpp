#include "engine/graph/Graph.h"

#include <functional>
#include <unordered_set>

namespace fathom {

OpTags tagsOf(const Node& n) {
  if (n.kind != NodeKind::Call) return {};
  return n.op ? n.op->tags : unregisteredOpTags(n.target);
}

std::string_view nodeKindName(NodeKind k) {
  switch (k) {
    case NodeKind::Placeholder: return "placeholder";
    case NodeKind::Call: return "call";
    case NodeKind::Output: return "output";
  }
  return "?";
}

NodeRef Graph::append(Node node) {
  const auto index = static_cast<int32_t>(nodes_.size());
  nodes_.push_back(std::move(node));
  index_.insert(index, nameOf());  // a duplicate keeps the first; verify() reports it
  return NodeRef{index};
}

std::optional<NodeRef> Graph::find(std::string_view name) const {
  const int32_t index = index_.find(name, nameOf());
  if (index < 0) return std::nullopt;
  return NodeRef{index};
}

std::string Graph::uniqueName(std::string_view base) {
  auto it = nextSuffix_.find(base);
  if (it == nextSuffix_.end()) it = nextSuffix_.emplace(std::string(base), 0).first;
  for (int64_t& next = it->second;; ++next) {
    std::string candidate = next == 0 ? std::string(base) : std::string(base) + "_" + std::to_string(next);
    if (!find(candidate)) {
      ++next;
      return candidate;
    }
  }
}

std::vector<NodeRef> Graph::placeholders() const {
  std::vector<NodeRef> out;
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].kind == NodeKind::Placeholder) out.push_back(NodeRef{static_cast<int32_t>(i)});
  return out;
}

const Node* Graph::outputNode() const {
  if (nodes_.empty() || nodes_.back().kind != NodeKind::Output) return nullptr;
  return &nodes_.back();
}

void forEachNodeRef(const Value& v, const std::function<void(NodeRef)>& fn) {
  if (auto* r = v.tryAs<NodeRef>()) fn(*r);
  else if (auto* l = v.tryAs<ValueList>())
    for (const auto& e : *l) forEachNodeRef(e, fn);
}

void forEachNodeRef(const Node& n, const std::function<void(NodeRef)>& fn) {
  for (const auto& a : n.args) forEachNodeRef(a, fn);
  for (const auto& [k, a] : n.kwargs) forEachNodeRef(a, fn);
}

std::vector<std::vector<int32_t>> Graph::users() const {
  std::vector<std::vector<int32_t>> out(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    forEachNodeRef(nodes_[i], [&](NodeRef r) {
      if (r.index >= 0 && static_cast<size_t>(r.index) < nodes_.size()) {
        auto& u = out[r.index];
        if (u.empty() || u.back() != static_cast<int32_t>(i)) u.push_back(static_cast<int32_t>(i));
      }
    });
  }
  return out;
}

namespace {

std::string at(const Node& n) { return "%" + n.name; }

// Does node `n` produce a single tensor? nullopt when unknown (no meta, unknown op).
std::optional<bool> producesTensor(const Node& n) {
  if (n.val.is<TensorMeta>()) return true;
  if (!n.val.isNone()) return false;
  if (n.kind != NodeKind::Call || !n.op) return std::nullopt;
  const auto& rets = n.op->schema.returns;
  if (rets.size() != 1) return false;
  if (rets[0].type.kind == ArgKind::Any) return std::nullopt;
  return rets[0].type.kind == ArgKind::Tensor && !rets[0].type.isList;
}

// A node that gives a Python number (size arithmetic: operator.truediv's float, a SymInt). FX
// passes one where a Tensor is expected as PyTorch's arg parser does, as a wrapped number
// (mul.Tensor(x, s0 / s1) in an upsampling's scale); the elementwise ops take it so.
bool producesNumber(const Node& n) {
  if (n.kind != NodeKind::Call || !n.op || n.op->schema.returns.size() != 1) return false;
  const SchemaType& t = n.op->schema.returns[0].type;
  return !t.isList && (t.kind == ArgKind::Float || t.kind == ArgKind::Int || t.kind == ArgKind::SymInt ||
                       t.kind == ArgKind::Scalar);
}

// Explains a use before definition: a path back to `user` if the reference is part of a cycle.
std::string describeForwardUse(const std::vector<Node>& nodes, size_t user, size_t used) {
  std::vector<int32_t> parent(nodes.size(), -1);
  std::vector<size_t> stack{used};
  std::unordered_set<size_t> seen{used};
  while (!stack.empty()) {
    size_t cur = stack.back();
    stack.pop_back();
    bool found = false;
    forEachNodeRef(nodes[cur], [&](NodeRef r) {
      if (found || r.index < 0 || static_cast<size_t>(r.index) >= nodes.size()) return;
      size_t next = static_cast<size_t>(r.index);
      if (next == user) {
        parent[user] = static_cast<int32_t>(cur);
        found = true;
      } else if (seen.insert(next).second) {
        parent[next] = static_cast<int32_t>(cur);
        stack.push_back(next);
      }
    });
    if (found) {
      std::string path = at(nodes[user]);
      for (int32_t p = parent[user]; p != -1; p = parent[p]) {
        path = at(nodes[p]) + " -> " + path;
        if (static_cast<size_t>(p) == used) break;
      }
      return "cycle: " + at(nodes[user]) + " -> " + path;
    }
  }
  return "move " + at(nodes[used]) + " before " + at(nodes[user]);
}

Status verifyMeta(const Value& val, const std::string& where) {
  if (auto* m = val.tryAs<TensorMeta>()) {
    if (m->sizes.size() != m->strides.size())
      return invalidInput("meta has " + std::to_string(m->sizes.size()) + " sizes but " +
                              std::to_string(m->strides.size()) + " strides", where);
    for (const auto& s : m->sizes)
      if (!s.isSymbolic() && s.hint() < 0) return invalidInput("meta has negative size " + s.str(), where);
    for (const auto& s : m->strides)
      if (!s.isSymbolic() && s.hint() < 0) return invalidInput("meta has negative stride " + s.str(), where);
  } else if (auto* l = val.tryAs<ValueList>()) {
    for (const auto& e : *l) FATHOM_TRY(verifyMeta(e, where));
  }
  return {};
}

Status verifyCall(const std::vector<Node>& nodes, const Node& n) {
  if (!n.op && n.opaque) return {};
  if (!n.op) return invalidInput(OpRegistry::global().unknownOpMessage(n.target), at(n));
  auto bound = bindArguments(n.op->schema, n.args, n.kwargs);
  if (!bound.ok()) return invalidInput(bound.error().message, at(n));
  const auto& schemaArgs = n.op->schema.args;
  for (size_t i = 0; i < schemaArgs.size(); ++i) {
    if (schemaArgs[i].type.kind != ArgKind::Tensor) continue;
    std::string problem;
    forEachNodeRef((*bound)[i], [&](NodeRef r) {
      const Node& src = nodes[static_cast<size_t>(r.index)];
      if (problem.empty() && producesTensor(src) == false && !producesNumber(src))
        problem = "argument '" + schemaArgs[i].name + "' must be a tensor but " + at(src) +
                  " is not one (use getitem to pick an element of a multi-output op)";
    });
    if (!problem.empty()) return invalidInput(problem, at(n));
  }
  return {};
}

}  // namespace

Status Graph::verify() const {
  // Names are unique when each maps to its own node in the index (which keeps a name's first
  // node). That needs no table of its own; a stale index or a repeat falls back to counting.
  bool namesUnique = index_.size() == nodes_.size();
  for (size_t i = 0; namesUnique && i < nodes_.size(); ++i)
    namesUnique = index_.find(nodes_[i].name, nameOf()) == static_cast<int32_t>(i);
  std::unordered_set<std::string_view> names;
  bool seenCall = false;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    if (n.name.empty()) return invalidInput("node " + std::to_string(i) + " has no name");
    if (!namesUnique && !names.insert(n.name).second) return invalidInput("duplicate node name", at(n));
    std::string refProblem;
    forEachNodeRef(n, [&](NodeRef r) {
      if (!refProblem.empty()) return;
      if (r.index < 0 || static_cast<size_t>(r.index) >= nodes_.size())
        refProblem = "refers to a node that does not exist";
      else if (static_cast<size_t>(r.index) >= i)
        refProblem = "input " + at(nodes_[r.index]) + " used before its definition (" +
                     describeForwardUse(nodes_, i, static_cast<size_t>(r.index)) + ")";
      else if (nodes_[r.index].kind == NodeKind::Output)
        refProblem = "uses the output node " + at(nodes_[r.index]);
    });
    if (!refProblem.empty()) return invalidInput(refProblem, at(n));
    FATHOM_TRY(verifyMeta(n.val, at(n)));
    switch (n.kind) {
      case NodeKind::Placeholder:
        if (seenCall) return invalidInput("placeholder after a call node; inputs come first", at(n));
        if (!n.args.empty()) return invalidInput("placeholder with arguments", at(n));
        break;
      case NodeKind::Call:
        seenCall = true;
        FATHOM_TRY(verifyCall(nodes_, n));
        break;
      case NodeKind::Output:
        if (i + 1 != nodes_.size()) return invalidInput("output node is not the last node", at(n));
        if (n.args.size() != 1) return invalidInput("output node must have exactly one argument", at(n));
        break;
    }
  }
  if (!outputNode()) return invalidInput("graph has no output node");
  return {};
}

}  // namespace fathom
