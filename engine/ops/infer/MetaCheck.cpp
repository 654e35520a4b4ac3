#include "engine/ops/infer/MetaCheck.h"

#include "engine/ops/infer/MetaDiff.h"
#include "engine/ops/infer/SamplePlan.h"

namespace fathom::infer {
namespace {

// `real` with every input tensor replaced by its meta: what a meta function is called with.
ValueList metaArgs(ValueList real, const std::vector<TensorSlot>& slots) {
  for (const auto& s : slots) {
    Value& v = s.item ? real[s.arg].as<ValueList>()[*s.item] : real[s.arg];
    v = Value(v.as<Tensor>().meta());
  }
  return real;
}

// The first disagreement of the meta's outputs with the kernel's, "" when none.
std::string compareOutputs(const ValueList& claimed, const ValueList& real) {
  if (claimed.size() != real.size())
    return std::to_string(claimed.size()) + " outputs claimed, " + std::to_string(real.size()) + " real";
  for (size_t o = 0; o < real.size(); ++o) {
    const auto* m = claimed[o].tryAs<TensorMeta>();
    const auto* t = real[o].tryAs<Tensor>();
    if (!t) continue;  // only tensor outputs have a layout to disagree on
    if (!m) return "output " + std::to_string(o) + ": a " + claimed[o].kindName() + " claimed, a tensor real";
    std::string diff = metaDisagreement(*m, *t);
    if (!diff.empty()) return "output " + std::to_string(o) + " " + diff;
  }
  return "";
}

}  // namespace

Result<MetaCheckReport> checkDeclaredMeta(const OpDef& op, const ValueList& exampleArgs) {
  if (!op.meta || !op.kernel) return invalidInput(op.name + " needs both a meta function and a kernel to be checked");
  auto plan = SamplePlan::fromExample(exampleArgs);
  if (!plan.ok()) return std::move(plan.error()).within(op.name);
  std::vector<SampleRun> runs{plan->exampleRun()};
  for (auto& r : plan->fitRuns()) runs.push_back(std::move(r));
  for (auto& r : plan->checkRuns()) runs.push_back(std::move(r));
  MetaCheckReport report;
  for (const auto& run : runs) {
    auto args = plan->realArgs(run);
    FATHOM_TRY(args);
    auto real = callKernel(op, *args);
    if (!real.ok()) {
      ++report.skipped;
      continue;
    }
    ++report.runs;
    auto claimed = callMeta(op, metaArgs(*args, plan->slots()));
    std::string diff = claimed.ok() ? compareOutputs(*claimed, *real)
                                    : "the meta function fails where the kernel runs: " + claimed.error().message;
    if (!diff.empty()) {
      report.disagreement = op.name + ": on " + plan->describe(run) + ": " + diff;
      break;
    }
  }
  return report;
}

}  // namespace fathom::infer
