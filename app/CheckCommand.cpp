// `fathom check DUMP [--graph NAME|--all] [--inputs FILE] [--sizes s0=8,s1=64] [--strict-strides]
//                    [--values] [--backend eager|jit] [--json]`: runs graphs under the debug interpreter, which compares
// every node's recorded meta (sizes, strides, storage offset, dtype, aliasing; symbolic sizes
// evaluated under the symbols bound from the inputs) with the real result, and classifies each
// mismatch as its origin or inherited from an input. An AOT dump is checked as a training step:
// forward, backward on what the forward saved, joint. Exit 0 when clean, 1 on a mismatch.
//
// --backend jit also checks the compiled graph kernel by kernel (engine/jit/KernelCheck.h): each
// generated kernel runs alone on the eager values of its inputs and is compared with the eager
// values of its outputs; the first that diverges is named with its nodes. Exit 1 then too.
//
// Inputs: --inputs, else the dump's example inputs resized by --sizes, else as recorded. Sizes
// that break the dump's guards are refused before anything runs, naming the failing guard.
#include <iostream>
#include <map>
#include <memory>

#include "app/CliCommon.h"
#include "engine/aot/CheckSizes.h"
#include "engine/aot/CheckStep.h"
#include "engine/aot/TrainingStep.h"
#include "engine/graph/PartitionInfo.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/jit/KernelCheck.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::cli {
namespace {

struct CheckCliOptions {
  std::string dump, graph, inputsFile, sizes, memoryLimit;
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
  bool all = false, strictStrides = false, values = false, json = false;
  std::string backend = "eager";
};

struct KernelReport {
  std::string graph;
  KernelCheckReport report;
};

Json kernelReportsJson(const std::vector<KernelReport>& reports) {
  Json out = Json::array();
  for (const auto& k : reports) {
    Json list = Json::array();
    for (const auto& d : k.report.divergences)
      list.push_back({{"kernel", d.kernel}, {"nodes", d.nodes}, {"value", d.value}, {"field", d.field},
                      {"expected", d.expected}, {"actual", d.actual}});
    out.push_back({{"graph", k.graph}, {"kernels", k.report.kernels}, {"generated", k.report.generated},
                   {"divergences", std::move(list)}});
  }
  return out;
}

void printKernelReports(const std::vector<KernelReport>& reports) {
  for (const auto& k : reports) {
    const auto& r = k.report;
    std::cout << "jit, kernel by kernel on graph '" << k.graph << "': " << r.generated << " generated kernels (of "
              << r.kernels << ") run on the eager values, " << r.divergences.size() << " diverge\n";
    for (const auto& d : r.divergences) std::cout << "  " << divergenceText(d) << "\n";
    if (const auto* first = r.firstDivergence())
      std::cout << "first divergence: kernel " << first->kernel << " (%" << first->nodes.front()
                << (first->nodes.size() > 1 ? ", ..." : "") << ")\n";
  }
}

int report(const std::vector<aot::GraphCheck>& checks, const std::vector<KernelReport>& kernels, const CheckCliOptions& o) {
  size_t checked = 0, mismatches = 0, origins = 0, divergences = 0;
  for (const auto& k : kernels) divergences += k.report.divergences.size();
  for (const auto& c : checks) {
    checked += c.checked;
    mismatches += c.mismatches.size();
    for (const auto& m : c.mismatches) origins += m.origin;
  }
  if (o.json) {
    Json list = Json::array(), skipped = Json::array(), graphs = Json::array();
    for (const auto& c : checks) {
      graphs.push_back({{"graph", c.graph}, {"checked", c.checked}, {"mismatches", c.mismatches.size()}});
      for (const auto& m : c.mismatches) list.push_back(mismatchJson(m));
      for (const auto& s : c.skipped) skipped.push_back(c.graph + ": " + s);
    }
    Json j = {{"file", o.dump}, {"checked", checked}, {"mismatches", std::move(list)}, {"origins", origins},
              {"skipped", std::move(skipped)}, {"graphs", std::move(graphs)}};
    if (o.backend == "jit") j["kernels"] = kernelReportsJson(kernels);
    printJson(j);
  } else {
    for (const auto& c : checks) {
      std::cout << "graph '" << c.graph << "': " << c.checked << " nodes checked, " << c.mismatches.size() << " mismatch"
                << (c.mismatches.size() == 1 ? "" : "es") << "\n";
      for (const auto& m : c.mismatches) std::cout << "  " << mismatchLine(m) << "\n";
      if (!c.skipped.empty()) {
        std::cout << "  skipped " << c.skipped.size() << " node" << (c.skipped.size() == 1 ? "" : "s") << ": " << c.skipped.front();
        if (c.skipped.size() > 1) std::cout << ", ...";
        std::cout << "\n";
      }
    }
    std::cout << (mismatches ? std::to_string(mismatches) + " mismatches, " + std::to_string(origins) + " of them origins\n"
                             : "every node matches its recorded meta\n");
    printKernelReports(kernels);
  }
  return mismatches || divergences ? kExitProblem : kExitOk;
}

// --sizes as a binding of every symbol (those not named keep their traced sizes); none without it.
Result<std::optional<std::map<std::string, int64_t>>> sizeBinding(const Dump& dump, const CheckCliOptions& o) {
  if (o.sizes.empty()) return std::optional<std::map<std::string, int64_t>>{};
  if (!dump.shapeEnv) return invalidInput("--sizes needs a symbolic dump (this one has no shape_env)", o.dump);
  auto b = aot::symbolSizes(*dump.shapeEnv, o.sizes, "--sizes");
  if (!b.ok()) return b.error().within(o.dump);
  return std::optional<std::map<std::string, int64_t>>(std::move(*b));
}

// A training step kernel by kernel: the forward on the primals, the backward on what an eager
// forward saved and the tangents.
template <class InputsOf, class CheckKernelsOf>
Status checkStepKernels(const Dump& dump, const InputsOf& inputsOf, const CheckKernelsOf& checkKernelsOf) {
  const PartitionInfo& info = *dump.partition;
  auto all = inputsOf(info.joint, true);
  FATHOM_TRY(all);
  const aot::StepInputs in = aot::splitJointInputs(dump, *all);
  FATHOM_TRY(checkKernelsOf(info.forward, in.primals));
  auto fresh = inputsOf(info.joint, true);
  FATHOM_TRY(fresh);
  const aot::StepInputs again = aot::splitJointInputs(dump, *fresh);
  auto step = aot::runPartitioned(*dump.graph(info.forward), *dump.graph(info.backward), info, again.primals, again.tangents);
  FATHOM_TRY(step);
  return checkKernelsOf(info.backward, aot::backwardInputs(*dump.graph(info.backward), info, step->saved, again.tangents));
}

int runCheck(const CheckCliOptions& o) {
  if (o.all && !o.graph.empty()) return usageError("check: --graph and --all exclude each other");
  if (o.backend != "eager" && o.backend != "jit") return usageError("check: --backend must be eager or jit, not '" + o.backend + "'");
  if (int limited = applyMemoryLimit(o.memoryLimit); limited != kExitOk) return limited;
  int rc = kExitOk;
  auto dump = loadDumpOrReport(o.dump, &rc, o.load);
  if (!dump) return rc;
  auto sized = sizeBinding(*dump, o);
  if (!sized.ok()) return reportError(sized.error());
  const std::optional<std::map<std::string, int64_t>> binding = std::move(*sized);
  CheckOptions co;
  co.strictStrides = o.strictStrides;
  co.checkValues = o.values;
  // The inputs of `name`, guarded and materialized.
  auto inputsOf = [&](const std::string& name, bool useFile) -> Result<ValueList> {
    auto specs = graphInputs(*dump, name, useFile ? o.inputsFile : std::string(), o.dump, o.load);
    FATHOM_TRY(specs);
    if (binding) {
      auto r = resizeInputs(*dump->graph(name), std::move(*specs), *binding);
      if (!r.ok()) return r.error().within("--sizes");
      specs = std::move(*r);
    }
    if (auto guarded = aot::checkSizeGuards(*dump, *dump->graph(name), *specs); !guarded.ok()) return guarded.error().within(o.dump);
    auto values = materializeInputs(*specs);
    if (!values.ok()) return values.error().within(o.dump + ": graph '" + name + "'");
    return values;
  };
  std::vector<aot::GraphCheck> checks;
  std::vector<KernelReport> kernels;
  // --backend jit: graph `name` kernel by kernel on `inputs`.
  auto checkKernelsOf = [&](const std::string& name, const ValueList& inputs) -> Status {
    if (o.backend != "jit") return {};
    auto r = checkKernels(*dump->graph(name), inputs);
    if (!r.ok()) return r.error().within(o.dump + ": graph '" + name + "': jit");
    kernels.push_back({name, std::move(*r)});
    return {};
  };
  if (dump->partition && o.graph.empty()) {
    const PartitionInfo& info = *dump->partition;
    const size_t numPrimals = dump->graph(info.forward)->placeholders().size();
    auto all = inputsOf(info.joint, true);
    if (!all.ok()) return reportError(all.error());
    if (all->size() < numPrimals) return reportError(invalidInput("the joint graph has fewer inputs than the forward graph", o.dump));
    const aot::StepInputs in = aot::splitJointInputs(*dump, *all);
    auto step = aot::checkTrainingStep(*dump, in.primals, in.tangents, co);
    if (!step.ok()) return reportError(step.error().within(o.dump));
    checks = std::move(*step);
    if (auto k = checkStepKernels(*dump, inputsOf, checkKernelsOf); !k.ok()) return reportError(k.error());
  } else {
    std::vector<std::string> names;
    if (o.all)
      for (const auto& g : dump->graphs) names.push_back(g.name);
    else {
      auto g = selectGraph(*dump, o.graph, o.dump);
      if (!g.ok()) return reportError(g.error());
      names.push_back((*g)->name);
    }
    for (const auto& name : names) {
      auto inputs = inputsOf(name, names.size() == 1);
      if (!inputs.ok()) return reportError(inputs.error());
      co.graphName = name;
      if (o.backend == "jit") {
        auto again = inputsOf(name, names.size() == 1);  // the check may write into its inputs
        if (!again.ok()) return reportError(again.error());
        if (auto k = checkKernelsOf(name, *again); !k.ok()) return reportError(k.error());
      }
      auto c = aot::checkGraph(*dump->graph(name), std::move(*inputs), co);
      if (!c.ok()) return reportError(c.error().within(o.dump));
      checks.push_back(std::move(*c));
    }
  }
  return report(checks, kernels, o);
}

}  // namespace

Command addCheckCommand(CLI::App& parent) {
  auto o = std::make_shared<CheckCliOptions>();
  CLI::App* app = parent.add_subcommand(
      "check", "Run graphs under the debug interpreter: every node's recorded meta against the real result");
  addDumpArgument(app, &o->dump, &o->load);
  addGraphOption(app, &o->graph, "Check this graph only (default: the first; an AOT dump's whole training step)");
  app->add_flag("--all", o->all, "Check every graph of the dump");
  addInputsOption(app, &o->inputsFile);
  app->add_option("--sizes", o->sizes, "Bind the dump's symbols to these sizes, e.g. s0=8,s1=64 (inputs are resized; symbols not named keep their traced sizes)");
  addMemoryLimitOption(app, &o->memoryLimit);
  app->add_flag("--strict-strides", o->strictStrides, "Compare the strides of size-1 dimensions too");
  app->add_flag("--values", o->values, "Also check values: NaN/Inf, and each node against its kernel rerun in float64");
  app->add_option("--backend", o->backend, "eager, or jit: also run each generated kernel alone on the eager values "
                                           "and name the first that diverges");
  app->add_flag("--json", o->json, "Print JSON: {checked, mismatches: [{graph, node, op, field, expected, actual, origin, "
                                   "source}], origins, skipped, graphs, kernels (jit): [{graph, kernels, generated, "
                                   "divergences: [{kernel, nodes, value, field, expected, actual}]}]}");
  return {app, [o] { return runCheck(*o); }};
}

}  // namespace fathom::cli
