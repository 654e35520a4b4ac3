// GraphModel: the view model of one graph of a loaded Dump - per node, everything the GUI shows,
// filters or navigates on, computed once (O(nodes + edges + guards)) and immutable after.
//
//   auto dump = loadDump("bert-aot.fathom.json");
//   auto fwd = GraphModel::build(*dump, "forward");   // Result<GraphModel>
//   const NodeInfo& n = fwd->node(42);                 // n.metaText "f32[s0, 768]",
//                                                      // n.metaEval "f32[8, 768]"
//
// Sides: a node's side comes from its stage tag ("forward"/"backward"); untagged, from the graph
// it is in ("forward"/"backward" of a partition); in a joint graph without tags, from whether the
// forward graph holds a node of that name. Partition roles come from dump.partition, or - for
// PyTorch exports, which carry no partition section - from the backward graph's placeholders that
// are not tangents and name a forward node ("inferred").
//
// The Dump must outlive the model (graph() points into it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"

namespace fathom::viz {

enum class Side : uint8_t { None, Forward, Backward };
std::string_view sideName(Side s);  // "", "forward", "backward"

enum class PartitionRole : uint8_t {
  None,
  SavedForBackward,  // forward graph: a value the backward graph reads (saved[savedIndex])
  SavedInput,        // backward graph: the placeholder that receives saved[savedIndex]
  Tangent,           // a gradient coming into the backward (tangents_*)
  Recomputed,        // backward graph: a forward op recomputed instead of saved (min-cut)
  CrossesCut,        // joint graph: the forward value that is saved across the cut
};
std::string_view partitionRoleName(PartitionRole r);  // "saved", "saved-input", ...

struct NodeInfo {
  int32_t index = 0;
  NodeKind kind = NodeKind::Call;
  std::string name;          // "addmm_3"
  std::string op;            // "aten.addmm.default"; "placeholder" / "output" for those kinds
  std::string opShort;       // "addmm"
  std::string metaText;      // as recorded: "f32[s0, 256]", "(f32[s0, 256], f32[s0])", "Sym(s0)"
  std::string metaEval;      // at the ShapeEnv hints: "f32[8, 256]"; same as metaText if static
  std::string dtype;         // "f32" (first tensor output), "" when none
  std::vector<int32_t> inputs;  // distinct input nodes, in argument order
  std::vector<int32_t> users;   // distinct users, in graph order
  Side side = Side::None;
  PartitionRole role = PartitionRole::None;
  int32_t savedIndex = -1;   // into GraphModel::saved() when the role involves a saved value
  std::string module;        // "encoder.layer.3.attention"; inferred for parameters, see below
  bool moduleInferred = false;  // placeholder "layers.0.weight" placed in module "layers.0"
  std::string source;        // "samples/models/BertModel.cpp:84"
  std::vector<int32_t> guards;  // indices into dump.shapeEnv->guards() naming this node
};

// A value crossing the partition, as the model knows it (from PartitionInfo, or inferred).
struct SavedValue {
  std::string name;        // forward node = backward placeholder
  std::string metaText;    // "f32[s0, 256]"
  std::string metaEval;    // "f32[8, 256]"
  int64_t bytes = 0;       // under the hints; 0 when inferred and unknown
  bool isSymInt = false;
};

class GraphModel {
 public:
  // The graph named `graphName` of `dump`; an error when there is none.
  static Result<GraphModel> build(const Dump& dump, std::string_view graphName);

  const std::string& graphName() const { return name_; }
  const Graph& graph() const { return *graph_; }
  const Dump& dump() const { return *dump_; }
  size_t size() const { return nodes_.size(); }
  const NodeInfo& node(int32_t i) const { return nodes_[static_cast<size_t>(i)]; }
  const std::vector<NodeInfo>& nodes() const { return nodes_; }
  int32_t find(std::string_view name) const;  // -1 when absent

  // Values saved for the backward (empty when the dump has no forward/backward pair).
  const std::vector<SavedValue>& saved() const { return saved_; }
  bool savedInferred() const { return savedInferred_; }  // no partition section; from names
  bool hasBothSides() const { return hasForward_ && hasBackward_; }
  int64_t numEdges() const { return numEdges_; }

 private:
  std::string name_;
  const Dump* dump_ = nullptr;
  const Graph* graph_ = nullptr;
  std::vector<NodeInfo> nodes_;
  std::vector<SavedValue> saved_;
  bool savedInferred_ = false, hasForward_ = false, hasBackward_ = false;
  int64_t numEdges_ = 0;
};

// Meta text of a recorded value: sizes only, symbolic ("f32[s0, 256]") or at the hints
// ("f32[8, 256]"). Empty for None.
std::string metaText(const Value& val, bool atHints);
// "addmm" for "aten.addmm.default", "add" for "aten.add.Tensor", "getitem" for "getitem".
std::string shortOpName(std::string_view target);

}  // namespace fathom::viz
