#include "engine/ops/infer/InferMeta.h"

#include "engine/ops/infer/RuleFit.h"
#include "engine/ops/infer/SamplePlan.h"

namespace fathom::infer {
namespace {

// Runs the kernel on one sample; an error when it fails or returns something not a tensor.
Result<Observation> observe(const OpDef& op, const SamplePlan& plan, const SampleRun& run, int* runs) {
  auto args = plan.realArgs(run);
  FATHOM_TRY(args);
  ++*runs;
  auto out = callKernel(op, *args);
  const std::string label = plan.describe(run);
  if (!out.ok()) return invalidInput("the kernel fails on " + label + ": " + out.error().message);
  Observation obs{label, plan.inputSizes(run), {}, {}, {}};
  auto metas = inputMetas(*args, plan.slots());
  FATHOM_TRY(metas);
  obs.inputs = std::move(*metas);
  for (const auto& s : plan.slots())
    obs.inputTensors.push_back(s.item ? (*args)[s.arg].as<ValueList>()[*s.item].as<Tensor>() : (*args)[s.arg].as<Tensor>());
  for (size_t o = 0; o < out->size(); ++o) {
    if (!(*out)[o].is<Tensor>())
      return invalidInput("output " + std::to_string(o) + " is a " + (*out)[o].kindName() +
                          ": meta inference handles tensor outputs only");
    obs.outputs.push_back((*out)[o].as<Tensor>());
  }
  return obs;
}

// Same sizes, other data: an output whose sizes or strides change depends on the data.
Status checkDataIndependent(const std::vector<Observation>& draws) {
  const Observation& a = draws[0];
  for (size_t k = 1; k < draws.size(); ++k) {
    const Observation& b = draws[k];
    for (size_t o = 0; o < a.outputs.size(); ++o) {
      const Tensor &x = a.outputs[o], &y = b.outputs[o];
      if (x.sizes() == y.sizes() && (x.strides() == y.strides() || x.numel() == 0)) continue;
      // What differs, and its two values: the rank, a dim's size, or the strides.
      std::string what = "rank", values = std::to_string(x.dim()) + " and " + std::to_string(y.dim());
      if (x.dim() == y.dim()) what = "strides", values = intListText(x.strides()) + " and " + intListText(y.strides());
      for (int64_t d = x.dim() == y.dim() ? x.dim() - 1 : -1; d >= 0; --d)
        if (x.size(d) != y.size(d))
          what = "dim " + std::to_string(d), values = std::to_string(x.size(d)) + " and " + std::to_string(y.size(d));
      return invalidInput("output " + std::to_string(o) + " " + what + " depends on the data: " + values +
                          " for two draws of the same inputs (" + a.label +
                          "); no meta can be inferred: declare a meta function for it");
    }
  }
  return {};
}

// Fits the rules on the fit runs and checks them on the check runs; an error says what failed.
Result<std::vector<OutputRule>> fitAndCheck(const OpDef& op, const SamplePlan& plan, int* runs) {
  std::vector<Observation> fit, check;
  for (const auto& run : plan.fitRuns()) {
    auto obs = observe(op, plan, run, runs);
    FATHOM_TRY(obs);
    fit.push_back(std::move(*obs));
  }
  auto rules = fitOutputs(fit);
  FATHOM_TRY(rules);
  for (const auto& run : plan.checkRuns()) {
    auto obs = observe(op, plan, run, runs);
    FATHOM_TRY(obs);
    std::string diff = ruleDisagreement(*rules, *obs);
    if (!diff.empty()) return invalidInput("the rule fit on 5 runs fails on " + obs->label + ": " + diff);
  }
  return rules;
}

}  // namespace

std::string InferredMeta::ruleText() const {
  if (specialized) return "specialized (sizes pinned to their hints): no rule fits: " + whyNoRule;
  std::string out;
  for (size_t o = 0; o < outputs.size(); ++o) out += (o ? "; out" : "out") + std::to_string(o) + " = " + outputs[o].str();
  return out;
}

std::string InferredMeta::str() const {
  return op + ": " + ruleText() + " (" + std::to_string(kernelRuns) + " kernel runs)";
}

Result<InferredMeta> inferMeta(const OpDef& op, const ValueList& exampleArgs) {
  if (!op.kernel) return invalidInput(op.name + " has no kernel: nothing to infer its meta from");
  auto plan = SamplePlan::fromExample(exampleArgs);
  if (!plan.ok()) return std::move(plan.error()).within(op.name);
  InferredMeta m{op.name, {}, false, {}, 0, exampleArgs, plan->slots(), plan->exampleInputs(), plan->variables(), op.kernel};
  std::vector<Observation> draws;
  const SampleRun example = plan->exampleRun();
  for (const SampleRun& run : {example, SamplePlan::redrawn(example, 7, 0.7), SamplePlan::redrawn(example, 8, 0.0)}) {
    auto obs = observe(op, *plan, run, &m.kernelRuns);
    if (!obs.ok()) return std::move(obs.error()).within(op.name);
    draws.push_back(std::move(*obs));
  }
  if (auto data = checkDataIndependent(draws); !data.ok()) return std::move(data.error()).within(op.name);
  auto rules = fitAndCheck(op, *plan, &m.kernelRuns);
  if (rules.ok()) m.outputs = std::move(*rules);
  else m.specialized = true, m.whyNoRule = rules.error().message;
  return m;
}

}  // namespace fathom::infer
