// CheckSizes: the sizes a check runs a dump's graph at when the user asks for others than traced -
// `fathom check --sizes s0=8,s1=64`, and the GUI interpreter panel's restart box, which also takes
// an input's sizes (`input_ids=4x64,attention_mask=4x64`). The example inputs are resized to them,
// and sizes that break the dump's guards are refused before anything runs, naming the first
// failing guard and where it came from (node, op, source line):
//
//   auto inputs = inputsAtSizes(dump, *dump.graph("forward"), recorded, "s0=4,s1=600", "sizes");
//   // error: "these sizes do not satisfy the dump's guards: s1 <= 512 fails with s1 = 600
//   //         (from %slice_1 = aten.slice.Tensor at samples/models/BertModel.cpp:209)"
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"

namespace fathom::aot {

// Every symbol of `env` bound to a size: those `text` gives ("s0=8,s1=64"), the others at their
// traced hints. Refuses a name that is not a symbol of the trace, and a symbol the trace replaced
// (specialized or unified: binding it would be silently ignored). `label` starts each message.
Result<std::map<std::string, int64_t>> symbolSizes(const sym::ShapeEnv& env, const std::string& text, const std::string& label);

// Refuses `inputs` (one per placeholder of `g`, a graph of `dump`) when a size the trace kept
// static differs from the recorded one, or the dump's guards reject their sizes.
Status checkSizeGuards(const Dump& dump, const Graph& g, const std::vector<ExampleInput>& inputs);

// `inputs` of graph `g` at the sizes `text` asks for - symbol values ("s0=8,s1=64") or placeholder
// sizes ("input_ids=4x64": those inputs take them, and the symbols their recorded sizes name are
// bound from them for the other inputs) - checked by checkSizeGuards.
Result<std::vector<ExampleInput>> inputsAtSizes(const Dump& dump, const Graph& g, std::vector<ExampleInput> inputs,
                                                const std::string& text, const std::string& label);

}  // namespace fathom::aot
