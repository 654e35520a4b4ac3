// A minifier candidate as one value: a cut of the original graph. Which of its nodes are inputs,
// which values it returns, and what the shrinking passes changed on top. Every pass works on cuts
// only; the candidate graph is built from a cut (CandidateBuilder.h), so two passes that reach the
// same cut ask the oracle once (answers are cached by cutKey).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/graph/Graph.h"
#include "minifier/Minify.h"

namespace fathom::minify {

struct Cut {
  std::vector<int32_t> inputs;  // original node indices, ascending and unique (normalizeInputs)
  ValueList outputs;            // values over the original graph's nodes
  std::map<std::string, int64_t> sizes;                    // symbol name -> rebound value
  std::map<std::pair<int32_t, size_t>, double> constants;  // (node, argument) -> simpler value
  std::map<int32_t, int32_t> merged;                       // input node -> the input it reads instead
};

// The smallest failing cut so far and its candidate, built once.
struct Best {
  Cut cut;
  Candidate candidate;
};

// Sorts the cut's inputs and drops repeats (a pass may add a node twice).
void normalizeInputs(Cut& cut);

// The cache key of a cut: equal for cuts that build the same candidate.
std::string cutKey(const Cut& cut);

}  // namespace fathom::minify
