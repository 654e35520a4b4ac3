// The op registry: one entry per ATen overload ("aten.add.Tensor"), each with its schema, a meta
// function (output TensorMeta over SymInt sizes - the fake-tensor path) and a CPU kernel.
//
// Meta functions and kernels receive the bound arguments (one Value per schema argument, in
// schema order, defaults filled in); tensors arrive as TensorMeta for meta and as Tensor for
// kernels. They return one Value per schema return. Inside them FATHOM_CHECK throws OpError;
// callMeta()/callKernel() catch it, so callers only ever see a Result.
//
// Kernels compute output layouts with the same layout helpers the meta functions use, but not
// by calling the registered meta function: replacing an op's meta (to inject a faulty one in a
// test) must not change what the kernel really does.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/core/Result.h"
#include "engine/core/StringHash.h"
#include "engine/ops/OpSchema.h"
#include "engine/ops/OpTags.h"
#include "engine/ops/Value.h"

namespace fathom {

using OpFn = std::function<ValueList(const ValueList& args)>;

struct OpDef {
  FunctionSchema schema;
  std::string name;  // schema.qualifiedName(), cached
  OpFn meta;
  OpFn kernel;
  OpTags tags;       // what kind of op it is and what passes may assume (OpTags.h)
};

class OpRegistry {
 public:
  // The registry with every built-in op (filled once, on first use).
  static OpRegistry& global();

  // Adds an op from its ATen schema string; a bad schema or a duplicate name is a programming
  // error and returns an Internal error. Its tags are `tags`, or when none are given its row of
  // the built-in table (OpTagTable.cpp).
  Status add(std::string_view schema, OpFn meta, OpFn kernel, OpTags tags = {});
  // The same from a parsed schema (ops derived from another's, such as in-place variants).
  Status add(FunctionSchema schema, OpFn meta, OpFn kernel, OpTags tags = {});

  const OpDef* find(std::string_view name) const;
  // Up to `n` registered names closest to `name` (edit distance), for "did you mean".
  std::vector<std::string> suggest(std::string_view name, size_t n = 3) const;
  // "unknown op 'aten.ad.Tensor' (did you mean aten.add.Tensor?)".
  std::string unknownOpMessage(std::string_view name) const;
  std::vector<const OpDef*> all() const;  // sorted by name

  // Swaps an op's meta function or kernel (tests inject faults this way); returns the old one.
  OpFn replaceMeta(std::string_view name, OpFn meta);
  OpFn replaceKernel(std::string_view name, OpFn kernel);

 private:
  StringMap<std::unique_ptr<OpDef>> ops_;
};

// Runs an op's meta function / kernel on bound arguments. Errors are InvalidInput with the
// op's message (PyTorch-like), or Internal for anything unexpected.
Result<ValueList> callMeta(const OpDef& op, const ValueList& args);
Result<ValueList> callKernel(const OpDef& op, const ValueList& args);

// Registers every built-in op; each op family has one function (see OpTable.cpp).
void registerBuiltinOps(OpRegistry& registry);

}  // namespace fathom
