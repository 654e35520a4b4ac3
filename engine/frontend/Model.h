// Model: a root Module with declared inputs, and the two ways to run it.
//
//   runEager(model)        draws parameters and inputs from their seeds and runs the kernels now
//   trace(model, hooks)    records the same forward() into a Graph: placeholders for the
//                          parameters, then the buffers, then the inputs (as AOTAutograd lifts
//                          them), and a Dump whose example inputs are those same draws
//
// so Interpreter(dump.graphs[0].graph).run(materializeInputs(dump.inputs[0].second)) computes
// exactly what runEager(model) computed. Seeds: model.seed + the placeholder's index.
#pragma once

#include <vector>

#include "engine/dump/Dump.h"
#include "engine/frontend/Module.h"
#include "engine/frontend/TraceContext.h"

namespace fathom::frontend {

class Model : public Module {
 public:
  // forward()'s inputs in order: names, layouts (concrete sizes: the example sizes) and how
  // their example values are drawn (seeds are filled in by exampleInputs()).
  virtual std::vector<ExampleInput> inputSpecs() const = 0;
  virtual std::vector<Tensor> forward(const std::vector<Tensor>& inputs) = 0;

  uint64_t seed = 1;
};

// A model input's spec: contiguous `sizes`; values N(0, 1) for floats, else uniform in `range`
// (integers: [lo, hi)).
ExampleInput inputSpec(std::string name, DType dtype, const IntList& sizes,
                       std::optional<std::pair<double, double>> range = std::nullopt);

// Every placeholder's example input, in placeholder order (parameters, buffers, inputs), with
// seeds assigned; assigns the parameters' seeds too.
std::vector<ExampleInput> exampleInputs(Model& model);

struct EagerRun {
  ValueList inputs;   // the model inputs drawn from their seeds
  ValueList outputs;  // what forward() returned
};
// Runs the model on its example inputs.
Result<EagerRun> runEager(Model& model);
// Runs the model on given inputs (real tensors, in inputSpecs() order).
Result<ValueList> runEager(Model& model, const ValueList& inputs);

// Traces forward() into a verified graph "forward" with example inputs.
Result<Dump> trace(Model& model, const TraceHooks& hooks = {});

}  // namespace fathom::frontend
