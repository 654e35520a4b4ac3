// ExplainSizesText: the text both front ends take for "which sizes should I explain?" - the CLI's
// `fathom guards DUMP --explain TEXT` and the GUI guards panel's explain box - read into the
// ExplainSizes that explainSizes (GuardExplain.h) answers for:
//
//   s0=4,s1=64                          symbol values: NAME=SIZE, a symbol of the trace
//   input_ids=4x64,attention_mask=4x64  input sizes: NAME=AxBxC, an input the trace read sizes
//                                       from, or one of `traced` (the forward graph's inputs)
//
// Not mixed; sizes are integers >= 0. Errors are InvalidInput, worded for the command line
// ("--explain: 'x=ax3': sizes are AxBxC with integers >= 0 (e.g. ...)").
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/symbolic/GuardExplain.h"

namespace fathom::sym {

Result<ExplainSizes> parseExplainSizes(const std::string& text, const ShapeEnv& env, const std::vector<GuardedInput>& traced = {});

}  // namespace fathom::sym
