// A run's outputs judged against the ones a producer recorded for the same inputs (PyTorch's
// real results, written by the exporter): `fathom run` on an exported dump. Layouts must match
// exactly (dtype, sizes, strides); values by the rule that fits the output:
//
//   random     computed from a random op: Fathom's generator is not PyTorch's, layout only
//   strict     --rtol/--atol given, or an output an opaque node feeds (its stand-in zeros run
//              in the float64 run too): max |difference| <= rtol * max |recorded| + atol
//   allclose   a float output allclose to PyTorch's (tol): PyTorch's rule, first half
//   fp64       else its error against a float64 run of the same graph within a multiple of
//              PyTorch's own (AccuracyRule.h): PyTorch's rule, second half
//   exact      an integer or bool output: equal
//   max-index  the indices of max_pool2d/3d_with_indices: equal, or each differing index points at
//              an element of its window as large as the one Fathom chose (within tol of the
//              input's scale): a rounding-level change picks another of two equal maxima
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/graph/ExampleInput.h"
#include "engine/graph/Graph.h"
#include "engine/interp/AccuracyRule.h"
#include "engine/interp/ValueDiff.h"

namespace fathom {

enum class OutputRule { Random, Strict, Allclose, Float64, Exact, MaxIndex };
const char* outputRuleName(OutputRule rule);  // "random", "strict", "allclose", "fp64", "exact", "max-index"

struct OutputVerdict {
  size_t index = 0;
  std::string name;             // the recorded output's name
  ValueDiff diff;               // layout, and the largest |difference| with its scale
  OutputRule rule = OutputRule::Exact;
  AccuracyJudgement accuracy;   // allclose / fp64
  size_t indicesDiffering = 0;  // max-index: how many differ (each at an equal maximum when ok)
  bool ok = false;
  std::string note;             // why it failed, or why the float64 run was not available
};

struct RecordedOptions {
  bool strict = false;  // --rtol/--atol: the strict comparison, for every value
  double rtol = 1e-4, atol = 1e-5;
  double tol = kSameTolerance;
};

// `inputs` are the specs the run drew its inputs from (drawn again for the float64 run, since a
// graph may write its inputs); `outputs` what the run returned.
Result<std::vector<OutputVerdict>> judgeRecorded(const Graph& graph, const std::vector<ExampleInput>& inputs,
                                                 const ValueList& outputs,
                                                 const std::vector<std::optional<ExampleInput>>& recorded,
                                                 const RecordedOptions& options);

}  // namespace fathom
