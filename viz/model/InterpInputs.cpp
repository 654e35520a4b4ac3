// The inputs of an interpreter run (see InterpInputs.h).
#include "viz/model/InterpInputs.h"

#include "engine/aot/CheckSizes.h"
#include "engine/aot/CheckStep.h"
#include "engine/aot/TrainingStep.h"
#include "engine/graph/PartitionInfo.h"
#include "engine/interp/ExampleInputs.h"

namespace fathom::viz {

Result<RunInputs> drawRunInputs(const Dump& dump, const std::string& graph, const std::string& sizes) {
  const bool step = graph.empty();
  if (step && !dump.partition) return invalidInput("the dump has no partition: name the graph to run");
  const std::string name = step ? dump.partition->joint : graph;
  const Graph* g = dump.graph(name);
  if (!g) return invalidInput("the dump has no graph '" + name + "'");
  auto specs = chooseInputs(g, name, dump.inputsFor(name), nullptr);
  FATHOM_TRY(specs);
  if (!sizes.empty()) {
    auto sized = aot::inputsAtSizes(dump, *g, std::move(*specs), sizes, "sizes");
    FATHOM_TRY(sized);
    specs = std::move(*sized);
  }
  auto values = materializeInputs(*specs);
  if (!values.ok()) return values.error().within("graph '" + name + "'");
  RunInputs out;
  if (!step) {
    out.first = std::move(*values);
    return out;
  }
  const size_t numPrimals = dump.graph(dump.partition->forward)->placeholders().size();
  if (values->size() < numPrimals) return invalidInput("the joint graph has fewer inputs than the forward graph");
  aot::StepInputs split = aot::splitJointInputs(dump, *values);
  out.first = std::move(split.primals);
  out.tangents = std::move(split.tangents);
  return out;
}

Result<ValueList> backwardRunInputs(const Dump& dump, const ValueList& forwardOutputs, const ValueList& tangents) {
  const PartitionInfo& info = *dump.partition;
  auto saved = aot::savedValues(info, forwardOutputs);
  FATHOM_TRY(saved);
  return aot::backwardInputs(*dump.graph(info.backward), info, *saved, tangents);
}

ValueList jointRunInputs(const Dump& dump, const ValueList& primals, const ValueList& tangents) {
  return aot::jointInputs(dump, primals, tangents);
}

}  // namespace fathom::viz
