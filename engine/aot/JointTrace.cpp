#include <memory>

#include "engine/aot/Functionalize.h"
#include "engine/aot/GraphExtract.h"
#include "engine/aot/JointGraph.h"
#include "engine/autograd/Autograd.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/TraceContext.h"

namespace fathom::aot {

using frontend::FrontendError;
using frontend::Tensor;

std::vector<NodeRef> JointGraph::primals() const {
  std::vector<NodeRef> out;
  for (size_t i = 0; i < numPrimals; ++i) out.push_back(NodeRef{static_cast<int32_t>(i)});
  return out;
}

std::vector<NodeRef> JointGraph::tangents() const {
  std::vector<NodeRef> out;
  for (size_t i = 0; i < numTangents; ++i) out.push_back(NodeRef{static_cast<int32_t>(numPrimals + i)});
  return out;
}

const ValueList& JointGraph::outputs() const { return graph.outputNode()->args[0].as<ValueList>(); }

namespace {

const std::source_location kHere = std::source_location::current();

ExampleInput tangentSpec(std::string name, const TensorMeta& out, uint64_t seed) {
  ExampleInput in;
  in.name = std::move(name);
  IntList hints;  // example inputs are concrete: the sizes under the hints
  for (const auto& s : out.sizes) hints.push_back(s.hint());
  in.meta = fakeTensor(out.dtype, {hints.begin(), hints.end()});
  in.seed = seed;
  return in;
}

}  // namespace

Result<JointGraph> traceJoint(frontend::Model& model, const JointTraceOptions& options) {
  std::vector<ExampleInput> specs = frontend::exampleInputs(model);
  std::vector<frontend::Parameter*> params = model.parameters();
  const size_t numParams = params.size();
  for (frontend::Parameter* b : model.buffers()) params.push_back(b);
  JointGraph joint;
  frontend::TraceContext ctx(options.hooks);
  // The joint trace records the tape whatever the caller's grad mode (it is restored after).
  struct EnableGrad {
    bool previous = autograd::GradMode::enabled();
    EnableGrad() { autograd::GradMode::setEnabled(true); }
    ~EnableGrad() { autograd::GradMode::setEnabled(previous); }
  } enableGrad;
  auto graph = frontend::catchErrors([&] {
    std::vector<Tensor> primals;
    for (size_t i = 0; i < params.size(); ++i) {
      Tensor t = ctx.placeholder(params[i]->path(), params[i]->meta());
      ctx.bind(params[i], t.node());
      if (i < numParams) {
        autograd::setRequiresGrad(t, true, params[i]->path());
        ctx.bindGrad(params[i], t.autograd());
      }
      primals.push_back(t);
    }
    std::vector<Tensor> in;
    for (size_t i = params.size(); i < specs.size(); ++i) {
      in.push_back(ctx.input(specs[i].name, specs[i].meta));
      primals.push_back(in.back());
    }
    std::vector<Tensor> outputs = model.forward(in);
    ValueList results;
    for (const Tensor& t : outputs) {
      if (!t.isTraced()) frontend::fail("forward() returned a tensor that is not part of the trace", kHere);
      results.push_back(t.node());
    }
    if (options.afterForward) options.afterForward();
    // The backward: one tangent per output that requires grad, gradients for the primals that do.
    std::vector<Tensor> diffOutputs, tangents, diffPrimals;
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (!autograd::requiresGrad(outputs[i])) continue;
      const std::string name = "tangents_" + std::to_string(tangents.size() + 1);
      const TensorMeta m = outputs[i].meta();
      specs.push_back(tangentSpec(name, m, model.seed + specs.size()));
      tangents.push_back(ctx.placeholder(name, fakeTensor(m.dtype, m.sizes)));
      diffOutputs.push_back(outputs[i]);
      joint.tangentOutputs.push_back(i);
    }
    for (const Tensor& p : primals)
      if (autograd::requiresGrad(p)) diffPrimals.push_back(p);
    autograd::TensorList grads;
    if (!diffOutputs.empty() && !diffPrimals.empty())
      grads = autograd::grad(diffOutputs, diffPrimals, tangents, {.allowUnused = true});
    size_t next = 0;
    for (const Tensor& p : primals) {
      const bool wants = autograd::requiresGrad(p);
      joint.requiresGrad.push_back(wants);
      const Tensor g = wants && next < grads.size() ? grads[next++] : Tensor{};
      results.push_back(g.defined() ? Value(g.node()) : Value(None{}));
    }
    ctx.builder().output(std::move(results));
    if (const Error* e = ctx.builder().error()) throw FrontendError(*e);
    // Tangent placeholders were created after the forward: move them to the front.
    const Graph& traced = ctx.builder().graph();
    std::vector<NodeRef> inputs = traced.placeholders();
    auto g = extractGraph(traced, inputs, traced.outputNode()->args[0].as<ValueList>(), "joint");
    if (!g.ok()) throw FrontendError(g.error());
    joint.numPrimals = primals.size();
    joint.numTangents = tangents.size();
    joint.numForwardOutputs = outputs.size();
    return std::move(*g);
  });
  FATHOM_TRY(graph);
  joint.graph = std::move(*graph);
  joint.inputs = std::move(specs);
  FATHOM_TRY(functionalize(joint));
  FATHOM_TRY(joint.graph.verify());
  return joint;
}

}  // namespace fathom::aot
