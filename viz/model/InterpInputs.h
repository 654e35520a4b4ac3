// InterpInputs: the real inputs an interpreter run starts from - one graph's example inputs, or an
// AOT dump's training step (the joint graph's inputs split into the forward's primals and the
// tangents, as `fathom check` does) - drawn at the sizes the user asked for, refused with the
// failing guard when the dump's guards forbid them (engine/aot/CheckSizes.h).
#pragma once

#include <string>

#include "engine/dump/Dump.h"

namespace fathom::viz {

struct RunInputs {
  ValueList first;     // the first graph's inputs (a training step: the forward's primals)
  ValueList tangents;  // a training step: the gradients coming into the backward
};

// `graph`: the graph run alone, or "" for the training step of `dump` (which has a partition).
// `sizes`: "" as recorded, "s0=4,s1=64" or "input_ids=4x64".
Result<RunInputs> drawRunInputs(const Dump& dump, const std::string& graph, const std::string& sizes);

// A training step's later graphs: the backward on what the forward really returned (its saved
// values) and the tangents; the joint on primals and tangents.
Result<ValueList> backwardRunInputs(const Dump& dump, const ValueList& forwardOutputs, const ValueList& tangents);
ValueList jointRunInputs(const Dump& dump, const ValueList& primals, const ValueList& tangents);

}  // namespace fathom::viz
