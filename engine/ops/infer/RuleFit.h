// RuleFit: fitting each output's rule (MetaRule.h) to what the kernel did on the fit runs.
//
// A dim is fit by trying the shapes of DimRule simplest first - a constant, an input dim, an
// input dim plus a constant, a product of two dims, a dim floor-divided by 2..16, a sum of two to
// four dims plus a constant - and taking the first that gives the observed size on every run;
// among equals the lowest input and dim wins. The layout is the first of: contiguous, dense like
// input i, a view of input i (only when the output shares the input's storage on every run) that
// gives the observed significant strides and storage offset on every run.
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/ops/infer/MetaRule.h"
#include "engine/tensor/Tensor.h"

namespace fathom::infer {

// One kernel run: its inputs and what it returned.
struct Observation {
  std::string label;                         // the run's inputs, for messages
  std::vector<std::vector<int64_t>> inputSizes;
  std::vector<TensorMeta> inputs;            // concrete
  std::vector<Tensor> inputTensors;
  std::vector<Tensor> outputs;
};

// The rule of every output, or an error saying which output dim or layout no rule fits.
Result<std::vector<OutputRule>> fitOutputs(const std::vector<Observation>& runs);

// The first disagreement of `rules` with one run ("output 0 strides: ..."), "" when none.
std::string ruleDisagreement(const std::vector<OutputRule>& rules, const Observation& run);

}  // namespace fathom::infer
