#include "engine/frontend/Model.h"

#include "engine/frontend/OpCall.h"
#include "engine/interp/ExampleInputs.h"

namespace fathom::frontend {
namespace {

std::vector<Parameter*> placeholderParameters(Model& model) {
  std::vector<Parameter*> all = model.parameters();
  const std::vector<Parameter*> buffers = model.buffers();
  all.insert(all.end(), buffers.begin(), buffers.end());
  return all;
}

}  // namespace

ExampleInput inputSpec(std::string name, DType dtype, const IntList& sizes,
                       std::optional<std::pair<double, double>> range) {
  ExampleInput in;
  in.name = std::move(name);
  in.meta = fakeTensor(dtype, {sizes.begin(), sizes.end()});
  in.range = range;
  return in;
}

std::vector<ExampleInput> exampleInputs(Model& model) {
  std::vector<ExampleInput> out;
  for (Parameter* p : placeholderParameters(model)) {
    p->setSeed(model.seed + out.size());
    out.push_back(p->spec());
  }
  for (ExampleInput in : model.inputSpecs()) {
    if (in.data.empty()) in.seed = model.seed + out.size();
    out.push_back(std::move(in));
  }
  return out;
}

Result<EagerRun> runEager(Model& model) {
  std::vector<ExampleInput> all = exampleInputs(model);
  const size_t inputCount = model.inputSpecs().size();
  const std::vector<ExampleInput> specs(all.end() - static_cast<std::ptrdiff_t>(inputCount), all.end());
  auto inputs = materializeInputs(specs);
  FATHOM_TRY(inputs);
  auto outputs = runEager(model, *inputs);
  FATHOM_TRY(outputs);
  return EagerRun{std::move(*inputs), std::move(*outputs)};
}

Result<ValueList> runEager(Model& model, const ValueList& inputs) {
  if (TraceContext::current()) return invalidInput("runEager() called while a trace is live");
  (void)exampleInputs(model);  // parameters' seeds
  return catchErrors([&] {
    std::vector<Tensor> in;
    for (const auto& v : inputs) {
      if (!v.is<fathom::Tensor>())
        fail("model inputs must be tensors, got " + v.kindName(), std::source_location::current());
      in.push_back(Tensor::eager(v.as<fathom::Tensor>()));
    }
    ValueList out;
    for (const Tensor& t : model.forward(in)) out.push_back(t.real());
    return out;
  });
}

Result<Dump> trace(Model& model, const TraceHooks& hooks) {
  std::vector<ExampleInput> inputs = exampleInputs(model);
  const std::vector<Parameter*> params = placeholderParameters(model);
  TraceContext ctx(hooks);
  auto graph = catchErrors([&] {
    for (Parameter* p : params) ctx.bind(p, ctx.placeholder(p->path(), p->meta()).node());
    std::vector<Tensor> in;
    for (size_t i = params.size(); i < inputs.size(); ++i) in.push_back(ctx.input(inputs[i].name, inputs[i].meta));
    ValueList outputs;
    for (const Tensor& t : model.forward(in)) {
      if (!t.isTraced())
        fail("forward() returned a tensor that is not part of the trace", std::source_location::current());
      outputs.push_back(t.node());
    }
    ctx.builder().output(std::move(outputs));
    auto g = ctx.builder().finish();
    if (!g.ok()) throw FrontendError(g.error());
    return std::move(*g);
  });
  FATHOM_TRY(graph);
  Dump dump;
  dump.producer = {{"tool", "fathom"}, {"version", FATHOM_VERSION}};
  dump.graphs.push_back({"forward", std::move(*graph)});
  dump.inputs.emplace_back("forward", std::move(inputs));
  return dump;
}

}  // namespace fathom::frontend
