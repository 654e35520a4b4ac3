// Real tensors for a graph's inputs: from a dump's example inputs (seeded draws or inline
// values), or drawn from the placeholders' recorded meta when a dump has none. Draws use
// Fathom's own generator, so the same seed gives the same values on every machine.
#pragma once

#include <map>

#include <optional>
#include <vector>

#include "engine/graph/ExampleInput.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Value.h"

namespace fathom {

// One input's tensor, in its own layout, with its seeded, inline or side-file values.
Result<Tensor> materializeInput(const ExampleInput& in);
// Tensors for `inputs`; `seedOverride` replaces each seeded input's seed by one derived from it.
Result<ValueList> materializeInputs(const std::vector<ExampleInput>& inputs,
                                    std::optional<uint64_t> seedOverride = std::nullopt);

// Example inputs (seeded) matching a graph's placeholders' meta; an error names a placeholder
// without concrete tensor meta.
Result<std::vector<ExampleInput>> inputsFromPlaceholders(const Graph& graph, uint64_t seed);

// The example inputs graph `graphName` (null when the dump has none of that name) runs with:
// `fromFile` when given, else `recorded` (the dump's own, dump.inputsFor(name)), else drawn from
// the placeholders. Errors name the graph.
Result<std::vector<ExampleInput>> chooseInputs(const Graph* graph, const std::string& graphName,
                                               const std::vector<ExampleInput>* recorded,
                                               const std::vector<ExampleInput>* fromFile);

// `inputs` (one per placeholder of `g`) resized to the placeholders' recorded sizes with the
// dump's symbols bound by name ({"s0": 8, "s1": 64}). An input whose size changes and that
// held recorded values (inline or in a side file) gets seeded values instead.
Result<std::vector<ExampleInput>> resizeInputs(const Graph& g, std::vector<ExampleInput> inputs,
                                               const std::map<std::string, int64_t>& symbols);

}  // namespace fathom
