#include "engine/aot/CompiledAutograd.h"

#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "engine/aot/GraphExtract.h"
#include "engine/autograd/Autograd.h"
#include "engine/autograd/BackwardObserver.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/EagerRecorder.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/interp/Interpreter.h"
#include "engine/ops/OpRegistry.h"

namespace fathom::aot {
namespace {

using autograd::GradNode;
using autograd::TensorHook;

// fathom.call_hook(grad, id): runs hook `id` of the backward being captured or replayed.
std::vector<const TensorHook*>& hookTable() {
  static std::vector<const TensorHook*> table;
  return table;
}

void ensureHookOp() {
  static std::once_flag once;
  std::call_once(once, [] {
    (void)OpRegistry::global().add(
        "fathom::call_hook(Tensor grad, int hook) -> Tensor",
        [](const ValueList& a) { return ValueList{a.at(0)}; },
        [](const ValueList& a) {
          const Tensor& grad = a.at(0).as<Tensor>();
          const int64_t id = a.at(1).as<SymInt>().hint();
          if (id < 0 || static_cast<size_t>(id) >= hookTable().size() || !hookTable()[static_cast<size_t>(id)])
            throw OpError("call_hook: no hook " + std::to_string(id) + " is bound");
          // The hook's own ops are not part of the graph: it is opaque.
          frontend::EagerRecorder* recorder = frontend::setEagerRecorder(nullptr);
          std::optional<frontend::Tensor> r;
          try {
            r = (*hookTable()[static_cast<size_t>(id)])(frontend::Tensor::eager(grad));
          } catch (...) {
            frontend::setEagerRecorder(recorder);
            throw;
          }
          frontend::setEagerRecorder(recorder);
          return ValueList{r && r->defined() ? r->real() : grad};
        });
  });
}

// A real tensor's identity: its storage and layout (a view is another tensor).
using TensorKey = std::tuple<const void*, int64_t, IntList, IntList, DType>;
TensorKey keyOf(const Tensor& t) { return {t.storage().get(), t.storageOffset(), t.sizes(), t.strides(), t.dtype()}; }

class Recorder : public frontend::EagerRecorder, public autograd::BackwardObserver {
 public:
  Recorder(const std::vector<GradNode*>& order, const TensorList& inputs, const TensorList& gradOutputs)
      : order_(order), inputs_(inputs), gradOutputs_(gradOutputs) {
    for (size_t i = 0; i < order.size(); ++i) position_[order[i]] = i;
  }

  void beforeNode(size_t, GradNode& node) override { current_ = &node; }

  std::optional<frontend::Tensor> callHook(const TensorHook& hook, const frontend::Tensor& grad, GradNode& node,
                                           uint32_t nr, size_t index) override {
    CompiledAutograd::HookSource src{0, nr, index};
    if (node.isAccumulateGrad()) {
      // A leaf's hooks are found again through its input: positions after the op nodes'.
      for (size_t i = 0; i < inputs_.size(); ++i)
        if (inputs_[i].autograd() && inputs_[i].autograd()->accumulator.lock().get() == &node) src.order = order_.size() + i;
    } else {
      src.order = position_.at(&node);
    }
    const int64_t id = static_cast<int64_t>(hooks_.size());
    hooks_.push_back(src);
    hookTable().resize(hooks_.size());
    hookTable()[static_cast<size_t>(id)] = &hook;
    return frontend::callOp1("fathom.call_hook.default", {grad, id});
  }

  void recordEager(std::string_view op, const ValueList& args, const Kwargs& kwargs,
                   const std::vector<frontend::Tensor>& outputs) override {
    if (error_) return;
    ValueList refs;
    for (const auto& a : args) refs.push_back(refsOf(a));
    Kwargs kw;
    for (const auto& [k, a] : kwargs) kw.emplace_back(k, refsOf(a));
    if (error_) return;
    NodeRef r = b_.call(op, std::move(refs), std::move(kw));
    if (const Error* e = b_.error()) return fail(*e);
    const Value& val = b_.valueOf(r);
    if (!val.is<ValueList>()) {
      if (!outputs.empty() && outputs[0].defined()) known_[keyOf(outputs[0].real())] = r;
      return;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (!outputs[i].defined()) continue;
      NodeRef item = b_.getitem(r, static_cast<int64_t>(i));
      if (const Error* e = b_.error()) return fail(*e);
      known_[keyOf(outputs[i].real())] = item;
    }
  }

  // The node computing `t`, or a new placeholder for it (a saved tensor or an incoming gradient).
  Value refOf(const Tensor& t) {
    const TensorKey key = keyOf(t);
    if (auto it = known_.find(key); it != known_.end()) return it->second;
    CompiledAutograd::Source src;
    bool found = false;
    if (current_) {
      const TensorList saved = autograd::savedTensorsOf(*current_);
      for (size_t i = 0; i < saved.size() && !found; ++i)
        if (saved[i].defined() && keyOf(saved[i].real()) == key) {
          src = {static_cast<int64_t>(position_.at(current_)), i};
          found = true;
        }
    }
    for (size_t i = 0; i < gradOutputs_.size() && !found; ++i)
      if (keyOf(gradOutputs_[i].real()) == key) {
        src = {-1, i};
        found = true;
      }
    if (!found) {
      fail(invalidInput("the backward of " + (current_ ? current_->name() : std::string("the roots")) +
                        " reads a tensor that is neither one it saved nor an incoming gradient"));
      return None{};
    }
    const std::string name = src.order < 0 ? "grad_" + std::to_string(src.index)
                                           : "saved_" + std::to_string(src.order) + "_" + std::to_string(src.index);
    NodeRef r = b_.input(name, t.meta());
    sources_.push_back(src);
    placeholders_.push_back(r);
    known_[key] = r;
    return r;
  }

  Result<std::shared_ptr<CompiledAutograd::Entry>> finish(const TensorList& grads) {
    ValueList outs;
    for (const auto& g : grads) outs.push_back(g.defined() ? refOf(g.real()) : Value(None{}));
    if (error_) return *error_;
    b_.output(outs);
    if (const Error* e = b_.error()) return *e;
    auto g = extractGraph(b_.graph(), placeholders_, outs, "compiled autograd");
    FATHOM_TRY(g);
    FATHOM_TRY(g->verify());
    auto entry = std::make_shared<CompiledAutograd::Entry>();
    entry->graph = std::move(*g);
    entry->sources = sources_;
    entry->hooks = hooks_;
    entry->numNodes = order_.size();
    return entry;
  }

 private:
  Value refsOf(const Value& v) {
    if (auto* t = v.tryAs<Tensor>()) return t->defined() ? refOf(*t) : Value(None{});
    if (auto* l = v.tryAs<ValueList>()) {
      ValueList out;
      for (const auto& e : *l) out.push_back(refsOf(e));
      return out;
    }
    return v;
  }
  void fail(const Error& e) {
    if (!error_) error_ = e;
  }

  const std::vector<GradNode*>& order_;
  const TensorList& inputs_;
  const TensorList& gradOutputs_;
  std::unordered_map<const GradNode*, size_t> position_;
  GradNode* current_ = nullptr;
  GraphBuilder b_;
  std::map<TensorKey, NodeRef> known_;
  std::vector<CompiledAutograd::Source> sources_;
  std::vector<NodeRef> placeholders_;
  std::vector<CompiledAutograd::HookSource> hooks_;
  std::optional<Error> error_;
};

// Scoped installation of a recorder as this thread's eager recorder and backward observer.
class Recording {
 public:
  explicit Recording(Recorder& r)
      : previousRecorder_(frontend::setEagerRecorder(&r)), previousObserver_(autograd::setBackwardObserver(&r)) {}
  ~Recording() {
    frontend::setEagerRecorder(previousRecorder_);
    autograd::setBackwardObserver(previousObserver_);
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;

 private:
  frontend::EagerRecorder* previousRecorder_;
  autograd::BackwardObserver* previousObserver_;
};

std::string sizesText(const IntList& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace

std::string tapeKey(const std::vector<GradNode*>& order, const TensorList& inputs) {
  std::unordered_map<const GradNode*, size_t> position;
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  std::unordered_map<const GradNode*, size_t> leaf;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].autograd())
      if (auto acc = inputs[i].autograd()->accumulator.lock()) leaf[acc.get()] = i;
  std::string key;
  for (const GradNode* n : order) {
    key += n->name() + "(";
    for (const auto& e : n->nextEdges()) {
      if (!e.valid()) key += "-";
      else if (auto it = position.find(e.fn.get()); it != position.end()) key += std::to_string(it->second);
      else if (auto l = leaf.find(e.fn.get()); l != leaf.end()) key += "in" + std::to_string(l->second);
      else key += "x";
      key += ":" + std::to_string(e.inputNr) + ",";
    }
    key += ");";
  }
  return key;
}

size_t CompiledAutograd::captures() const {
  size_t n = 0;
  for (const auto& e : events_) n += e.kind == "capture";
  return n;
}

size_t CompiledAutograd::replays() const {
  size_t n = 0;
  for (const auto& e : events_) n += e.kind == "replay";
  return n;
}

Result<TensorList> CompiledAutograd::capture(const TensorList& outputs, const TensorList& inputs,
                                             const TensorList& gradOutputs, const std::string& key, std::string reason) {
  const std::vector<GradNode*> order = autograd::plannedOrder(outputs, inputs);
  for (GradNode* n : order)
    if (!n->preHooks.empty() || !n->postHooks.empty() || !n->retainsGrad.empty()) {
      events_.push_back({"eager", n->name() + " has node hooks or retains_grad, which capture does not record"});
      return frontend::catchErrors([&] { return autograd::grad(outputs, inputs, gradOutputs, {.allowUnused = true}); });
    }
  Recorder rec(order, inputs, gradOutputs);
  Result<TensorList> grads = [&]() -> Result<TensorList> {
    Recording on(rec);
    return frontend::catchErrors([&] { return autograd::grad(outputs, inputs, gradOutputs, {.allowUnused = true}); });
  }();
  FATHOM_TRY(grads);
  auto entry = rec.finish(*grads);
  FATHOM_TRY(entry);
  (*entry)->key = key;
  cache_[key] = *entry;
  last_ = *entry;
  events_.push_back({"capture", std::move(reason)});
  return grads;
}

Result<TensorList> CompiledAutograd::grad(const TensorList& outputs, const TensorList& inputs,
                                          const TensorList& gradOutputs) {
  ensureHookOp();
  TensorList roots = gradOutputs;
  {
    autograd::NoGradGuard noGrad;
    auto made = frontend::catchErrors([&] {
      for (size_t i = roots.size(); i < outputs.size(); ++i) roots.push_back(frontend::callOp1("aten.ones_like.default", {outputs[i]}));
    });
    FATHOM_TRY(made);
  }
  const std::vector<GradNode*> order = autograd::plannedOrder(outputs, inputs);
  const std::string key = tapeKey(order, inputs);
  auto it = cache_.find(key);
  if (it == cache_.end())
    return capture(outputs, inputs, roots, key,
                   cache_.empty() ? "first backward"
                                  : "the tape's structure changed (" + std::to_string(order.size()) + " nodes; no cached graph has it)");
  const Entry& e = *it->second;
  ValueList values;
  const std::vector<NodeRef> placeholders = e.graph.placeholders();
  for (size_t i = 0; i < e.sources.size(); ++i) {
    const Source& s = e.sources[i];
    Tensor t;
    std::string what;
    if (s.order < 0) {
      if (s.index < roots.size()) t = roots[s.index].real();
      what = "incoming gradient " + std::to_string(s.index);
    } else {
      const GradNode* n = order[static_cast<size_t>(s.order)];
      const TensorList saved = autograd::savedTensorsOf(*n);
      if (s.index < saved.size() && saved[s.index].defined()) t = saved[s.index].real();
      what = "saved tensor " + std::to_string(s.index) + " of " + n->name();
    }
    const auto& want = e.graph.node(placeholders[i]).val.as<TensorMeta>();
    IntList wantSizes;
    for (const auto& d : want.sizes) wantSizes.push_back(d.hint());
    if (!t.defined() || t.sizes() != wantSizes || t.dtype() != want.dtype)
      return capture(outputs, inputs, roots, key,
                     what + " (%" + e.graph.node(placeholders[i]).name + ") changed: " + sizesText(wantSizes) + " when captured, " +
                         (t.defined() ? sizesText(t.sizes()) : std::string("none")) + " now");
    values.push_back(t);
  }
  hookTable().assign(e.hooks.size(), nullptr);
  for (size_t id = 0; id < e.hooks.size(); ++id) {
    const HookSource& h = e.hooks[id];
    const std::vector<TensorHook>* hooks = nullptr;
    if (h.order < order.size()) {
      auto found = order[h.order]->tensorPreHooks.find(h.nr);
      if (found != order[h.order]->tensorPreHooks.end()) hooks = &found->second;
    } else if (h.order - order.size() < inputs.size() && inputs[h.order - order.size()].autograd()) {
      hooks = &inputs[h.order - order.size()].autograd()->leafHooks;
    }
    if (!hooks || h.index >= hooks->size()) return capture(outputs, inputs, roots, key, "a tensor hook the captured graph calls is gone");
    hookTable()[id] = &(*hooks)[h.index];
  }
  auto out = Interpreter(e.graph).run(std::move(values));
  FATHOM_TRY(out);
  TensorList grads;
  for (const auto& v : *out) grads.push_back(v.is<Tensor>() ? frontend::Tensor::eager(v.as<Tensor>()) : frontend::Tensor{});
  last_ = it->second;
  events_.push_back({"replay", ""});
  return grads;
}

}  // namespace fathom::aot
