#include "engine/jit/CompiledGraph.h"

#include <unordered_map>

#include "engine/compile/FusionRules.h"
#include "engine/compile/KernelLowering.h"
#include "engine/interp/Interpreter.h"
#include "engine/jit/CompileEvents.h"
#include "engine/jit/InputLayoutCheck.h"
#include "engine/jit/KernelLaunch.h"
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
                 bool keep, OutputPool* pool)
      : Interpreter(ordered, InterpreterOptions{.keepIntermediates = keep}),
        g_(ordered), kernels_(kernels), kernelOf_(kernelOfNode), trust_(trust), check_(check), pool_(pool) {}

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
    auto outputs = launchKernel(k, fn, g_, binding_, [this](const std::string& name) -> const Value* {
      auto ref = g_.find(name);
      return ref ? &value(*ref) : nullptr;
    }, pool_);
    FATHOM_TRY(outputs);
    for (auto& [name, t] : *outputs) pending_[name] = std::move(t);
    return {};
  }

  const Graph& g_;
  const std::vector<CompiledKernel>& kernels_;
  const std::vector<int32_t>& kernelOf_;
  const std::vector<InputTrust>& trust_;
  bool check_;
  OutputPool* pool_;
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
  // Which generated kernel each node of the ordered graph belongs to, and who trusts each input:
  // fixed by the compile, so worked out once here, not per run.
  cg->kernelOf_.assign(cg->ordered_.size(), -1);
  for (size_t i = 0; i < cg->kernels_.size(); ++i)
    if (cg->kernels_[i].fn)
      for (const auto& name : cg->kernels_[i].lowered->nodes)
        cg->kernelOf_[static_cast<size_t>(cg->ordered_.find(name)->index)] = static_cast<int32_t>(i);
  cg->trust_ = inputTrust(cg->ordered_, cg->kernels_);
  emitCompileEvents(*cg, options);
  return cg;
}

int64_t CompiledGraph::generatedKernels() const {
  int64_t n = 0;
  for (const auto& k : kernels_) n += k.fn ? 1 : 0;
  return n;
}

Result<ValueList> CompiledGraph::run(ValueList inputs) {
  JitInterpreter interp(ordered_, kernels_, kernelOf_, trust_, options_.checkInputs, options_.keepIntermediates, pool_.get());
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
