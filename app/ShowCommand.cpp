// `fathom show DUMP [--graph NAME] [--format text|dot|json]`: prints one graph (the first one
// unless --graph names another) as text (one line per node, FX style), Graphviz dot source, or
// JSON. The JSON form is itself a dump holding just that graph, its example inputs and recorded
// outputs, so `fathom show big.fathom.json --graph backward --json > bw.fathom.json` extracts a
// graph.
//
// Side files of the JSON form: printed, it has no folder of its own, and the reader takes side
// files only inside the folder a dump is read from (unless --trust-paths). So it names them as
// the dump it came from does, relative to that dump's folder: saved beside it (the usual extract)
// it loads as is; saved elsewhere, its side files go along, as with any dump. Absolute names, which
// would load anywhere, are what the rule refuses; inlining the values instead would make large
// JSON and cannot spell NaN. (A side file outside that folder, only read with --trust-paths,
// stays absolute and needs --trust-paths again.)
//
// `--kernels` prints the graph's fusion plan instead (engine/compile/FusionPlan.h): one line per
// kernel and a summary, or with --json {graph, kernels: [{name, kind, nodes, inputs, outputs,
// sizes, code, why}], summary}, nodes named as in the dump. Each pointwise and reduction kernel
// says whether the jit backend generates it ("llvm") or runs it on the eager kernels, and why.
// `--ir KERNEL` prints one kernel's lowered form (loops, buffers with the strides it trusts, its
// instructions) and its LLVM IR after the O3 passes (before them with --unoptimized).
#include <filesystem>
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "engine/compile/FusionPlan.h"
#include "engine/compile/FusionPlanText.h"
#include "engine/compile/KernelJit.h"
#include "engine/compile/KernelLowering.h"
#include "engine/graph/GraphPrinter.h"

namespace fathom::cli {
namespace {

struct ShowOptions {
  std::string dump;
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
  std::string graph;
  std::string format = "text";
  bool json = false;
  bool kernels = false;
  std::string ir;  // a kernel's name
  bool unoptimized = false;
};

// A dump with only `graph` (and its inputs and recorded outputs), in canonical form.
std::string singleGraphDump(const Dump& dump, const NamedGraph& graph, const std::string& path) {
  Dump one;
  one.producer = dump.producer;
  one.shapeEnv = dump.shapeEnv;  // its sizes are expressions over these symbols
  one.graphs.push_back(graph);
  if (const auto* inputs = dump.inputsFor(graph.name)) one.inputs.emplace_back(graph.name, *inputs);
  if (const auto* outputs = dump.outputsFor(graph.name)) one.outputs.emplace_back(graph.name, *outputs);
  rebaseSideFiles(one, std::filesystem::path(path).parent_path().string());  // as the source names them
  return serializeDump(one);
}

Json nodeNamesJson(const Graph& g, const std::vector<NodeRef>& nodes) {
  Json out = Json::array();
  for (NodeRef n : nodes) out.push_back(g.node(n).name);
  return out;
}

// What the generator makes of each kernel: "" (generated) or why it runs on the eager kernels.
std::vector<std::string> eagerReasons(const Graph& g, const FusionPlan& plan) {
  std::vector<std::string> why;
  for (const FusedKernel& k : plan.kernels) {
    auto lowered = lowerKernel(g, k);
    why.push_back(lowered.ok() ? "" : lowered.error().message);
  }
  return why;
}

Json fusionPlanJson(const NamedGraph& g, const FusionPlan& plan) {
  Json kernels = Json::array();
  const auto why = eagerReasons(g.graph, plan);
  for (const FusedKernel& k : plan.kernels) {
    const std::string& reason = why[static_cast<size_t>(&k - plan.kernels.data())];
    kernels.push_back({{"name", k.name},
                       {"kind", kernelKindName(k.kind)},
                       {"nodes", nodeNamesJson(g.graph, k.nodes)},
                       {"inputs", nodeNamesJson(g.graph, k.inputs)},
                       {"outputs", nodeNamesJson(g.graph, k.outputs)},
                       {"sizes", symIntListJson(k.sizes)},
                       {"code", reason.empty() ? "llvm" : "eager"},
                       {"why", reason}});
  }
  const FusionSummary s = plan.summary();
  Json summary = {{"kernels", s.kernels},   {"pointwise", s.pointwise}, {"pointwise_ops", s.pointwiseOps},
                  {"reduction", s.reduction}, {"reduction_ops", s.reductionOps}, {"row_local", s.rowLocal},
                  {"extern", s.extern_},     {"text", fusionSummaryLine(s)}};
  return {{"graph", g.name}, {"kernels", std::move(kernels)}, {"summary", std::move(summary)}};
}

int showKernels(const NamedGraph& g, bool json) {
  auto plan = planFusion(g.graph);
  if (!plan.ok()) return reportError(plan.error().within("graph " + g.name));
  if (json) {
    printJson(fusionPlanJson(g, *plan));
    return kExitOk;
  }
  std::vector<std::string> notes = eagerReasons(g.graph, *plan);
  for (size_t i = 0; i < notes.size(); ++i) {
    if (plan->kernels[i].kind == KernelKind::Extern) notes[i].clear();
    else notes[i] = notes[i].empty() ? "-> llvm" : "eager: " + notes[i];
  }
  std::cout << printFusionPlan(g.graph, *plan, notes);
  return kExitOk;
}

int showKernelIr(const NamedGraph& g, const std::string& name, bool optimized) {
  auto plan = planFusion(g.graph);
  if (!plan.ok()) return reportError(plan.error().within("graph " + g.name));
  for (const FusedKernel& k : plan->kernels) {
    if (k.name != name) continue;
    auto lowered = lowerKernel(g.graph, k);
    if (!lowered.ok()) return reportError(invalidInput("kernel " + name + " runs on the eager kernels: " + lowered.error().message));
    std::cout << lowered->text() << "\n";
    auto ir = KernelJit::process().ir(*lowered, optimized);
    if (!ir.ok()) return reportError(ir.error());
    std::cout << *ir;
    return kExitOk;
  }
  return reportError(invalidInput("graph " + g.name + " has no kernel '" + name + "' (fathom show --kernels lists them)"));
}

int runShow(const ShowOptions& opts) {
  if (opts.kernels && opts.format == "dot") return usageError("show --kernels prints text or JSON, not dot");
  int rc = kExitOk;
  std::optional<Dump> dump;
  const NamedGraph* graph = loadGraphOrReport(opts.dump, opts.graph, opts.load, &dump, &rc);
  if (!graph) return rc;
  const NamedGraph& g = *graph;
  if (!opts.ir.empty()) return showKernelIr(g, opts.ir, !opts.unoptimized);
  if (opts.kernels) return showKernels(g, opts.json || opts.format == "json");
  const std::string format = opts.json ? "json" : opts.format;
  if (format == "dot") std::cout << graphToDot(g.graph, g.name);
  else if (format == "json") std::cout << singleGraphDump(*dump, g, opts.dump);
  else std::cout << printGraph(g.graph);
  return kExitOk;
}

}  // namespace

Command addShowCommand(CLI::App& parent) {
  auto opts = std::make_shared<ShowOptions>();
  CLI::App* app = parent.add_subcommand("show", "Print a graph as text, Graphviz dot, or JSON, or its fusion plan");
  addDumpArgument(app, &opts->dump, &opts->load);
  addGraphOption(app, &opts->graph);
  app->add_option("--format", opts->format, "text (one line per node), dot (Graphviz) or json (a one-graph dump)")
      ->check(CLI::IsMember({"text", "dot", "json"}))
      ->capture_default_str();
  app->add_flag("--json", opts->json, "Same as --format json");
  app->add_flag("--kernels", opts->kernels,
                "Print the fusion plan instead: one line per kernel (kind, nodes, iteration sizes) and a summary; "
                "with --json {graph, kernels: [{name, kind, nodes, inputs, outputs, sizes, code, why}], summary}; "
                "code is llvm (generated by --backend jit) or eager, and why");
  app->add_option("--ir", opts->ir, "Print kernel KERNEL (a name from --kernels): its loops, buffers and strides, then its LLVM IR");
  app->add_flag("--unoptimized", opts->unoptimized, "With --ir: the LLVM IR as generated, before the O3 passes");
  return {app, [opts] { return runShow(*opts); }};
}

}  // namespace fathom::cli
