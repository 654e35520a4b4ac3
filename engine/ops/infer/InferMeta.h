// Meta inference: the metadata of an op that has a kernel and no meta function, found by running
// the kernel. PyTorch's dynamic-shapes team listed "a fallback for custom operators without
// symbolic shape propagation, inferred by running the real operator" and never built it.
//
//   // A plugin registered "myops.pad_rows(Tensor x, int n) -> Tensor" with a kernel only:
//   ValueList example{fakeTensor(DType::Float32, {4, 6}), Value(2)};
//   Result<infer::InferredMeta> m = infer::inferMeta(*op, example);
//   if (!m.ok()) ... m.error().message: "output 0 dim 0 depends on the data: ..." (no meta)
//   m->str();   // "myops.pad_rows: out0 = [in0.d0 + 2, in0.d1], contiguous (9 kernel runs)"
//   registry.replaceMeta(op->name, m->asMetaFn());   // tracing now works on symbolic sizes
//
// How: SamplePlan (SamplePlan.h) makes small real inputs at several sizes and layouts; the kernel
// runs on them; the same sizes are run three times with other data first - any change in an
// output's size or strides is a refusal (the output depends on the data). RuleFit fits every
// output on the fit runs, then the rule must hold on the check runs (sizes no fit run used).
// When no rule fits, or the kernel rejects the sizes the plan varies, the result is a
// *specialized* meta: `specialized` is set, `whyNoRule` says what failed, and the meta function
// pins every symbolic size, stride and offset of its inputs to its hint (a guard and a constant
// specialization each, stage `infer-meta`) and runs the kernel on inputs of exactly that layout.
//
// The meta function (asMetaFn) checks what the rule assumed - the example's ranks, its constant
// arguments, its fixed sizes (0 and 1) and which dims were equal - each on symbolic sizes as a
// decision recorded with stage `infer-meta` in the ShapeEnv (node, op, source line kept). Tracing
// records the rule's output as the node's meta; the debug interpreter compares it with the real
// kernel's output like any node's, and names the rule in the mismatch (inferredMetaOf).
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/infer/MetaRule.h"

namespace fathom::infer {

// The stage of every decision an inferred meta function records.
inline constexpr const char* kInferMetaStage = "infer-meta";

struct InferredMeta {
  std::string op;
  std::vector<OutputRule> outputs;  // one per return; empty when specialized
  bool specialized = false;         // no rule fits: sizes are pinned to their hints
  std::string whyNoRule;            // when specialized: what did not fit
  int kernelRuns = 0;               // the kernel runs the inference took

  // What the rule assumes of a call (from the example).
  ValueList example;                     // the example arguments (tensors as TensorMeta)
  std::vector<TensorSlot> slots;         // where each input sits
  std::vector<TensorMeta> exampleInputs; // the example's tensor inputs, by slot
  std::vector<std::vector<int>> variables;  // per input dim: size variable, -1 for fixed
  OpFn kernel;                           // the op's kernel (the specialized meta runs it)

  // "aten.cat.default: out0 = [in0.d0, in0.d1 + in1.d1], contiguous (9 kernel runs)", or
  // "...: specialized, no rule fits: output 0 dim 0 ..."
  std::string str() const;
  // The rule alone: "out0 = [...], contiguous; out1 = ..." (or "specialized: <why>").
  std::string ruleText() const;
  // The meta function (a copy of this record inside): outputs' TensorMeta over SymInt sizes.
  OpFn asMetaFn() const;
};

// Infers `op`'s meta from its kernel, given one example call's bound arguments (one Value per
// schema argument, tensors as TensorMeta of concrete sizes). An error when the op has no kernel,
// an output is not a tensor, the kernel fails on the example's own sizes, or an output's size or
// strides depend on the data (the message names the output, dim, both values and the inputs).
Result<InferredMeta> inferMeta(const OpDef& op, const ValueList& exampleArgs);

// The inferred meta behind a meta function made by asMetaFn(), or null for any other.
const InferredMeta* inferredMetaOf(const OpFn& meta);

}  // namespace fathom::infer
