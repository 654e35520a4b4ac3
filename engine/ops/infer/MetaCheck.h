// MetaCheck: a declared meta function against its own kernel. The op runs at the sizes and
// layouts meta inference uses (SamplePlan.h: the example's sizes, five fit runs, two check runs);
// on each, the meta function sees the real inputs' metas and the kernel their values, and the
// first disagreement in dtype, sizes, significant strides or storage offset is reported - the
// shape of pytorch #182328, where a custom op's fake kernel claims stride 3072 and the real tensor
// has 2880:
//   "myops.f: on in0 [5, 7] transposed: output 0 strides: [7, 1] claimed, [1, 5] real (dim 0:
//    stride 7 claimed, 1 real)"
// Runs where the kernel rejects the inputs are skipped; a meta function that fails where the
// kernel runs is a disagreement.
#pragma once

#include <string>

#include "engine/core/Result.h"
#include "engine/ops/OpRegistry.h"

namespace fathom::infer {

struct MetaCheckReport {
  int runs = 0;              // runs where both the meta and the kernel were compared
  int skipped = 0;           // runs the kernel rejected
  std::string disagreement;  // the first, "" when the meta agrees with the kernel everywhere
  bool agrees() const { return disagreement.empty(); }
};

// An error when the op lacks a meta function or a kernel, or the example has no tensor input.
Result<MetaCheckReport> checkDeclaredMeta(const OpDef& op, const ValueList& exampleArgs);

}  // namespace fathom::infer
