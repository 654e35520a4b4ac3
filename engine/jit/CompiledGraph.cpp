#include "engine/jit/CompiledGraph.h"

#include <unordered_map>

#include "engine/compile/FusionRules.h"
#include "engine/compile/KernelLowering.h"
#include "engine/core/Parallel.h"
#include "engine/interp/Interpreter.h"
#include "engine/jit/InputLayoutCheck.h"
#include "engine/jit/PlanOrder.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {
namespace {

// Runs the plan-ordered graph: a generated kernel runs whole at its first node, its outputs
// stashed for the nodes that name them; every other node runs on the eager kernels.
class JitInterpreter : public Interpreter {
 public:
  JitInterpreter(const Graph& ordered, const std::vector<CompiledKernel>& kernels,
                 const std::vector<int32_t>& kernelOfNode, const std::vector<InputTrust>& trust, bool check,
                 bool keep)
      : Interpreter(ordered, InterpreterOptions{.keepIntermediates = keep}),
        g_(ordered), kernels_(kernels), kernelOf_(kernelOfNode), trust_(trust), check_(check) {}

 protected:
  Result<Value> placeholder(const Node& node, size_t inputIndex) override {
    auto v = Interpreter::placeholder(node, inputIndex);
    FATHOM_TRY(v);
    binding_.bindFrom(node.val, *v);
    if (check_) FATHOM_TRY(checkInputLayout(node, *v, binding_, trust_[inputIndex]));
    return v;
  }

  Result<Value> runNode(const Node& node) override {
    const auto index = static_cast<size_t>(&node - g_.nodes().data());
    const int32_t k = kernelOf_[index];
    if (k < 0) return Interpreter::runNode(node);
    const CompiledKernel& ck = kernels_[static_cast<size_t>(k)];
    if (ck.lowered->nodes.front() == node.name) FATHOM_TRY(runKernel(*ck.lowered, ck.fn));
    auto it = pending_.find(node.name);
    if (it == pending_.end()) return Value{};  // lives only inside the kernel
    Value v = std::move(it->second);
    pending_.erase(it);
    return v;
  }

  std::optional<int64_t> concreteSize(const SymInt& s) const override { return binding_.eval(s); }

 private:
  Status runKernel(const LoweredKernel& k, KernelFn fn) {
    std::vector<int64_t> params;
    for (const SymInt& p : k.params) {
      auto v = binding_.eval(p);
      if (!v) return invalidInput("kernel " + k.name + ": its size " + p.str() + " has no value here");
      params.push_back(*v);
    }
    std::vector<void*> data;
    for (const KernelBuffer& b : k.buffers) {
      auto ref = g_.find(b.value);
      if (!ref) return internalError("kernel " + k.name + " names no node %" + b.value);
      if (!b.output) {
        const Tensor* t = value(*ref).tryAs<Tensor>();
        if (!t || !t->defined()) return internalError("kernel " + k.name + ": %" + b.value + " has no tensor here");
        if (t->dtype() != dtypeOf(b.type))
          return invalidInput("kernel " + k.name + ": %" + b.value + " is " + std::string(dtypeName(t->dtype())) +
                              ", its meta says " + std::string(dtypeName(dtypeOf(b.type))));
        data.push_back(t->data());
        continue;
      }
      auto out = allocate(g_.node(*ref));
      FATHOM_TRY(out);
      data.push_back(out->data());
      pending_[b.value] = *out;
    }
    const int64_t outer = outerExtent(k, params);
    int64_t perRow = 1;
    for (size_t d = k.reduceDims == static_cast<int32_t>(k.loop.size()) ? 0 : 1; d < k.loop.size(); ++d)
      perRow *= k.loop[d].isConstant() ? k.loop[d].constant : params[static_cast<size_t>(k.loop[d].param)];
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, perRow));
    parallelFor(outer, grain, [&](int64_t b, int64_t e) { fn(data.data(), params.data(), b, e); });
    return {};
  }

  // A kernel output with its recorded layout: what the compiled code was told it writes.
  Result<Tensor> allocate(const Node& n) {
    const TensorMeta* m = n.val.tryAs<TensorMeta>();
    if (!m) return internalError("%" + n.name + " has no recorded tensor");
    IntList sizes, strides;
    for (const auto& s : m->sizes) sizes.push_back(binding_.eval(s).value_or(-1));
    for (const auto& s : m->strides) strides.push_back(binding_.eval(s).value_or(-1));
    for (int64_t v : sizes)
      if (v < 0) return invalidInput("%" + n.name + ": a recorded size has no value here");
    for (int64_t v : strides)
      if (v < 0) return invalidInput("%" + n.name + ": a recorded stride has no value here");
    return Tensor::emptyStrided(sizes, strides, m->dtype);
  }

  const Graph& g_;
  const std::vector<CompiledKernel>& kernels_;
  const std::vector<int32_t>& kernelOf_;
  const std::vector<InputTrust>& trust_;
  bool check_;
  SymbolBinding binding_;
  std::unordered_map<std::string, Value> pending_;
};

}  // namespace

Result<std::unique_ptr<CompiledGraph>> CompiledGraph::compile(const Graph& graph, JitOptions options) {
  std::unique_ptr<CompiledGraph> cg(new CompiledGraph());
  cg->graph_ = graph;
  cg->options_ = options;
  auto plan = planFusion(cg->graph_, options.fusion);
  FATHOM_TRY(plan);
  cg->plan_ = std::move(*plan);
  auto ordered = graphInPlanOrder(cg->graph_, cg->plan_);
  FATHOM_TRY(ordered);
  cg->ordered_ = std::move(*ordered);
  std::vector<const LoweredKernel*> toCompile;
  cg->kernels_.resize(cg->plan_.kernels.size());
  for (size_t i = 0; i < cg->plan_.kernels.size(); ++i) {
    CompiledKernel& ck = cg->kernels_[i];
    ck.planned = &cg->plan_.kernels[i];
    auto lowered = lowerKernel(cg->graph_, *ck.planned);
    if (lowered.ok()) ck.lowered = std::move(*lowered);
    else ck.eagerReason = lowered.error().message;
  }
  for (auto& ck : cg->kernels_)
    if (ck.lowered) toCompile.push_back(&*ck.lowered);
  auto fns = KernelJit::process().compile(toCompile, &cg->stats_);
  FATHOM_TRY(fns);
  size_t next = 0;
  for (auto& ck : cg->kernels_)
    if (ck.lowered) ck.fn = (*fns)[next++];
  return cg;
}

int64_t CompiledGraph::generatedKernels() const {
  int64_t n = 0;
  for (const auto& k : kernels_) n += k.fn ? 1 : 0;
  return n;
}

Result<ValueList> CompiledGraph::run(ValueList inputs) {
  std::vector<int32_t> kernelOf(ordered_.size(), -1);
  for (size_t i = 0; i < kernels_.size(); ++i)
    if (kernels_[i].fn)
      for (const auto& name : kernels_[i].lowered->nodes) kernelOf[static_cast<size_t>(ordered_.find(name)->index)] = static_cast<int32_t>(i);
  const auto trust = inputTrust(ordered_, kernels_);
  JitInterpreter interp(ordered_, kernels_, kernelOf, trust, options_.checkInputs, options_.keepIntermediates);
  FATHOM_TRY(interp.start(std::move(inputs)));
  while (!interp.done()) FATHOM_TRY(interp.step());
  if (options_.keepIntermediates) {
    kept_.clear();
    for (size_t i = 0; i < ordered_.size(); ++i) kept_.push_back(interp.value(NodeRef{static_cast<int32_t>(i)}));
  }
  return interp.outputs();
}

const Value& CompiledGraph::value(const std::string& node) const {
  static const Value none;
  auto ref = ordered_.find(node);
  if (!ref || static_cast<size_t>(ref->index) >= kept_.size()) return none;
  return kept_[static_cast<size_t>(ref->index)];
}

}  // namespace fathom
