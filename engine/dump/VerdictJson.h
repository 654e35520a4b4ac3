// VerdictJson: `fathom run`'s judgement of its outputs against the recorded ones
// (engine/interp/RecordedComparison.h) as JSON, the one encoder `run --json` prints under
// "recorded":
//
//   {"compared": 2, "mismatches": 0, "outputs": [{"index": 0, "name": "output_0",
//    "rule": "fp64", "ok": true, "max_abs_diff": 0.003, "scale": 4.1, "error": 1.2e-06,
//    "reference_error": 1.1e-06, "allowed": 3.3e-06, "dtype_match": true, "sizes_match": true,
//    "strides_match": true, "random": false}, ...]}
//
// "error", "reference_error" and "allowed" come with the rules allclose and fp64;
// "indices_differing" with max-index; "note" when a rule was not available or says why it failed.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace fathom {

struct OutputVerdict;

nlohmann::ordered_json verdictsJson(const std::vector<OutputVerdict>& verdicts);

}  // namespace fathom
