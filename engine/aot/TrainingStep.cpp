#include "engine/aot/TrainingStep.h"

#include "engine/autograd/Autograd.h"
#include "engine/core/Random.h"
#include "engine/frontend/OpCall.h"
#include "engine/interp/Interpreter.h"
#include "engine/interp/ValueDiff.h"
#include "engine/ops/cpu/Copy.h"

namespace fathom::aot {
namespace {

ValueList slice(const ValueList& v, size_t begin, size_t end) {
  return ValueList(v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(end));
}

// Writes each mutation's new value into its input tensor (AOTAutograd's input.copy_(new)).
Status applyMutations(const ValueList& newValues, const std::vector<size_t>& primalIndex, const ValueList& primals) {
  for (size_t k = 0; k < newValues.size(); ++k) {
    const Value& dst = primals.at(primalIndex[k]);
    if (!dst.is<Tensor>() || !newValues[k].is<Tensor>()) return internalError("a mutated input is not a tensor");
    try {
      copyInto(dst.as<Tensor>(), newValues[k].as<Tensor>());
    } catch (const OpError& e) {
      return internalError(std::string("copying a mutated input back: ") + e.what());
    }
  }
  return {};
}

}  // namespace

std::vector<int64_t> forwardIndexByName(const Graph& forward, const Graph& joint) {
  std::vector<int64_t> out;
  size_t found = 0;
  const auto fwd = forward.placeholders();
  for (const NodeRef j : joint.placeholders()) {
    int64_t at = -1;
    for (size_t i = 0; i < fwd.size() && at < 0; ++i)
      if (forward.node(fwd[i]).name == joint.node(j).name) at = static_cast<int64_t>(i);
    found += at >= 0 ? 1 : 0;
    out.push_back(at);
  }
  return found == fwd.size() ? out : std::vector<int64_t>{};
}

ValueList backwardInputs(const Graph& backward, const PartitionInfo& info, const ValueList& saved, const ValueList& tangents) {
  ValueList in = saved;
  const std::vector<NodeRef> placeholders = backward.placeholders();
  if (saved.size() == info.saved.size() && placeholders.size() >= saved.size()) {
    for (size_t i = 0; i < saved.size(); ++i) {
      const std::string& want = backward.node(placeholders[i]).name;
      size_t at = 0;
      while (at < info.saved.size() && info.saved[at].name != want) ++at;
      if (at == info.saved.size()) {  // not a saved name: keep the forward's order
        in = saved;
        break;
      }
      in[i] = saved[at];
    }
  }
  in.insert(in.end(), tangents.begin(), tangents.end());
  return in;
}

Result<TrainingStep> runPartitioned(const Graph& forward, const Graph& backward, const PartitionInfo& info,
                                    const ValueList& primals, const ValueList& tangents, const GraphRunner& runner) {
  const GraphRunner run = runner ? runner : [](const Graph& g, ValueList in) { return Interpreter(g).run(std::move(in)); };
  defaultGenerator().manualSeed(Generator::kDefaultSeed);
  auto fwd = run(forward, primals);
  FATHOM_TRY(fwd);
  const size_t numMut = info.mutatedInputs.size();
  const size_t numOut = static_cast<size_t>(info.numForwardOutputs);
  if (fwd->size() != numMut + numOut + info.saved.size())
    return internalError("the forward graph returned " + std::to_string(fwd->size()) + " values; the partition expects " +
                         std::to_string(numMut + numOut + info.saved.size()));
  std::vector<size_t> mutated;
  for (const auto& name : info.mutatedInputs) {
    auto r = forward.find(name);
    if (!r) return invalidInput("mutated input '" + name + "' is not a placeholder of the forward graph");
    mutated.push_back(static_cast<size_t>(r->index));
  }
  TrainingStep step;
  step.updatedInputs = slice(*fwd, 0, numMut);
  FATHOM_TRY(applyMutations(step.updatedInputs, mutated, primals));
  step.outputs = slice(*fwd, numMut, numMut + numOut);
  step.saved = slice(*fwd, numMut + numOut, fwd->size());
  auto bwd = run(backward, backwardInputs(backward, info, step.saved, tangents));
  FATHOM_TRY(bwd);
  step.grads = std::move(*bwd);
  return step;
}

Result<TrainingStep> runJoint(const JointGraph& joint, const ValueList& primals, const ValueList& tangents) {
  ValueList inputs = primals;
  inputs.insert(inputs.end(), tangents.begin(), tangents.end());
  defaultGenerator().manualSeed(Generator::kDefaultSeed);
  auto out = Interpreter(joint.graph).run(std::move(inputs));
  FATHOM_TRY(out);
  const size_t numMut = joint.mutatedInputs.size();
  TrainingStep step;
  step.updatedInputs = slice(*out, 0, numMut);
  step.outputs = slice(*out, numMut, numMut + joint.numForwardOutputs);
  step.grads = slice(*out, numMut + joint.numForwardOutputs, out->size());
  return step;
}

Result<TrainingStep> runEagerStep(frontend::Model& model, const ValueList& inputs, const ValueList& tangents,
                                  const std::vector<size_t>& tangentOutputs, const std::vector<size_t>& mutatedPrimals) {
  (void)frontend::exampleInputs(model);  // parameters' seeds
  defaultGenerator().manualSeed(Generator::kDefaultSeed);
  std::vector<frontend::Parameter*> primals = model.parameters();
  for (auto* b : model.buffers()) primals.push_back(b);
  return frontend::catchErrors([&] {
    std::vector<frontend::Tensor> params, in;
    for (auto* p : primals) {
      p->zeroGrad();
      params.push_back(p->tensor());
    }
    for (const auto& v : inputs) in.push_back(frontend::Tensor::eager(v.as<Tensor>()));
    std::vector<frontend::Tensor> outs = model.forward(in);
    TrainingStep step;
    for (const auto& t : outs) step.outputs.push_back(t.real());
    autograd::TensorList roots, grads, leaves;
    for (size_t k = 0; k < tangentOutputs.size(); ++k) {
      roots.push_back(outs.at(tangentOutputs[k]));
      grads.push_back(frontend::Tensor::eager(tangents.at(k).as<Tensor>()));
    }
    for (const auto& p : params)
      if (autograd::requiresGrad(p)) leaves.push_back(p);
    autograd::TensorList g;
    if (!roots.empty() && !leaves.empty()) g = autograd::grad(roots, leaves, grads, {.allowUnused = true});
    size_t next = 0;
    for (const auto& p : params) {
      const frontend::Tensor gi = autograd::requiresGrad(p) && next < g.size() ? g[next++] : frontend::Tensor{};
      step.grads.push_back(gi.defined() ? Value(gi.real()) : Value(None{}));
    }
    for (size_t i = params.size(); i < params.size() + inputs.size(); ++i) step.grads.push_back(None{});
    for (size_t p : mutatedPrimals) step.updatedInputs.push_back(p < params.size() ? Value(params[p].real()) : Value(None{}));
    return step;
  });
}

}  // namespace fathom::aot

#include <algorithm>
#include <cmath>

#include "engine/aot/GraphExtract.h"
#include "engine/aot/GraphReplay.h"
#include "engine/interp/AccuracyRule.h"

namespace fathom::aot {

Result<TrainingStep> runReplayedStep(const Graph& joint, const Graph& forward, const PartitionInfo& info,
                                     const ValueList& primals, const ValueList& tangents) {
  const Node* out = joint.outputNode();
  if (!out) return invalidInput("the joint graph has no output node");
  const ValueList& outs = out->args.at(0).as<ValueList>();
  const size_t numMut = info.mutatedInputs.size();
  const size_t numOut = static_cast<size_t>(info.numForwardOutputs);
  if (outs.size() < numMut + numOut) return invalidInput("the joint graph returns fewer values than the partition says");
  const std::vector<NodeRef> placeholders = joint.placeholders();
  if (placeholders.size() != primals.size() + tangents.size())
    return invalidInput("the joint graph has " + std::to_string(placeholders.size()) + " inputs, not " +
                        std::to_string(primals.size() + tangents.size()));
  // The joint's placeholders of the forward's names; the first ones when some name is not there.
  const std::vector<int64_t> byName = forwardIndexByName(forward, joint);
  std::vector<NodeRef> primalRefs(placeholders.begin(), placeholders.begin() + static_cast<std::ptrdiff_t>(primals.size()));
  if (byName.size() == placeholders.size())
    for (size_t j = 0; j < byName.size(); ++j)
      if (byName[j] >= 0) primalRefs[static_cast<size_t>(byName[j])] = placeholders[j];
  if (forward.placeholders().size() != primals.size())
    return invalidInput("the forward graph has " + std::to_string(forward.placeholders().size()) + " inputs, not " +
                        std::to_string(primals.size()));
  auto jointForward = extractGraph(joint, primalRefs, ValueList(outs.begin(), outs.begin() + static_cast<std::ptrdiff_t>(numMut + numOut)),
                              "forward of the joint");
  FATHOM_TRY(jointForward);
  return frontend::catchErrors([&] {
    std::vector<ReplayInput> in;
    autograd::TensorList leaves;
    for (size_t i = 0; i < primals.size(); ++i) {
      if (primals[i].isInt()) {  // a size input (torch 2.x's dynamic graphs)
        in.emplace_back(primals[i].as<SymInt>().hint());
        continue;
      }
      frontend::Tensor t = frontend::Tensor::eager(primals[i].as<Tensor>());
      if (i < info.gradInputs.size() && !info.gradInputs[i].empty()) {
        autograd::setRequiresGrad(t, true, info.gradInputs[i]);
        leaves.push_back(t);
      }
      in.push_back(t);
    }
    defaultGenerator().manualSeed(Generator::kDefaultSeed);
    auto replayed = replayGraph(*jointForward, in);
    if (!replayed.ok()) throw frontend::FrontendError(replayed.error());
    TrainingStep step;
    autograd::TensorList roots, grads;
    for (size_t i = 0; i < replayed->size(); ++i) {
      const frontend::Tensor& t = (*replayed)[i];
      const Value v = t.defined() ? Value(t.real()) : Value(None{});
      if (i < numMut) {
        step.updatedInputs.push_back(v);
        continue;
      }
      step.outputs.push_back(v);
      if (autograd::requiresGrad(t) && roots.size() < tangents.size()) {
        roots.push_back(t);
        grads.push_back(frontend::Tensor::eager(tangents[roots.size() - 1].as<Tensor>()));
      }
    }
    autograd::TensorList g;
    if (!roots.empty() && !leaves.empty()) g = autograd::grad(roots, leaves, grads, {.allowUnused = true});
    // One gradient per backward output, as the partitioned step returns them: a PyTorch export's
    // get_attr constants are forward inputs after the primals and get none.
    size_t next = 0;
    for (size_t i = 0; i < std::min(primals.size(), info.gradInputs.size()); ++i) {
      const bool wants = !info.gradInputs[i].empty();
      const frontend::Tensor gi = wants && next < g.size() ? g[next++] : frontend::Tensor{};
      step.grads.push_back(gi.defined() ? Value(gi.real()) : Value(None{}));
    }
    return step;
  });
}

namespace {

StepDiff diffOf(const Value& got, const Value& want, double rtol, double atol) {
  const ValueDiff v = diffValues(got, want, rtol, atol);
  StepDiff d;
  d.maxAbsDiff = v.maxAbsDiff;
  d.scale = v.scale;
  d.sizesMatch = v.sizesMatch;
  d.ok = v.ok;
  return d;
}

const ValueList& valuesOf(const TrainingStep& step, const std::string& what) {
  return what == "output" ? step.outputs : what == "grad" ? step.grads : step.updatedInputs;
}

const Tensor* floatTensorAt(const ValueList& values, size_t i) {
  const auto* t = i < values.size() ? values[i].tryAs<Tensor>() : nullptr;
  return t && t->defined() && isFloating(t->dtype()) ? t : nullptr;
}

}  // namespace

void judgeByFloat64(std::vector<StepDiff>& diffs, const TrainingStep& got, const TrainingStep& want, const TrainingStep& fp64) {
  for (StepDiff& d : diffs) {
    if (d.ok || !d.sizesMatch) continue;
    const Tensor* a = floatTensorAt(valuesOf(got, d.what), d.index);
    const Tensor* b = floatTensorAt(valuesOf(want, d.what), d.index);
    const Tensor* truth = floatTensorAt(valuesOf(fp64, d.what), d.index);
    if (!a || !b || !truth || truth->sizes() != b->sizes() || a->sizes() != b->sizes()) continue;
    const AccuracyJudgement j = judgeAccuracy(*a, *b, *truth, kSameTolerance);
    d.byFloat64 = true;
    d.ok = j.ok;
    d.error = j.error;
    d.referenceError = j.referenceError;
    d.allowed = j.allowed;
  }
}

Result<TrainingStep> replayedStepInFloat64(const Graph& joint, const Graph& forward, const PartitionInfo& info,
                                           const ValueList& primals, const ValueList& tangents) {
  auto widePrimals = widenedToFloat64(primals);
  FATHOM_TRY(widePrimals);
  auto wideTangents = widenedToFloat64(tangents);
  FATHOM_TRY(wideTangents);
  return runReplayedStep(withFloat64DtypeArgs(joint), withFloat64DtypeArgs(forward), info, *widePrimals, *wideTangents);
}

std::vector<StepDiff> compareSteps(const TrainingStep& got, const TrainingStep& want, const PartitionInfo& info,
                                   double rtol, double atol) {
  std::vector<StepDiff> out;
  auto add = [&](const char* what, const ValueList& a, const ValueList& b, const std::vector<std::string>* names) {
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      StepDiff d = i < a.size() && i < b.size() ? diffOf(a[i], b[i], rtol, atol) : StepDiff{};
      if (i >= a.size() || i >= b.size()) d.ok = false;
      d.what = what;
      d.index = i;
      if (names && i < names->size()) d.name = (*names)[i];
      out.push_back(std::move(d));
    }
  };
  add("output", got.outputs, want.outputs, nullptr);
  add("grad", got.grads, want.grads, &info.gradInputs);
  add("updated input", got.updatedInputs, want.updatedInputs, &info.mutatedInputs);
  return out;
}

}  // namespace fathom::aot
