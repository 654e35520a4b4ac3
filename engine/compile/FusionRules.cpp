// The node facts of FusionRules.h.
#include "engine/compile/FusionRules.h"

#include <algorithm>
#include <array>

namespace fathom {
namespace {

// Composites whose loops stay inside one row (the last dims): a later codegen writes each as one
// kernel of its own kind. Inductor decomposes them into reductions plus pointwise ops; Fathom
// keeps the ATen op, so they are named here (the tags only say Composite, which pooling,
// losses and embeddings share).
constexpr std::array<std::string_view, 7> kRowLocal = {
    "aten._softmax.default",         "aten._softmax_backward_data.default",
    "aten._log_softmax.default",     "aten._log_softmax_backward_data.default",
    "aten._safe_softmax.default",    "aten.native_layer_norm.default",
    "aten.native_layer_norm_backward.default",
};

// Views that only re-read the same elements in row-major order under new sizes.
constexpr std::array<std::string_view, 6> kReshapes = {
    "aten.view.default",      "aten._unsafe_view.default", "aten.reshape.default",
    "aten.squeeze.dim",       "aten.squeeze.default",      "aten.unsqueeze.default",
};

template <size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view target) {
  return std::find(names.begin(), names.end(), target) != names.end();
}

const TensorMeta* argumentMeta(const Graph& graph, const Node& node) {
  if (node.args.empty()) return nullptr;
  const NodeRef* ref = node.args[0].tryAs<NodeRef>();
  return ref ? resultMeta(graph.node(*ref)) : nullptr;
}

// A reshape of contiguous data into contiguous data keeps every element's linear index, so a
// pointwise consumer may read through it at the kernel's index. Anything else (a transpose, a
// slice, an expand, a view of strided data) changes the index: its result is a kernel input.
bool isFoldableReshape(const Graph& graph, const Node& node) {
  if (!listed(kReshapes, node.target)) return false;
  const TensorMeta* in = argumentMeta(graph, node);
  const TensorMeta* out = resultMeta(node);
  return in && out && node.val.is<TensorMeta>() && isStaticallyContiguous(*in) && isStaticallyContiguous(*out) &&
         in->storageOffset.identical(out->storageOffset);
}

}  // namespace

const TensorMeta* resultMeta(const Node& node) {
  if (const auto* meta = node.val.tryAs<TensorMeta>()) return meta;
  if (const auto* list = node.val.tryAs<ValueList>())
    for (const Value& v : *list)
      if (const auto* meta = v.tryAs<TensorMeta>()) return meta;
  return nullptr;
}

bool sameSizes(const SymIntList& a, const SymIntList& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](const SymInt& x, const SymInt& y) { return x.identical(y); });
}

bool isStaticallyContiguous(const TensorMeta& meta) {
  if (meta.strides.size() != meta.sizes.size()) return false;
  SymInt expected = 1;
  for (size_t d = meta.sizes.size(); d-- > 0;) {
    if (meta.sizes[d].identical(SymInt(1))) continue;
    if (!meta.strides[d].identical(expected)) return false;
    expected = expected * meta.sizes[d];
  }
  return true;
}

bool isFusionBarrier(const Node& node) {
  const OpTags tags = tagsOf(node);
  if (node.opaque || !node.op) return true;
  if (tags.has(OpTag::Inplace) || tags.has(OpTag::Random)) return true;
  return tags.has(OpTag::Structural) && node.target != "getitem";  // hooks run user code
}

FusionRole fusionRoleOf(const Graph& graph, const Node& node) {
  if (node.kind != NodeKind::Call || node.opaque || !node.op) return FusionRole::Extern;
  const OpTags tags = tagsOf(node);
  if (node.target == "getitem") return FusionRole::Getitem;
  if (tags.has(OpTag::Random)) return FusionRole::Extern;
  if (tags.has(OpTag::Pointwise) && node.val.is<TensorMeta>()) return FusionRole::Pointwise;
  if (tags.has(OpTag::Reduction) && resultMeta(node) && argumentMeta(graph, node)) return FusionRole::Reduction;
  if (listed(kRowLocal, node.target)) return FusionRole::RowLocal;
  if (tags.has(OpTag::View) && isFoldableReshape(graph, node)) return FusionRole::Reshape;
  return FusionRole::Extern;
}

}  // namespace fathom
