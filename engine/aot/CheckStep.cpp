#include "engine/aot/CheckStep.h"

#include <algorithm>

#include "engine/aot/TrainingStep.h"
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

StepInputs splitJointInputs(const Dump& dump, const ValueList& jointInputs) {
  const Graph* fwd = dump.graph(dump.partition->forward);
  const Graph* joint = dump.graph(dump.partition->joint);
  const size_t n = std::min(fwd->placeholders().size(), jointInputs.size());
  StepInputs s;
  const std::vector<int64_t> byName = forwardIndexByName(*fwd, *joint);
  if (byName.empty() || byName.size() != jointInputs.size()) {
    s.primals.assign(jointInputs.begin(), jointInputs.begin() + static_cast<std::ptrdiff_t>(n));
    s.tangents.assign(jointInputs.begin() + static_cast<std::ptrdiff_t>(n), jointInputs.end());
    return s;
  }
  s.primals.resize(fwd->placeholders().size());
  for (size_t j = 0; j < byName.size(); ++j) {
    if (byName[j] >= 0) s.primals[static_cast<size_t>(byName[j])] = jointInputs[j];
    else s.tangents.push_back(jointInputs[j]);
  }
  return s;
}

ValueList jointInputs(const Dump& dump, const ValueList& primals, const ValueList& tangents) {
  ValueList jointIn;
  const std::vector<int64_t> byName =
      forwardIndexByName(*dump.graph(dump.partition->forward), *dump.graph(dump.partition->joint));
  if (byName.size() == primals.size() + tangents.size()) {
    size_t next = 0;
    for (int64_t at : byName) jointIn.push_back(at >= 0 ? primals[static_cast<size_t>(at)] : tangents.at(next++));
  } else {
    jointIn = primals;
    jointIn.insert(jointIn.end(), tangents.begin(), tangents.end());
  }
  return jointIn;
}

Result<ValueList> savedValues(const PartitionInfo& info, const ValueList& forwardOutputs) {
  const size_t savedFrom = info.mutatedInputs.size() + static_cast<size_t>(info.numForwardOutputs);
  if (forwardOutputs.size() < savedFrom) return internalError("the forward graph returned fewer values than the partition says");
  return ValueList(forwardOutputs.begin() + static_cast<std::ptrdiff_t>(savedFrom), forwardOutputs.end());
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
  auto saved = savedValues(info, fwdOut);
  FATHOM_TRY(saved);
  o.graphName = info.backward;
  auto b = checkGraph(*bwd, backwardInputs(*bwd, info, *saved, tangents), o);
  FATHOM_TRY(b);
  checks.push_back(std::move(*b));
  o.graphName = info.joint;
  auto j = checkGraph(*joint, jointInputs(dump, primals, tangents), o);
  FATHOM_TRY(j);
  checks.push_back(std::move(*j));
  return checks;
}

}  // namespace fathom::aot
