#include "engine/aot/CheckStep.h"

#include "engine/core/Random.h"
#include "engine/graph/PartitionInfo.h"

namespace fathom::aot {

Result<GraphCheck> checkGraph(const Graph& graph, ValueList inputs, CheckOptions options, ValueList* outputs) {
  GraphCheck out;
  out.graph = options.graphName;
  DebugInterpreter d(graph, options);
  defaultGenerator().manualSeed(Generator::kDefaultSeed);  // dropout draws as in every other run
  auto result = d.run(std::move(inputs));
  if (!result.ok()) return result.error().within("graph '" + options.graphName + "'");
  if (outputs) *outputs = std::move(*result);
  out.checked = d.checkedNodes();
  out.mismatches = d.mismatches();
  out.skipped = d.skipped();
  return out;
}

Result<std::vector<GraphCheck>> checkTrainingStep(const Dump& dump, const ValueList& primals, const ValueList& tangents,
                                                  const CheckOptions& options) {
  if (!dump.partition) return invalidInput("the dump has no partition");
  const PartitionInfo& info = *dump.partition;
  const Graph* fwd = dump.graph(info.forward);
  const Graph* bwd = dump.graph(info.backward);
  const Graph* joint = dump.graph(info.joint);
  std::vector<GraphCheck> checks;
  CheckOptions o = options;
  o.graphName = info.forward;
  ValueList fwdOut;
  auto f = checkGraph(*fwd, primals, o, &fwdOut);
  FATHOM_TRY(f);
  checks.push_back(std::move(*f));
  const size_t savedFrom = info.mutatedInputs.size() + static_cast<size_t>(info.numForwardOutputs);
  if (fwdOut.size() < savedFrom) return internalError("the forward graph returned fewer values than the partition says");
  ValueList bwdIn(fwdOut.begin() + static_cast<std::ptrdiff_t>(savedFrom), fwdOut.end());
  bwdIn.insert(bwdIn.end(), tangents.begin(), tangents.end());
  o.graphName = info.backward;
  auto b = checkGraph(*bwd, std::move(bwdIn), o);
  FATHOM_TRY(b);
  checks.push_back(std::move(*b));
  ValueList jointIn = primals;
  jointIn.insert(jointIn.end(), tangents.begin(), tangents.end());
  o.graphName = info.joint;
  auto j = checkGraph(*joint, std::move(jointIn), o);
  FATHOM_TRY(j);
  checks.push_back(std::move(*j));
  return checks;
}

}  // namespace fathom::aot
