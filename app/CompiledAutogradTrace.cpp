// `fathom trace MODEL --compiled-autograd [--steps N] [-o OUT] [--json]`: runs N eager training
// steps of a sample model with compiled autograd - the first backward captures the autograd
// tape as a graph, later ones replay it - checks the last step's gradients against the eager
// engine, and writes the captured graph (graph "compiled_autograd", seeded example inputs).
#include "app/CompiledAutogradTrace.h"

#include <cmath>
#include <fstream>
#include <iostream>

#include "app/CliCommon.h"
#include "engine/aot/CompiledAutograd.h"
#include "engine/autograd/Autograd.h"
#include "engine/frontend/OpCall.h"

namespace fathom::cli {
namespace {

using frontend::Tensor;

struct Forward {
  std::vector<Tensor> outputs;
  std::vector<Tensor> params;
};

Result<Forward> forwardStep(frontend::Model& model, const ValueList& inputs) {
  return frontend::catchErrors([&] {
    Forward f;
    for (auto* p : model.parameters()) f.params.push_back(p->tensor());
    std::vector<Tensor> in;
    for (const auto& v : inputs) in.push_back(Tensor::eager(v.as<fathom::Tensor>()));
    for (const Tensor& t : model.forward(in))
      if (autograd::requiresGrad(t)) f.outputs.push_back(t);
    return f;
  });
}

double maxRelDiff(const autograd::TensorList& a, const autograd::TensorList& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (!a[i].defined() || !b[i].defined()) {
      if (a[i].defined() != b[i].defined()) return INFINITY;
      continue;
    }
    const fathom::Tensor& x = a[i].real();
    const fathom::Tensor& y = b[i].real();
    if (x.sizes() != y.sizes()) return INFINITY;
    double scale = 0, diff = 0;
    for (int64_t k = 0; k < y.numel(); ++k) scale = std::max(scale, std::abs(y.atLinear(k)));
    for (int64_t k = 0; k < x.numel(); ++k) diff = std::max(diff, std::abs(x.atLinear(k) - y.atLinear(k)));
    worst = std::max(worst, scale > 0 ? diff / scale : diff);
  }
  return worst;
}

}  // namespace

int runCompiledAutogradTrace(const CompiledAutogradRequest& r) {
  if (r.steps < 1) return usageError("trace: --steps must be at least 1");
  if (!r.out.empty() && !r.force && std::ifstream(r.out).good())
    return usageError("trace: " + r.out + " exists; pass --force to overwrite it");
  auto model = models::buildModel(r.model, r.options);
  if (!model.ok()) return reportError(model.error());
  auto eager = frontend::runEager(**model);  // seeds the parameters, draws the inputs
  if (!eager.ok()) return reportError(eager.error());
  aot::CompiledAutograd ca;
  autograd::TensorList last;
  for (int step = 0; step < r.steps; ++step) {
    auto f = forwardStep(**model, eager->inputs);
    if (!f.ok()) return reportError(f.error());
    auto g = ca.grad(f->outputs, f->params);
    if (!g.ok()) return reportError(g.error().within("compiled autograd, step " + std::to_string(step + 1)));
    last = std::move(*g);
  }
  // The engine's gradients for the same step, to check the replayed graph against.
  auto f = forwardStep(**model, eager->inputs);
  if (!f.ok()) return reportError(f.error());
  auto reference = frontend::catchErrors([&] {
    autograd::TensorList ones;
    {
      autograd::NoGradGuard noGrad;
      for (const auto& o : f->outputs) ones.push_back(frontend::callOp1("aten.ones_like.default", {o}));
    }
    return autograd::grad(f->outputs, f->params, ones, {.allowUnused = true});
  });
  if (!reference.ok()) return reportError(reference.error());
  const double diff = maxRelDiff(last, *reference);
  const bool match = diff <= 1e-4;
  const Graph* g = ca.lastGraph();
  if (!g) return reportError(internalError("nothing was captured"));
  if (!r.out.empty()) {
    Dump d;
    d.producer = {{"tool", "fathom"}, {"version", FATHOM_VERSION},
                  {"command", "fathom trace " + r.model + " --compiled-autograd"}};
    d.graphs.push_back({"compiled_autograd", *g});
    std::vector<ExampleInput> inputs;
    for (NodeRef p : g->placeholders()) {
      ExampleInput in;
      in.name = g->node(p).name;
      in.meta = g->node(p).val.as<TensorMeta>();
      in.seed = inputs.size() + 1;
      if (!isFloating(in.meta.dtype)) in.range = std::pair<double, double>{0, 2};
      inputs.push_back(std::move(in));
    }
    d.inputs.emplace_back("compiled_autograd", std::move(inputs));
    if (auto s = saveDump(d, r.out); !s.ok()) return reportError(s.error());
  }
  if (r.json) {
    Json events = Json::array();
    for (const auto& e : ca.events()) events.push_back({{"kind", e.kind}, {"reason", e.reason}});
    printJson({{"model", r.model}, {"steps", r.steps}, {"graph_nodes", g->size()}, {"graph_inputs", g->placeholders().size()},
               {"captures", ca.captures()}, {"replays", ca.replays()}, {"events", std::move(events)},
               {"max_rel_diff", diff}, {"match", match}, {"output", r.out.empty() ? Json(nullptr) : Json(r.out)}});
  } else {
    std::cout << "compiled autograd on " << r.model << ": " << r.steps << " backward" << (r.steps == 1 ? "" : "s") << ", "
              << ca.captures() << " capture, " << ca.replays() << " replay" << (ca.replays() == 1 ? "" : "s")
              << "; captured graph " << g->size() << " nodes, " << g->placeholders().size() << " inputs\n";
    for (size_t i = 0; i < ca.events().size(); ++i)
      std::cout << "  backward " << i + 1 << ": " << ca.events()[i].kind
                << (ca.events()[i].reason.empty() ? "" : " (" + ca.events()[i].reason + ")") << "\n";
    std::cout << "  last gradients vs the eager engine: max relative difference " << diff << (match ? " (match)" : " (MISMATCH)") << "\n";
    if (!r.out.empty()) std::cout << "wrote " << r.out << "\n";
  }
  return match ? kExitOk : kExitProblem;
}

}  // namespace fathom::cli
