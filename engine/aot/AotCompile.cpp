#include "engine/aot/AotCompile.h"

#include <chrono>

#include "engine/aot/GraphExtract.h"
#include "engine/ops/OpRegistry.h"

namespace fathom::aot {
namespace {

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

sym::GuardContext contextOf(const Graph& g, const Node& n, const std::string& stage) {
  sym::GuardContext c{stage, n.name, n.target, n.provenance.source, n.provenance.module, {}};
  forEachNodeRef(n, [&](NodeRef r) { c.argNames.push_back(g.node(r).name); });
  return c;
}

Status propagate(const Graph& graph, sym::ShapeEnv* env, const std::string& stage) {
  for (const Node& n : graph.nodes()) {
    if (n.kind != NodeKind::Call || !n.op) continue;
    if (env) env->setContext(contextOf(graph, n, stage));
    auto bound = bindArguments(n.op->schema, n.args, n.kwargs);
    if (!bound.ok()) return bound.error().within("%" + n.name);
    ValueList metas;
    metas.reserve(bound->size());
    for (const auto& a : *bound) metas.push_back(fakeValueOf(graph, a));
    auto fake = callMeta(*n.op, metas);
    if (!fake.ok()) return fake.error().within("%" + n.name);
    const Value got = fake->size() == 1 ? (*fake)[0] : Value(*fake);
    const auto* want = n.val.tryAs<TensorMeta>();
    const auto* have = got.tryAs<TensorMeta>();
    if (want && have && (want->dim() != have->dim() || want->dtype != have->dtype))
      return internalError("compiling: %" + n.name + " was recorded as " + want->str() + " but its meta now gives " +
                           have->str());
  }
  return {};
}

std::vector<ExampleInput> primalsOf(const JointGraph& j) {
  return std::vector<ExampleInput>(j.inputs.begin(), j.inputs.begin() + static_cast<std::ptrdiff_t>(j.numPrimals));
}

// Seeded example inputs for the backward graph on its own (sizes under the hints), so it can be
// run and checked alone; none when it takes a SymInt (an example input is a tensor).
std::optional<std::vector<ExampleInput>> backwardInputs(const Graph& backward, uint64_t seed) {
  std::vector<ExampleInput> out;
  for (NodeRef r : backward.placeholders()) {
    const Node& n = backward.node(r);
    const auto* m = n.val.tryAs<TensorMeta>();
    if (!m) return std::nullopt;
    IntList hints;
    for (const auto& s : m->sizes) hints.push_back(s.hint());
    ExampleInput in;
    in.name = n.name;
    in.meta = fakeTensor(m->dtype, {hints.begin(), hints.end()});
    if (isFloating(m->dtype)) in.seed = seed + out.size();
    else {
      in.seed = seed + out.size();
      in.range = std::pair<double, double>{0, 2};
    }
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace

Status propagateFake(const Graph& graph) { return propagate(graph, nullptr, "compile"); }

Result<AotCompiled> aotCompile(frontend::Model& model, const AotOptions& options) {
  AotCompiled out;
  out.env = sym::ShapeEnv::create(options.shapes.shapes);
  sym::ShapeEnv& env = *out.env;
  JointTraceOptions jo;
  if (options.shapes.dynamic)
    jo.hooks.makeSize = [&env](int64_t hint, const std::string& source) { return env.createSize(hint, source); };
  jo.hooks.beforeNode = [&env](const frontend::NodeContext& c) {
    env.setContext({c.stage == "backward" ? "aot-backward" : "trace", c.node, c.op, c.source, c.module, c.argNames});
  };
  const bool lazy = options.backward == BackwardTiming::Lazy;
  TraceLog* log = options.shapes.log;
  const int64_t id = options.shapes.compileId;
  const CompileContext& context = options.shapes.compileContext;
  if (log) {
    connectTraceLog(env, *log, id);
    log->emit(id, "aot", CompileStartEvent{options.shapes.dynamic, std::string(partitionerName(options.partitioner)),
                                           std::string(lazy ? "lazy" : "eager"), context});
  }
  struct Unlisten {
    sym::ShapeEnv& env;
    ~Unlisten() { env.setListener({}); }
  } unlisten{env};
  if (lazy)
    jo.afterForward = [&] {
      out.installedGuards = env.guards().size();
      if (log) log->emit(id, "aot-forward", GuardsInstalledEvent{static_cast<int64_t>(out.installedGuards)});
    };
  auto start = std::chrono::steady_clock::now();
  auto joint = traceJoint(model, jo);
  FATHOM_TRY(joint);
  out.traceMs = msSince(start);
  start = std::chrono::steady_clock::now();
  auto parts = partition(*joint, options.partitioner);
  FATHOM_TRY(parts);
  out.partitionMs = msSince(start);
  if (log) {
    log->emit(id, "aot", GraphCapturedEvent{"joint", static_cast<int64_t>(joint->graph.size()), {}, {}, context});
    log->emit(id, "partition",
              PartitionEvent{parts->info.partitioner, static_cast<int64_t>(parts->info.saved.size()), parts->info.savedBytes(),
                             static_cast<int64_t>(parts->forward.size()), static_cast<int64_t>(parts->backward.size()),
                             out.partitionMs});
  }
  start = std::chrono::steady_clock::now();
  FATHOM_TRY(propagate(parts->forward, &env, "aot-forward"));
  FATHOM_TRY(propagate(parts->backward, &env, "aot-backward"));
  out.compileMs = msSince(start);
  if (!lazy) out.installedGuards = env.guards().size();
  for (size_t i = out.installedGuards; i < env.guards().size(); ++i) {
    const auto& g = env.guards()[i];
    out.lateGuards.push_back({i, g.expr.str(), g.where, g.reason});
    if (log) log->emit(id, g.where.stage, LateGuardEvent{{g.expr.str(), traceSiteOf(g.where), g.reason}});
  }
  if (log) {
    log->emit(id, "aot-backward",
              BackwardCompiledEvent{lazy ? "first backward" : "forward", static_cast<int64_t>(env.guards().size())});
    log->emit(id, "aot", CompileEndEvent{out.traceMs + out.partitionMs + out.compileMs, context});
  }
  Dump& d = out.dump;
  d.producer = {{"tool", "fathom"}, {"version", FATHOM_VERSION}};
  if (options.shapes.dynamic) d.shapeEnv = out.env;
  d.graphs.push_back({"joint", joint->graph});
  d.graphs.push_back({"forward", std::move(parts->forward)});
  d.graphs.push_back({"backward", std::move(parts->backward)});
  d.inputs.emplace_back("joint", joint->inputs);
  d.inputs.emplace_back("forward", primalsOf(*joint));
  if (auto bwd = backwardInputs(*d.graph("backward"), model.seed + joint->inputs.size()))
    d.inputs.emplace_back("backward", std::move(*bwd));
  d.partition = std::make_shared<PartitionInfo>(std::move(parts->info));
  out.joint = std::move(*joint);
  return out;
}

}  // namespace fathom::aot
