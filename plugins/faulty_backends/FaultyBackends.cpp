// The faulty backends the minifier's tests, benchmarks and demo inject bugs with, as a plugin
// (they were part of minifier/; a backend is exactly what a plugin registers). Each misbehaves on
// one op pattern only, so a minifier has to find the pattern among many healthy nodes:
//   faulty-miscompile  an activation (relu, gelu) of a matmul's result (through views) comes out
//                      1% too large: a wrong fused epilogue (`accuracy` finds it)
//   faulty-crash       a matmul whose weight operand is a transposed view dies with SIGSEGV
//   faulty-hang        a matmul fed by an activation (through views) never returns
//   faulty-meta        aten.t.default's meta function claims a contiguous result (`mismatch`
//                      finds it): the backend's compiled graph records the lie
// Built as libfathom_faulty_backends.so; the test suites and `./fathom demo` load it
// (FATHOM_PLUGIN_PATH, tests/app/lib.sh, tests/LoadTestPlugins.cpp), users with --plugin.
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

#include "engine/interp/DebugInterpreter.h"
#include "engine/ops/OpOverride.h"
#include "engine/tensor/TensorMeta.h"
#include "plugins/api/FathomPlugin.h"

namespace fathom {
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
}  // namespace fathom

FATHOM_PLUGIN("faulty-backends", "1.0", registrar) {
  using namespace fathom;
  registrar.backend({"faulty-miscompile", "relu/gelu of a matmul's result comes out 1% too large", miscompile, {}});
  registrar.backend({"faulty-crash", "a matmul with a transposed weight dies with SIGSEGV", crash, {}});
  registrar.backend({"faulty-hang", "a matmul fed by relu/gelu never returns", hang, {}});
  registrar.backend({"faulty-meta", "aten.t.default's meta claims contiguous strides", eager, faultyTransposeMeta});
}
