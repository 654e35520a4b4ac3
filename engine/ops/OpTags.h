// What kind of op an op is, and the facts passes ask about it, as tags on its OpDef - the way
// PyTorch's partitioner reads torch.Tag.pointwise instead of keeping its own list of names.
// Every op has exactly one kind; properties come on top. The tags of the built-in ops are one
// table (OpTagTable.cpp), attached by OpRegistry::add as each op registers; OpTagsTest checks
// that every registered op has a row, every row an op, and that the tags agree with the schemas
// (a View's result aliases its input, every HasInplace op has its in-place form).
//
//   if (node.op && node.op->tags.has(OpTag::Recomputable)) ...   // aot/MinCut.cpp
//
// Adding an op: its row in OpTagTable.cpp, besides its schema, meta and kernel.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fathom {

enum class OpTag : uint32_t {
  // Kinds (exactly one per op).
  Pointwise = 1u << 0,    // elementwise over broadcast operands: add, relu, eq, where, clone, ...
  Reduction = 1u << 1,    // over dimensions: sum, mean, amax, var, argmax, cumsum
  View = 1u << 2,         // the result shares the input's storage: view, permute, slice, split, ...
  Factory = 1u << 3,      // a new tensor from sizes or another's meta only: zeros, full_like, arange
  Contraction = 1u << 4,  // mm, bmm, addmm, convolution and its backward
  Composite = 1u << 5,    // several loops: normalization, softmax, pooling, losses, dropout, embedding
  Indexing = 1u << 6,     // gather, index_select, the scatter-like backward of slice and select
  Shape = 1u << 7,        // copies that rearrange: cat, stack, flip
  SymInt = 1u << 8,       // size arithmetic: sym_size, operator.mul, ...
  Structural = 1u << 9,   // graph plumbing: getitem, fathom.call_hook
  Inplace = 1u << 10,     // writes its first argument: add_, copy_, fill_, bernoulli_, ...
  // Properties.
  Random = 1u << 16,        // draws random numbers: results differ run to run
  Recomputable = 1u << 17,  // cheap enough for the min-cut partitioner to recompute in the backward
  MayAlias = 1u << 18,      // sometimes a view and sometimes not (contiguous, reshape): aliasing says nothing
  HasInplace = 1u << 19,    // an in-place form "X_" is registered from it (InplaceOps.cpp)
};

constexpr uint32_t kOpKindMask = (1u << 16) - 1;

struct OpTags {
  uint32_t bits = 0;

  constexpr bool has(OpTag t) const { return (bits & static_cast<uint32_t>(t)) != 0; }
  constexpr uint32_t kind() const { return bits & kOpKindMask; }
  constexpr bool operator==(const OpTags&) const = default;
};

constexpr OpTags operator|(OpTag a, OpTag b) { return {static_cast<uint32_t>(a) | static_cast<uint32_t>(b)}; }
constexpr OpTags operator|(OpTags a, OpTag b) { return {a.bits | static_cast<uint32_t>(b)}; }

// "pointwise, recomputable, has-inplace".
std::string describeTags(OpTags tags);

// The table's row for a built-in op (by registry name, "aten.add.Tensor"); no bits when none.
OpTags builtinOpTags(std::string_view name);

// Tags known for ops this build does not register but PyTorch graphs may hold (kept as opaque
// nodes with --keep-unknown-ops): the random ones, so comparisons leave them alone.
OpTags unregisteredOpTags(std::string_view name);

// Every row of the table, for the coverage test: name, tags, and whether the op is registered.
struct OpTagRow {
  const char* name;
  OpTags tags;
  bool registered;
};
const OpTagRow* opTagRows(size_t* count);

}  // namespace fathom
