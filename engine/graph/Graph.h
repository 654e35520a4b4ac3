// Graph: Fathom's IR, shaped like an FX graph. Nodes are kept in execution order:
//   placeholder  - a graph input
//   call         - an op (from the registry) applied to arguments: constants, node references
//                  (NodeRef), lists of them; keyword arguments are kept by name
//   output       - the last node; its single argument is the list of returned values
// A multi-output op yields a list; `getitem(node, i)` nodes pick its elements, as in FX.
//
// Each node carries its meta: the fake value recorded when the graph was made (TensorMeta, a
// list of them, or a SymInt), where it came from (source location, module path) and the stage
// that produced it. verify() checks the invariants every consumer relies on.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/Result.h"
#include "engine/core/StringHash.h"
#include "engine/graph/NodeIndexByName.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/OpSchema.h"
#include "engine/ops/Value.h"

namespace fathom {

enum class NodeKind { Placeholder, Call, Output };
std::string_view nodeKindName(NodeKind k);

struct Provenance {
  std::string source;   // "samples/Mlp.cpp:14" - the user code that called the op
  std::string module;   // "encoder.layer.3.attention"
  bool empty() const { return source.empty() && module.empty(); }
};

struct Node {
  std::string name;
  NodeKind kind = NodeKind::Call;
  std::string target;             // op name for calls ("aten.add.Tensor"); empty otherwise
  const OpDef* op = nullptr;      // resolved op; null when the op is unknown to this build
  ValueList args;
  Kwargs kwargs;
  Value val;                      // recorded fake value; None when unknown
  Provenance provenance;
  std::string stage;              // "forward", "backward", ... ; empty when not tagged
  // An op this build does not know, kept at the user's request (op is null, args unbound): it
  // runs as its recorded meta (see Interpreter::opaqueValue).
  bool opaque = false;
};

class Graph {
 public:
  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<Node>& mutableNodes() { return nodes_; }  // callers must keep the index in sync
  size_t size() const { return nodes_.size(); }
  const Node& node(NodeRef r) const { return nodes_[static_cast<size_t>(r.index)]; }
  Node& node(NodeRef r) { return nodes_[static_cast<size_t>(r.index)]; }

  // Room for `n` nodes, so building a large graph does not move nodes or rehash names.
  void reserve(size_t n) {
    nodes_.reserve(n);
    index_.reserve(n, nameOf());
  }
  // Appends a node; its name must be new. Returns its reference.
  NodeRef append(Node node);
  std::optional<NodeRef> find(std::string_view name) const;
  // A fresh node name based on `base` ("add" -> "add", "add_1", ...). Remembers the next
  // suffix per base, so naming n nodes "add" costs O(n), not O(n^2).
  std::string uniqueName(std::string_view base);

  std::vector<NodeRef> placeholders() const;
  const Node* outputNode() const;  // null when the graph has none

  // Checks the invariants: unique names, placeholders first, exactly one output and it is last,
  // every reference defined before use (a cycle is reported as one), known ops, arguments that
  // bind to the op's schema, tensor arguments that refer to tensor-producing nodes, and recorded
  // meta with consistent rank. The error's `where` is the node ("%add_3").
  Status verify() const;

  // Nodes that use each node (by index), computed on demand.
  std::vector<std::vector<int32_t>> users() const;

 private:
  // The index reads names from nodes_ by position, so it survives nodes_ moving.
  struct NameOf {
    const std::vector<Node>* nodes;
    std::string_view operator()(int32_t i) const { return (*nodes)[static_cast<size_t>(i)].name; }
  };
  NameOf nameOf() const { return {&nodes_}; }

  std::vector<Node> nodes_;
  NodeIndexByName index_;
  StringMap<int64_t> nextSuffix_;  // base name -> next suffix uniqueName tries
};

// The tags of a node's op: its OpDef's, or for an op this build does not register (an opaque
// node) what the table knows of it by name (OpTags.h). None for placeholders and the output.
OpTags tagsOf(const Node& n);

// Every NodeRef inside a value, depth first.
void forEachNodeRef(const Value& v, const std::function<void(NodeRef)>& fn);
void forEachNodeRef(const Node& n, const std::function<void(NodeRef)>& fn);

}  // namespace fathom
