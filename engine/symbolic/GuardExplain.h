// GuardExplain: why would these sizes recompile? (`fathom guards DUMP --explain s0=4,s1=64` or
// `--explain input_ids=4x64,attention_mask=4x64`). Every check of the trace's guard set that the
// sizes fail - a recorded guard (with its provenance), a symbol's range, two dimensions duck
// sizing gave one symbol, a dimension specialized to 0 or 1 - and the nearest sizes that pass
// every guard: the point closest in the sum of |size - given| (Z3's optimizer). Given the traced
// graph's inputs, input sizes are also checked where the cache checks them and the trace left
// no symbol: each input's rank and every dimension the trace saw as a constant.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/symbolic/GuardCheck.h"
#include "engine/symbolic/GuardSet.h"

namespace fathom::sym {

// What the user gave: symbol values, or input sizes (each dimension is one of the trace's
// sources: "input_ids.size(1)"). Written as text "s0=4,s1=64" or "input_ids=4x64,..." and read
// by parseExplainSizes (ExplainSizesText.h).
struct ExplainSizes {
  std::map<int32_t, int64_t> symbols;
  std::map<std::string, std::vector<int64_t>> inputs;
};
// Whether input sizes for `name` can be explained: it is an input the trace read sizes from (a
// symbol's source or a zero-one specialization's, "name.size(1)"), or one of `traced`.
bool isExplainableInput(const ShapeEnv& env, const std::vector<GuardedInput>& traced, const std::string& name);

struct FailedCheck {
  std::string kind;    // "guard", "range", "duck", "zero-one", "rank", "static"
  std::string expr;    // "s1 < 512", "s0 >= 2", "input_ids.size(0) == attention_mask.size(0)"
  std::optional<size_t> guard;  // kind "guard": index into env.guards()
  std::string actual;  // "s1 = 600"
};

struct ExplainReport {
  std::map<int32_t, int64_t> values;    // every symbol, as the sizes bind it
  std::vector<FailedCheck> failed;
  std::vector<std::string> notes;       // dimensions that are not symbols of this trace, ...
  SolveResult nearest;                  // Sat: model = the nearest passing symbol values
  std::map<std::string, std::vector<int64_t>> nearestInputs;  // when inputs were given
  std::vector<GuardQuery> queries;
};

Result<ExplainReport> explainSizes(const ShapeEnv& env, const ExplainSizes& sizes, const GuardCheckOptions& options = {},
                                   const std::vector<GuardedInput>& traced = {});

}  // namespace fathom::sym
