#include "minifier/Backends.h"

#include <chrono>
#include <csignal>
#include <thread>

#include "engine/interp/DebugInterpreter.h"
#include "engine/jit/CompiledGraph.h"
#include "engine/ops/OpOverride.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom::minify {
namespace {

bool isOneOf(const std::string& target, std::initializer_list<std::string_view> ops) {
  for (auto op : ops)
    if (target == op) return true;
  return false;
}

bool isMatmul(const Node& n) {
  return isOneOf(n.target, {"aten.mm.default", "aten.addmm.default", "aten.bmm.default", "aten.matmul.default"});
}
bool isActivation(const Node& n) { return isOneOf(n.target, {"aten.relu.default", "aten.gelu.default"}); }

// The node computing argument `i` of `n`, looking through reshaping views; null when the
// argument is not a node or the graph's input.
const Node* producerOf(const Graph& g, const Node& n, size_t i) {
  const Node* at = &n;
  for (;;) {
    if (i >= at->args.size()) return nullptr;
    const auto* r = at->args[i].tryAs<NodeRef>();
    if (!r) return nullptr;
    const Node& p = g.node(*r);
    if (p.kind != NodeKind::Call) return nullptr;
    if (!isOneOf(p.target, {"aten.view.default", "aten._unsafe_view.default", "aten.reshape.default"})) return &p;
    at = &p;
    i = 0;
  }
}

// The matmul operand that holds the weight: mm(x, w), addmm(bias, x, w), bmm(x, w).
size_t weightOperand(const Node& n) { return n.target == "aten.addmm.default" ? 2 : 1; }

// Runs the graph node by node; `before(node)` runs first and may install a fault for that step.
// The debug interpreter binds the graph's symbols to the inputs' real sizes (a plain interpreter
// would use the trace-time hints): a minified repro's sizes may be smaller than the trace's.
template <class Before>
Result<ValueList> runWith(const Graph& g, ValueList inputs, Before&& before) {
  DebugInterpreter interp(g);
  FATHOM_TRY(interp.start(std::move(inputs)));
  while (!interp.done()) {
    const Node& n = g.nodes()[interp.cursor()];
    [[maybe_unused]] auto fault = before(n);  // held for the step
    FATHOM_TRY(interp.step());
  }
  return interp.outputs();
}

Result<ValueList> eager(const Graph& g, ValueList inputs) { return DebugInterpreter(g).run(std::move(inputs)); }

Result<ValueList> miscompile(const Graph& g, ValueList inputs) {
  return runWith(g, std::move(inputs), [&](const Node& n) -> std::unique_ptr<KernelOverride> {
    if (n.kind != NodeKind::Call || !isActivation(n)) return nullptr;
    const Node* p = producerOf(g, n, 0);
    if (!p || !isMatmul(*p)) return nullptr;
    return std::make_unique<KernelOverride>(n.target, [](const ValueList& args, const OpFn& original) {
      ValueList out = original(args);
      if (!out.empty() && out[0].tryAs<Tensor>()) {
        Tensor t = out[0].as<Tensor>();  // a handle: writes go to the result's storage
        for (int64_t i = 0; i < t.numel(); ++i) t.setLinear(i, t.atLinear(i) * 1.01);
      }
      return out;
    });
  });
}

Result<ValueList> crash(const Graph& g, ValueList inputs) {
  return runWith(g, std::move(inputs), [&](const Node& n) {
    if (n.kind == NodeKind::Call && isMatmul(n)) {
      const Node* w = producerOf(g, n, weightOperand(n));
      if (w && isOneOf(w->target, {"aten.t.default", "aten.transpose.int", "aten.permute.default"})) std::raise(SIGSEGV);
    }
    return 0;
  });
}

Result<ValueList> hang(const Graph& g, ValueList inputs) {
  return runWith(g, std::move(inputs), [&](const Node& n) {
    if (n.kind == NodeKind::Call && isMatmul(n)) {
      for (size_t i = 0; i < n.args.size(); ++i)
        if (const Node* p = producerOf(g, n, i); p && isActivation(*p))
          for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return 0;
  });
}

// The compiling backend: fused kernels generated with LLVM that trust the recorded strides; with
// the input checks (a wrongly described input fails naming it) or without them (the kernels read
// it with the recorded strides: a silent wrong result, as from a compiler that trusted its meta).
Result<ValueList> jit(const Graph& g, ValueList inputs, bool checked) {
  JitOptions options;
  options.checkInputs = checked;
  auto compiled = CompiledGraph::compile(g, options);
  FATHOM_TRY(compiled);
  return (*compiled)->run(std::move(inputs));
}
Result<ValueList> jitChecked(const Graph& g, ValueList inputs) { return jit(g, std::move(inputs), true); }
Result<ValueList> jitUnchecked(const Graph& g, ValueList inputs) { return jit(g, std::move(inputs), false); }

Graph recordedMeta(const Graph& g) { return g; }

// What a meta function for aten.t.default that forgets the transpose's strides records.
Graph faultyTransposeMeta(const Graph& g) {
  Graph out = g;
  for (Node& n : out.mutableNodes())
    if (n.target == "aten.t.default")
      if (n.val.tryAs<TensorMeta>()) {
        TensorMeta& m = n.val.as<TensorMeta>();
        m.strides = contiguousStrides(m.sizes);
      }
  return out;
}

}  // namespace

namespace {

std::deque<Backend>& registry() {
  static std::deque<Backend> all = {
      {"eager", "the interpreter, op by op", eager, recordedMeta},
      {"jit", "fused kernels generated with LLVM, inputs checked against their recorded layout", jitChecked, recordedMeta},
      {"jit-unchecked", "the jit without input checks: kernels trust the recorded strides", jitUnchecked, recordedMeta},
      {"faulty-miscompile", "relu/gelu of a matmul's result comes out 1% too large", miscompile, recordedMeta},
      {"faulty-crash", "a matmul with a transposed weight dies with SIGSEGV", crash, recordedMeta},
      {"faulty-hang", "a matmul fed by relu/gelu never returns", hang, recordedMeta},
      {"faulty-meta", "aten.t.default's meta claims contiguous strides", eager, faultyTransposeMeta},
  };
  return all;
}

}  // namespace

const std::deque<Backend>& backends() { return registry(); }

Status registerBackend(Backend b) {
  if (b.name.empty() || !b.run) return invalidInput("backend '" + b.name + "' needs a name and a run function");
  if (findBackend(b.name)) return invalidInput("backend '" + b.name + "' is already registered");
  if (!b.meta) b.meta = recordedMeta;
  registry().push_back(std::move(b));
  return {};
}

const Backend* findBackend(std::string_view name) {
  for (const auto& b : backends())
    if (b.name == name) return &b;
  return nullptr;
}

std::string backendNames() {
  std::string out;
  for (const auto& b : backends()) out += (out.empty() ? "" : ", ") + b.name;
  return out;
}

}  // namespace fathom::minify
