// The backward pass (Autograd.h): discover the graph from the roots, count dependencies, then
// run ready nodes highest sequence number first, summing gradients into per-node buffers.
#include <cmath>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "engine/autograd/Autograd.h"
#include "engine/autograd/BackwardObserver.h"
#include "engine/autograd/Record.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"
#include "engine/frontend/TraceContext.h"

namespace fathom::autograd {

using frontend::fail;

namespace {

const std::source_location kHere = std::source_location::current();
thread_local BackwardObserver* tObserver = nullptr;

std::optional<Tensor> callHook(const TensorHook& hook, const Tensor& grad, GradNode& node, uint32_t nr, size_t index) {
  if (tObserver) return tObserver->callHook(hook, grad, node, nr, index);
  return hook(grad);
}

std::shared_ptr<AutogradMeta> metaFor(Tensor& t) {
  if (!t.autograd()) t.setAutograd(std::make_shared<AutogradMeta>());
  return t.autograd();
}

Tensor accumulate(const Tensor& into, const Tensor& g) {
  if (!g.defined()) return into;
  return into.defined() ? frontend::add(into, g) : g;
}

// NaN/Inf in a real gradient: the first bad element's kind, or nothing.
std::optional<std::string> nonFinite(const Tensor& t) {
  if (!t.defined() || t.isTraced() || !isFloating(t.dtype())) return std::nullopt;
  auto dense = t.real().contiguous();
  if (!dense.ok()) return std::nullopt;
  for (int64_t i = 0; i < dense->numel(); ++i) {
    const double v = dense->atLinear(i);
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return "inf";
  }
  return std::nullopt;
}

class BackwardRun {
 public:
  BackwardRun(bool gradMode, bool retainGraph, bool dryRun = false)
      : gradMode_(gradMode), retainGraph_(retainGraph), dryRun_(dryRun) {}
  const std::vector<GradNode*>& order() const { return order_; }

  // Root edges and their gradients.
  void addRoot(const Edge& e, const Tensor& g) {
    roots_.push_back(e.fn.get());
    buffer(e.fn.get())[e.inputNr] = accumulate(buffer(e.fn.get())[e.inputNr], g);
  }
  // grad(): the gradient arriving at (fn, nr) is input `index`'s result.
  void addCapture(const Edge& e, size_t index) { captures_[e.fn.get()].push_back({e.inputNr, index}); }

  TensorList run(size_t numCaptures) {
    captured_.assign(numCaptures, Tensor{});
    discover();
    std::priority_queue<std::pair<uint64_t, GradNode*>> ready;
    std::unordered_set<GradNode*> queued;
    for (GradNode* r : roots_)
      if (deps_[r] == 0 && needed(r) && queued.insert(r).second) ready.push({r->sequenceNr(), r});
    while (!ready.empty()) {
      GradNode* n = ready.top().second;
      ready.pop();
      execute(*n, ready);
    }
    return std::move(captured_);
  }

 private:
  TensorList& buffer(GradNode* n) {
    auto& b = buffers_[n];
    if (b.size() < n->numOutputs()) b.resize(n->numOutputs());
    return b;
  }

  bool needed(GradNode* n) const { return !gradMode_ || neededMemo_.at(n); }
  bool executes(GradNode* n) const {
    if (!gradMode_) return true;
    if (n->isAccumulateGrad()) return false;
    for (const Edge& e : n->nextEdges())
      if (e.valid() && neededMemo_.at(e.fn.get())) return true;
    return false;
  }

  // Every node reachable from the roots (iteratively: graphs are thousands of nodes deep), which
  // of them lead to a requested input, and how many needed edges enter each.
  void discover() {
    std::vector<GradNode*> order;  // post-order
    std::unordered_set<GradNode*> seen;
    std::vector<std::pair<GradNode*, size_t>> stack;
    for (GradNode* r : roots_)
      if (seen.insert(r).second) stack.push_back({r, 0});
    while (!stack.empty()) {
      auto& [n, i] = stack.back();
      if (i < n->nextEdges().size()) {
        const Edge& e = n->nextEdges()[i++];
        if (e.valid() && seen.insert(e.fn.get()).second) stack.push_back({e.fn.get(), 0});
        continue;
      }
      order.push_back(n);
      stack.pop_back();
    }
    for (GradNode* n : order) {  // children first
      bool need = !gradMode_ || captures_.count(n) > 0;
      for (const Edge& e : n->nextEdges())
        if (e.valid() && neededMemo_[e.fn.get()]) need = true;
      neededMemo_[n] = need;
    }
    for (GradNode* n : order) {
      if (!needed(n) || !executes(n)) continue;
      for (const Edge& e : n->nextEdges())
        if (e.valid() && needed(e.fn.get())) ++deps_[e.fn.get()];
    }
  }

  void runTensorHooks(GradNode& n, TensorList& grads) {
    if (n.isAccumulateGrad()) {
      const auto& leaf = static_cast<AccumulateGrad&>(n).leaf();
      for (size_t k = 0; k < leaf->leafHooks.size(); ++k)
        if (grads[0].defined())
          if (auto r = callHook(leaf->leafHooks[k], grads[0], n, 0, k)) grads[0] = *r;
      return;
    }
    for (auto& [nr, hooks] : n.tensorPreHooks)
      for (size_t k = 0; k < hooks.size(); ++k)
        if (nr < grads.size() && grads[nr].defined())
          if (auto r = callHook(hooks[k], grads[nr], n, nr, k)) grads[nr] = *r;
    for (auto& [nr, weak] : n.retainsGrad)
      if (auto meta = weak.lock(); meta && nr < grads.size() && grads[nr].defined())
        meta->grad = accumulate(meta->grad, grads[nr]);
  }

  void execute(GradNode& n, std::priority_queue<std::pair<uint64_t, GradNode*>>& ready) {
    if (dryRun_) {
      if (executes(&n)) order_.push_back(&n);
      for (const Edge& e : n.nextEdges())
        if (e.valid() && needed(e.fn.get()) && executes(&n) && --deps_[e.fn.get()] == 0)
          ready.push({e.fn->sequenceNr(), e.fn.get()});
      return;
    }
    if (tObserver && executes(&n)) tObserver->beforeNode(order_.size(), n);
    if (executes(&n)) order_.push_back(&n);
    TensorList grads = std::move(buffer(&n));
    buffers_.erase(&n);
    grads.resize(n.numOutputs());
    runTensorHooks(n, grads);
    if (auto it = captures_.find(&n); it != captures_.end())
      for (auto [nr, index] : it->second) captured_[index] = grads[nr];
    if (!executes(&n)) return;
    for (const auto& hook : n.preHooks)
      if (auto r = hook(grads)) grads = *r;
    bool any = false;
    for (const auto& g : grads) any = any || g.defined();
    TensorList out;
    const auto& edges = n.nextEdges();
    if (any) {
      std::vector<bool> wanted(edges.size());
      for (size_t i = 0; i < edges.size(); ++i) wanted[i] = edges[i].valid() && needed(edges[i].fn.get());
      frontend::SourceOverride where(n.site.loc.line() ? n.site.loc : kHere);
      std::optional<GraphBuilder::ModuleScope> scope;
      if (auto* ctx = frontend::TraceContext::current(); ctx && !n.site.module.empty())
        scope.emplace(ctx->builder(), n.site.module);
      try {
        out = n.apply(grads, wanted);
      } catch (const OpError& e) {
        fail(std::string(e.what()), n.site.loc);
      }
      if (AnomalyMode::enabled()) checkFinite(n, out);
      for (const auto& hook : n.postHooks)
        if (auto r = hook(out, grads)) out = *r;
    }
    if (!retainGraph_) n.releaseSaved();
    out.resize(edges.size());
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& e = edges[i];
      if (!e.valid() || !needed(e.fn.get())) continue;
      if (out[i].defined()) buffer(e.fn.get())[e.inputNr] = accumulate(buffer(e.fn.get())[e.inputNr], out[i]);
      if (--deps_[e.fn.get()] == 0) ready.push({e.fn->sequenceNr(), e.fn.get()});
    }
  }

  static void checkFinite(const GradNode& n, const TensorList& out) {
    for (size_t i = 0; i < out.size(); ++i)
      if (auto kind = nonFinite(out[i])) {
        std::string where = n.site.op.empty() ? "" : "; it was created by " + n.site.op;
        if (!n.site.source.empty()) where += " at " + n.site.source;
        if (!n.site.module.empty()) where += " (module " + n.site.module + ")";
        fail("Function '" + n.name() + "' returned " + *kind + " values in its " + std::to_string(i) +
                 (i == 1 ? "st" : i == 2 ? "nd" : i == 3 ? "rd" : "th") + " output" + where,
             n.site.loc.line() ? n.site.loc : kHere);
      }
  }

  bool gradMode_;
  bool retainGraph_;
  bool dryRun_;
  std::vector<GradNode*> order_;
  std::vector<GradNode*> roots_;
  std::unordered_map<GradNode*, TensorList> buffers_;
  std::unordered_map<GradNode*, int> deps_;
  std::unordered_map<GradNode*, bool> neededMemo_;
  std::unordered_map<GradNode*, std::vector<std::pair<uint32_t, size_t>>> captures_;
  TensorList captured_;
};

// The tracing builder's stage is "backward" while the pass runs (its nodes form the backward).
class BackwardStage {
 public:
  BackwardStage() : ctx_(frontend::TraceContext::current()) {
    if (ctx_) ctx_->builder().setStage("backward");
  }
  ~BackwardStage() {
    if (ctx_) ctx_->builder().setStage("forward");
  }
  BackwardStage(const BackwardStage&) = delete;
  BackwardStage& operator=(const BackwardStage&) = delete;

 private:
  frontend::TraceContext* ctx_;
};

Tensor rootGrad(const Tensor& root, const TensorList& given, size_t i) {
  if (i < given.size() && given[i].defined()) return given[i];
  const TensorMeta m = root.meta();
  for (const auto& s : m.sizes)
    if (s.isSymbolic() || s.hint() != 1)
      fail("grad can be implicitly created only for scalar outputs", kHere);
  return frontend::callOp1("aten.ones_like.default", {root}, {}, kHere);
}

void runBackward(BackwardRun& run, const TensorList& roots, const TensorList& rootGrads, size_t captures,
                 TensorList* out) {
  NoGradGuard noGrad;
  BackwardStage stage;
  for (size_t i = 0; i < roots.size(); ++i) {
    if (!requiresGrad(roots[i]))
      fail("element " + std::to_string(i) + " of tensors does not require grad and does not have a grad_fn", kHere);
    run.addRoot(gradientEdge(roots[i]), rootGrad(roots[i], rootGrads, i));
  }
  TensorList result = run.run(captures);
  if (out) *out = std::move(result);
}

}  // namespace

BackwardObserver* setBackwardObserver(BackwardObserver* observer) {
  BackwardObserver* previous = tObserver;
  tObserver = observer;
  return previous;
}

std::vector<GradNode*> plannedOrder(const TensorList& outputs, const TensorList& inputs) {
  BackwardRun run(true, true, true);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (requiresGrad(inputs[i])) run.addCapture(gradientEdge(inputs[i]), i);
  for (const auto& o : outputs)
    if (requiresGrad(o)) run.addRoot(gradientEdge(o), Tensor{});
  run.run(inputs.size());
  return run.order();
}

void setRequiresGrad(Tensor& t, bool on, std::string name) {
  if (!t.defined()) fail("requires_grad on an undefined tensor", kHere);
  if (t.autograd() && t.autograd()->gradFn)
    fail("you can only change requires_grad flags of leaf variables", kHere);
  if (on && !isFloating(t.dtype()))
    fail("only Tensors of floating point dtype can require gradients" + (name.empty() ? "" : " ('" + name + "' is " + std::string(dtypeName(t.dtype())) + ")"),
         kHere);
  auto meta = metaFor(t);
  meta->requiresGrad = on;
  if (!name.empty()) meta->name = std::move(name);
}

bool requiresGrad(const Tensor& t) { return t.defined() && t.autograd() && t.autograd()->requiresGrad; }
bool isLeaf(const Tensor& t) { return !t.autograd() || !t.autograd()->gradFn; }
std::shared_ptr<GradNode> gradFn(const Tensor& t) { return t.autograd() ? t.autograd()->gradFn : nullptr; }
Tensor gradOf(const Tensor& t) { return t.autograd() ? t.autograd()->grad : Tensor{}; }
void zeroGrad(const Tensor& t) {
  if (t.autograd()) t.autograd()->grad = Tensor{};
}

void retainGrad(const Tensor& t) {
  if (!requiresGrad(t)) fail("can't retain_grad on Tensor that has requires_grad=False", kHere);
  const auto& meta = t.autograd();
  if (!meta->gradFn || meta->retainsGrad) return;  // a leaf keeps its gradient anyway
  meta->retainsGrad = true;
  meta->gradFn->retainsGrad[meta->outputNr] = meta;
}

bool retainsGrad(const Tensor& t) { return t.autograd() && t.autograd()->retainsGrad; }

void registerHook(const Tensor& t, TensorHook hook) {
  if (!requiresGrad(t)) fail("cannot register a hook on a tensor that doesn't require gradient", kHere);
  const auto& meta = t.autograd();
  if (meta->gradFn) meta->gradFn->tensorPreHooks[meta->outputNr].push_back(std::move(hook));
  else meta->leafHooks.push_back(std::move(hook));
}

void backward(const TensorList& roots, const TensorList& rootGrads, const BackwardOptions& options) {
  BackwardRun run(false, options.retainGraph);
  runBackward(run, roots, rootGrads, 0, nullptr);
}

TensorList grad(const TensorList& outputs, const TensorList& inputs, const TensorList& gradOutputs,
                const GradOptions& options) {
  BackwardRun run(true, options.retainGraph);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!requiresGrad(inputs[i]))
      fail("One of the differentiated Tensors (input " + std::to_string(i) + ") does not require grad", kHere);
    run.addCapture(gradientEdge(inputs[i]), i);
  }
  TensorList out;
  runBackward(run, outputs, gradOutputs, inputs.size(), &out);
  if (!options.allowUnused)
    for (size_t i = 0; i < out.size(); ++i)
      if (!out[i].defined())
        fail("One of the differentiated Tensors (input " + std::to_string(i) +
                 ") appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.",
             kHere);
  return out;
}

}  // namespace fathom::autograd
