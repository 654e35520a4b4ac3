// SamplePlan: the small real inputs meta inference runs an op's kernel on. From one example call
// (bound arguments, tensors as TensorMeta) it finds the tensor inputs (`TensorSlot`s) and turns
// their sizes into *size variables*: dims with the same example size (above 1) are one variable
// and vary together - duck sizing, so `add(x[4, 6], y[4, 6])` stays a valid call - while sizes 0
// and 1 stay fixed (a broadcast dim stays a broadcast dim). Everything that is not a tensor
// (dims, pads, scalars) is kept as given.
//
// A run gives every variable a value and every input a layout; its inputs are real tensors of
// random small integers (so data-dependent kernels such as nonzero see zeros), drawn from the
// run's seed. The fit runs and the check runs use disjoint sizes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/ops/Value.h"
#include "engine/ops/infer/MetaRule.h"

namespace fathom::infer {

enum class SampleLayout {
  Contiguous,
  Transposed,  // the last two dims swapped in memory
  Reversed,    // every dim reversed in memory (a permutation for 3-d and up)
  Offset,      // contiguous, at storage offset 3
  ChannelsLast,  // NHWC for 4-d (what NN kernels keep), reversed for other ranks
};
std::string_view sampleLayoutName(SampleLayout l);

struct SampleRun {
  std::vector<int64_t> values;          // per size variable
  std::vector<SampleLayout> layouts;    // per input
  uint64_t seed = 1;
  double zeros = 0.3;                   // fraction of zero elements in the data
};

class SamplePlan {
 public:
  // An error when the example has no tensor input or a symbolic size.
  static Result<SamplePlan> fromExample(const ValueList& exampleArgs);

  const std::vector<TensorSlot>& slots() const { return slots_; }
  size_t inputCount() const { return slots_.size(); }
  const std::vector<TensorMeta>& exampleInputs() const { return example_; }
  // Per input and dim: the size variable, or -1 for a fixed size (0 or 1).
  const std::vector<std::vector<int>>& variables() const { return vars_; }
  size_t variableCount() const { return varCount_; }

  // The example's own sizes, contiguous.
  SampleRun exampleRun() const;
  // Runs for fitting (5: contiguous, transposed, offset, mixed layouts with channels-last) and for checking the
  // fit (2, on sizes no fit run used, mixed layouts).
  std::vector<SampleRun> fitRuns() const;
  std::vector<SampleRun> checkRuns() const;
  // The same sizes and layouts as `run`, other data (seed, zero fraction).
  static SampleRun redrawn(const SampleRun& run, uint64_t seed, double zeros);

  std::vector<std::vector<int64_t>> inputSizes(const SampleRun& run) const;
  // The arguments of `run`: the example's, with its real tensors in the tensor slots.
  Result<ValueList> realArgs(const SampleRun& run) const;
  // "in0 [4, 6] transposed, in1 [4, 6] contiguous"
  std::string describe(const SampleRun& run) const;

 private:
  ValueList args_;
  std::vector<TensorSlot> slots_;
  std::vector<TensorMeta> example_;
  std::vector<std::vector<int>> vars_;
  size_t varCount_ = 0;
};

// The tensor inputs of `args` at `slots`, as metas (a real tensor gives its own meta). An error
// names what is missing when the arguments do not have the example's structure.
Result<std::vector<TensorMeta>> inputMetas(const ValueList& args, const std::vector<TensorSlot>& slots);

}  // namespace fathom::infer
