// `fathom run DUMP [--graph NAME] [--seed N] [--inputs FILE] [--memory-limit BYTES]
//                   [--backend eager|jit|aot_eager|aot_jit] [--unchecked] [--json]`:
// runs one graph on real tensors with the interpreter and prints each output's layout and a
// checksum (sum of all elements, largest |x|) plus the wall time of the run. A dump that records
// its producer's outputs (the PyTorch exporter's) is compared with them: dtype, sizes and strides
// exactly, values within --rtol/--atol (layout only for values computed from random draws, since
// Fathom's generator is not PyTorch's); exit 1 when one differs. --backend aot_eager
// runs a partitioned dump's training step (forward graph, mutations applied back, backward
// graph) and compares every output, gradient and updated input with the eager autograd engine
// on the joint graph's forward (a value apart beyond 1e-4 of its largest element is judged again
// by PyTorch's accuracy rule, against the step run in float64); exit 1 when one differs.
//
// --backend jit compiles the graph (engine/jit: fused kernels generated with LLVM, the rest eager)
// and also runs it on the eager interpreter, comparing every output (layout exactly, values within
// --rtol/--atol); exit 1 when one differs. The compiled kernels trust the recorded strides: the
// inputs are checked against them first (exit 2 naming the input) unless --unchecked, which runs
// the kernels on a wrongly described input as a compiler would - and shows the wrong result.
// --backend aot_jit is aot_eager with both graphs through the jit.
//
// Inputs come from --inputs, else the dump's example inputs, else are drawn from the
// placeholders' meta. The memory limit is set before anything is allocated, so a dump asking
// for a 4 TB input is refused with exit 2 instead of being killed by the OS.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "app/CliCommon.h"
#include "engine/aot/CheckStep.h"
#include "engine/aot/TrainingStep.h"
#include "engine/core/TraceLog.h"
#include "engine/dump/VerdictJson.h"
#include "engine/graph/GraphPrinter.h"
#include "engine/graph/PartitionInfo.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "engine/interp/RandomOps.h"
#include "engine/interp/RecordedComparison.h"
#include "engine/interp/ValueDiff.h"
#include "app/JitReport.h"
#include "engine/jit/JitBackend.h"
#include "engine/tensor/Storage.h"

namespace fathom::cli {
namespace {

struct RunOptions {
  std::string dump;
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
  std::string graph;
  std::string seed;  // parsed here: CLI11 2.1 wraps "-1" into a huge unsigned value
  std::string inputsFile;
  std::string memoryLimit;
  std::string backend = "eager";
  bool check = false;  // aot_eager: run the step under the debug interpreter too
  bool unchecked = false;  // jit: no input layout checks
  std::string traceLog;    // jit: kernel_compiled and compile_assumption events
  bool json = false;
  // Against recorded outputs: PyTorch's accuracy rule with `tol`; --rtol/--atol (strict) instead
  // compare every value within rtol of each output's largest element plus atol.
  double rtol = 1e-4, atol = 1e-5, tol = kSameTolerance;
  bool strict = false;  // --rtol or --atol given
};

struct Checksum {
  double sum = 0, absmax = 0;
};

JitOptions jitOptions(const RunOptions& opts, TraceLog* log) {
  JitOptions j;
  j.checkInputs = !opts.unchecked;
  j.traceLog = log;
  j.dumpPath = loggedPath(opts.dump);
  return j;
}

// A jit run's trace log (--trace-log) and statistics; the runner it makes writes to both.
struct JitSession {
  std::optional<TraceLog> log;
  JitRun stats;

  Result<aot::GraphRunner> runner(const RunOptions& opts, std::map<const Graph*, std::string> names) {
    if (!opts.traceLog.empty()) {
      auto opened = TraceLog::open(opts.traceLog);
      FATHOM_TRY(opened);
      log.emplace(std::move(*opened));
    }
    return jitGraphRunner(jitOptions(opts, log ? &*log : nullptr), &stats, std::move(names));
  }
};

Checksum checksum(const Tensor& t) {
  Checksum c;
  const int64_t n = t.numel();
  for (int64_t i = 0; i < n; ++i) {
    const double x = t.atLinear(i);
    c.sum += x;
    if (std::isnan(x)) c.absmax = x;  // a NaN anywhere shows in absmax
    else if (std::fabs(x) > c.absmax) c.absmax = std::fabs(x);  // false once absmax is NaN
  }
  return c;
}

Json outputJson(size_t index, const Value& v) {
  Json j = {{"index", index}};
  if (auto* t = v.tryAs<Tensor>(); t && t->defined()) {
    const Checksum c = checksum(*t);
    j["dtype"] = std::string(dtypeName(t->dtype()));
    j["sizes"] = t->sizes();
    j["strides"] = t->strides();
    j["offset"] = t->storageOffset();
    j["sum"] = c.sum;  // NaN and infinities print as null
    j["absmax"] = c.absmax;
  } else {
    j["value"] = formatValue(v);  // a non-tensor output (an int, None, a list)
  }
  return j;
}

void printOutputText(size_t index, const Value& v) {
  std::cout << "  output " << index << ": ";
  auto* t = v.tryAs<Tensor>();
  if (!t || !t->defined()) {
    std::cout << formatValue(v) << "\n";
    return;
  }
  const Checksum c = checksum(*t);
  char sums[96];
  std::snprintf(sums, sizeof sums, "sum %.9g  absmax %.9g", c.sum, c.absmax);
  std::cout << dtypeName(t->dtype()) << " sizes " << intListText(t->sizes()) << " strides "
            << intListText(t->strides()) << " offset " << t->storageOffset() << "  " << sums << "\n";
}

Json diffJson(const aot::StepDiff& d) {
  Json j = {{"kind", d.what}, {"index", d.index}, {"max_abs_diff", d.maxAbsDiff}, {"scale", d.scale}, {"ok", d.ok}};
  if (d.byFloat64) j["fp64"] = {{"error", d.error}, {"reference_error", d.referenceError}, {"allowed", d.allowed}};
  if (!d.name.empty()) j["input"] = d.name;
  if (!d.sizesMatch) j["sizes_match"] = false;
  return j;
}

std::string stepDiffText(const aot::StepDiff& d) {
  if (!d.sizesMatch) return "sizes differ";
  char line[240];
  const int n = std::snprintf(line, sizeof line, "max |diff| %.3g (largest |x| %.3g)", d.maxAbsDiff, d.scale);
  if (d.byFloat64 && n > 0)
    std::snprintf(line + n, sizeof line - static_cast<size_t>(n), "; fp64: rmse %.3g against float64, eager's %.3g (allowed %.3g)",
                  d.error, d.referenceError, d.allowed);
  return line;
}

// The eager autograd reference on a draw of the joint's inputs.
Result<aot::TrainingStep> replayedReference(const Dump& dump, const ValueList& jointInputs) {
  const PartitionInfo& info = *dump.partition;
  const aot::StepInputs in = aot::splitJointInputs(dump, jointInputs);
  return aot::runReplayedStep(*dump.graph(info.joint), *dump.graph(info.forward), info, in.primals, in.tangents);
}

// Values compareSteps found apart beyond rtol: PyTorch's accuracy rule decides, against the step
// replayed in float64 on `jointInputs` (a fresh draw). Without that run the strict verdicts stand.
void judgeApartByFloat64(std::vector<aot::StepDiff>& diffs, const Dump& dump, const ValueList& jointInputs,
                         const aot::TrainingStep& got, const aot::TrainingStep& want) {
  if (std::all_of(diffs.begin(), diffs.end(), [](const aot::StepDiff& d) { return d.ok; })) return;
  const PartitionInfo& info = *dump.partition;
  const aot::StepInputs in = aot::splitJointInputs(dump, jointInputs);
  auto fp64 = aot::replayedStepInFloat64(*dump.graph(info.joint), *dump.graph(info.forward), info, in.primals, in.tangents);
  if (fp64.ok()) aot::judgeByFloat64(diffs, got, want, *fp64);
}

// The training step of a partitioned dump, against the eager autograd reference.
int runAotEager(const Dump& dump, const RunOptions& opts, std::optional<uint64_t> seed) {
  if (!dump.partition)
    return reportError(invalidInput("has no partition (graphs joint, forward, backward); make one with 'fathom trace MODEL --aot'", opts.dump));
  const PartitionInfo& info = *dump.partition;
  const Graph* fwd = dump.graph(info.forward);
  const Graph* bwd = dump.graph(info.backward);
  auto specs = chooseInputs(dump.graph(info.joint), info.joint, dump.inputsFor(info.joint), nullptr);
  if (!specs.ok()) return reportError(specs.error().within(opts.dump));
  const size_t numPrimals = fwd->placeholders().size();
  if (specs->size() < numPrimals) return reportError(invalidInput("the joint graph has fewer inputs than the forward graph", opts.dump));
  auto draw = [&]() { return materializeInputs(*specs, seed); };
  auto first = draw(), second = draw();  // each run writes its mutated inputs
  if (!first.ok()) return reportError(first.error().within(opts.dump));
  if (!second.ok()) return reportError(second.error().within(opts.dump));
  // The joint's inputs go to the forward by name, as `fathom check` binds them.
  const aot::StepInputs in = aot::splitJointInputs(dump, *first);
  const ValueList& tangents = in.tangents;
  const auto start = std::chrono::steady_clock::now();
  JitSession session;
  const JitRun& jit = session.stats;
  const bool useJit = opts.backend == "aot_jit";
  auto runner = useJit ? session.runner(opts, {{fwd, info.forward}, {bwd, info.backward}}) : Result<aot::GraphRunner>(aot::GraphRunner{});
  if (!runner.ok()) return reportError(runner.error());
  auto compiled = aot::runPartitioned(*fwd, *bwd, info, in.primals, tangents, *runner);
  const double compiledSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!compiled.ok()) return reportError(compiled.error().within(opts.dump + ": " + opts.backend));
  // The reference runs on inputs of its own: a compiled backward may write into its tangents.
  auto reference = replayedReference(dump, *second);
  if (!reference.ok()) return reportError(reference.error().within(opts.dump + ": eager autograd"));
  auto diffs = aot::compareSteps(*compiled, *reference, info);
  if (auto fresh = draw(); fresh.ok()) judgeApartByFloat64(diffs, dump, *fresh, *compiled, *reference);
  size_t bad = 0;
  for (const auto& d : diffs) bad += d.ok ? 0 : 1;
  std::vector<aot::GraphCheck> checks;
  size_t mismatches = 0;
  if (opts.check) {
    auto third = draw();
    if (!third.ok()) return reportError(third.error().within(opts.dump));
    auto c = aot::checkTrainingStep(dump, aot::splitJointInputs(dump, *third).primals, tangents, {});
    if (!c.ok()) return reportError(c.error().within(opts.dump + ": check"));
    checks = std::move(*c);
    for (const auto& g : checks) mismatches += g.mismatches.size();
  }
  if (opts.json) {
    Json list = Json::array();
    for (const auto& d : diffs) list.push_back(diffJson(d));
    Json outs = Json::array();
    for (size_t i = 0; i < compiled->outputs.size(); ++i) outs.push_back(outputJson(i, compiled->outputs[i]));
    Json j = {{"file", opts.dump}, {"backend", opts.backend}, {"partitioner", info.partitioner}, {"outputs", std::move(outs)},
              {"saved", info.saved.size()}, {"saved_bytes", info.savedBytes()}, {"compared", std::move(list)},
              {"mismatches", bad}, {"match", bad == 0}, {"seconds", compiledSeconds}};
    if (useJit) j["jit"] = jitRunJson(jit);
    if (opts.check) {
      Json found = Json::array();
      for (const auto& g : checks)
        for (const auto& m : g.mismatches)
          found.push_back(mismatchJson(m));
      j["check"] = {{"graphs", checks.size()}, {"mismatches", std::move(found)}};
    }
    printJson(j);
  } else {
    if (useJit) std::cout << "jit: " << jitRunText(jit) << "\n";
    std::cout << opts.backend << " on " << opts.dump << " (" << info.partitioner << " partitioner, " << info.saved.size()
              << " saved values, " << info.savedBytes() << " bytes): " << compiled->outputs.size() << " outputs, "
              << compiled->grads.size() << " gradients, " << compiled->updatedInputs.size() << " updated inputs\n";
    for (size_t i = 0; i < compiled->outputs.size(); ++i) printOutputText(i, compiled->outputs[i]);
    for (const auto& d : diffs) {
      if (d.ok && d.what == "grad" && d.scale == 0 && d.maxAbsDiff == 0 && d.name.empty()) continue;  // no gradient either way
      std::cout << "  " << (d.ok ? "ok       " : "MISMATCH ") << d.what << " " << d.index << (d.name.empty() ? "" : " (" + d.name + ")")
                << ": " << stepDiffText(d) << "\n";
    }
    std::cout << (bad ? std::to_string(bad) + " values differ from eager autograd\n" : "matches eager autograd\n");
    for (const auto& g : checks) {
      std::cout << "check '" << g.graph << "': " << g.checked << " nodes, " << g.mismatches.size() << " mismatches\n";
      for (const auto& m : g.mismatches) std::cout << "  " << mismatchLine(m) << "\n";
    }
  }
  return bad || mismatches ? kExitProblem : kExitOk;
}

// What decided an output, and its numbers.
std::string verdictText(const OutputVerdict& v) {
  char line[256];
  if (!v.diff.sizesMatch) return "sizes differ";
  std::string what;
  switch (v.rule) {
    case OutputRule::Allclose: what = "allclose"; break;
    case OutputRule::Float64:
      std::snprintf(line, sizeof line, "rmse %.3g against float64, PyTorch's %.3g (allowed %.3g)", v.accuracy.error,
                    v.accuracy.referenceError, v.accuracy.allowed);
      what = line;
      break;
    case OutputRule::MaxIndex:
      what = std::to_string(v.indicesDiffering) + " indices differ" + (v.ok ? ", each at an equal maximum of its window" : "");
      break;
    case OutputRule::Random: what = "computed from random draws, so only the layout must match"; break;
    default: what = v.diff.maxAbsDiff == 0 ? "equal" : "not equal";
  }
  std::snprintf(line, sizeof line, "; max |diff| %.3g (largest |x| %.3g)", v.diff.maxAbsDiff, v.diff.scale);
  what = std::string(outputRuleName(v.rule)) + ": " + what + line;
  if (!v.diff.dtypeMatch) what += ", dtype differs";
  if (!v.diff.stridesMatch) what += ", strides differ";
  if (!v.note.empty()) what += " (" + v.note + ")";
  return what;
}

void printRecordedText(const std::vector<OutputVerdict>& verdicts, const std::string& producer, bool strict) {
  size_t bad = 0;
  for (const auto& v : verdicts) {
    bad += v.ok ? 0 : 1;
    std::cout << "  " << (v.ok ? "ok       " : "MISMATCH ") << "output " << v.index << " against " << producer << "'s "
              << v.name << ": " << verdictText(v) << "\n";
  }
  const std::string rule = strict ? " (--rtol/--atol)" : " (PyTorch's accuracy rule: allclose, else float64 error within a multiple of PyTorch's)";
  std::cout << (bad ? std::to_string(bad) + " of " + std::to_string(verdicts.size()) + " outputs differ from " + producer + "'s" + rule + "\n"
                    : "all " + std::to_string(verdicts.size()) + " recorded outputs match " + producer + "'s" + rule + "\n");
}

std::string producerName(const Dump& dump) {
  for (const auto& [k, v] : dump.producer)
    if (k == "tool") return v == "fathom_torch" ? "PyTorch" : v;
  return "the producer";
}

void printGraphRunText(const RunOptions& opts, const NamedGraph& g, const ValueList& outputs, double seconds) {
  char time[64];
  std::snprintf(time, sizeof time, "%.6f s", seconds);
  std::cout << "graph '" << g.name << "' of " << opts.dump << ": " << outputs.size() << " output"
            << (outputs.size() == 1 ? "" : "s") << " in " << time << "\n";
  for (size_t i = 0; i < outputs.size(); ++i) printOutputText(i, outputs[i]);
}

void printOpaqueNote(const std::vector<std::string>& opaque) {
  if (opaque.empty()) return;
  std::cout << "note: " << opaque.size() << " opaque node" << (opaque.size() == 1 ? "" : "s") << " (%" << opaque.front()
            << (opaque.size() > 1 ? ", ..." : "") << ") ran as zeros with the recorded layout; values after "
            << (opaque.size() == 1 ? "it" : "them") << " are not real\n";
}

// The jit's outputs against the eager interpreter's on the same inputs drawn again (the jit may
// have written into its inputs).
Result<std::vector<JitComparison>> compareWithEagerRun(Interpreter& interpreter, const std::vector<ExampleInput>& inputs,
                                                       std::optional<uint64_t> seed, const ValueList& jitOutputs,
                                                       const RunOptions& opts) {
  auto fresh = materializeInputs(inputs, seed);
  FATHOM_TRY(fresh);
  auto eager = interpreter.run(std::move(*fresh));
  if (!eager.ok()) return eager.error().within("eager");
  return compareWithEager(jitOutputs, *eager, opts.rtol, opts.atol);
}

int runGraph(const RunOptions& opts) {
  if (int rc = applyMemoryLimit(opts.memoryLimit); rc != kExitOk) return rc;
  std::optional<uint64_t> seed;
  if (!parseSeed(opts.seed, &seed)) return usageError("--seed: expected an integer from 0 to 2^64-1, got '" + opts.seed + "'");
  int rc = kExitOk;
  auto dump = loadDumpOrReport(opts.dump, &rc, opts.load);
  if (!dump) return rc;
  if (opts.backend == "aot_eager" || opts.backend == "aot_jit") {
    if (!opts.graph.empty() || !opts.inputsFile.empty())
      return usageError("--backend " + opts.backend + " runs the whole training step: no --graph or --inputs");
    return runAotEager(*dump, opts, seed);
  }
  if ((opts.backend != "eager" && opts.backend != "jit") || (opts.unchecked && opts.backend == "eager"))
    return usageError("--backend must be eager, jit, aot_eager or aot_jit (--unchecked only with a jit), not '" + opts.backend + "'");
  auto graph = selectGraph(*dump, opts.graph, opts.dump);
  if (!graph.ok()) return reportError(graph.error());
  const NamedGraph& g = **graph;
  const std::string where = opts.dump + ": graph '" + g.name + "'";

  auto inputs = graphInputs(*dump, g.name, opts.inputsFile, opts.dump, opts.load);
  if (!inputs.ok()) return reportError(inputs.error());
  auto tensors = materializeInputs(*inputs, seed);
  if (!tensors.ok()) return reportError(tensors.error().within(where));

  Interpreter interpreter(g.graph);
  JitSession session;
  const JitRun& jit = session.stats;
  const bool useJit = opts.backend == "jit";
  auto runner = useJit ? session.runner(opts, {{&g.graph, g.name}}) : Result<aot::GraphRunner>(aot::GraphRunner{});
  if (!runner.ok()) return reportError(runner.error());
  const auto start = std::chrono::steady_clock::now();
  auto outputs = useJit ? (*runner)(g.graph, *tensors) : interpreter.run(*tensors);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outputs.ok()) return reportError(outputs.error().within(where + ": " + opts.backend));
  std::vector<JitComparison> againstEager;
  if (useJit) {
    auto c = compareWithEagerRun(interpreter, *inputs, seed, *outputs, opts);
    if (!c.ok()) return reportError(c.error().within(where));
    againstEager = std::move(*c);
  }

  // The producer's recorded outputs are for the dump's own inputs: compare only with those.
  const auto* recorded = dump->outputsFor(g.name);
  const bool compare = recorded && opts.inputsFile.empty() && !seed;
  std::vector<OutputVerdict> checks;
  if (compare) {
    RecordedOptions ro{.strict = opts.strict, .rtol = opts.rtol, .atol = opts.atol, .tol = opts.tol};
    auto c = judgeRecorded(g.graph, *inputs, *outputs, *recorded, ro);
    if (!c.ok()) return reportError(c.error().within(where));
    checks = std::move(*c);
  }
  size_t bad = 0;
  for (const auto& c : checks) bad += c.ok ? 0 : 1;
  for (const auto& c : againstEager) bad += c.ok ? 0 : 1;
  const auto& opaque = interpreter.opaqueNodesRun();
  if (opts.json) {
    Json list = Json::array();
    for (size_t i = 0; i < outputs->size(); ++i) list.push_back(outputJson(i, (*outputs)[i]));
    Json j = {{"file", opts.dump}, {"graph", g.name}, {"outputs", std::move(list)}, {"seconds", seconds}};
    if (compare) j["recorded"] = verdictsJson(checks);
    if (!opaque.empty()) j["opaque"] = opaque;
    if (useJit) {
      j["backend"] = "jit";
      j["jit"] = jitRunJson(jit);
      j["eager"] = comparisonsJson(againstEager);
    }
    printJson(j);
  } else {
    printGraphRunText(opts, g, *outputs, seconds);
    if (useJit) printJitText(jit, againstEager);
    if (compare) printRecordedText(checks, producerName(*dump), opts.strict);
    else if (recorded) std::cout << "recorded outputs not compared: they are for the dump's own inputs\n";
    printOpaqueNote(opaque);
  }
  return bad ? kExitProblem : kExitOk;
}

}  // namespace

Command addRunCommand(CLI::App& parent) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* app = parent.add_subcommand("run", "Run a graph on real tensors; print each output's layout and checksum");
  addDumpArgument(app, &opts->dump, &opts->load);
  addGraphOption(app, &opts->graph);
  addSeedOption(app, &opts->seed);
  addInputsOption(app, &opts->inputsFile);
  addMemoryLimitOption(app, &opts->memoryLimit);
  app->add_option("--backend", opts->backend,
                  "eager (interpret one graph), jit (compile it: fused LLVM kernels, compared with eager), aot_eager (a "
                  "partitioned dump's forward + backward, compared with eager autograd) or aot_jit (that, compiled)");
  app->add_option("--trace-log", opts->traceLog,
                  "With jit/aot_jit: append the compile's events as JSON lines: kernel_compiled (nodes, llvm or eager and why, "
                  "compiled or from a cache, ms) and compile_assumption (each input layout the kernels trust, and who)");
  app->add_flag("--unchecked", opts->unchecked,
                "With jit/aot_jit: skip the input layout checks, so kernels read inputs with their recorded strides even "
                "when those are wrong (reproduces a compiler's silent wrong result)");
  app->add_option("--tol", opts->tol, "Against a dump's recorded outputs: PyTorch's accuracy rule's tolerance (torch._dynamo's same(); "
                                       "default 1e-4): allclose within it, else float64 error within a multiple of PyTorch's");
  app->add_option("--rtol", opts->rtol, "Against a dump's recorded outputs, strictly instead: relative tolerance, of each output's largest |x| (default 1e-4)");
  app->add_option("--atol", opts->atol, "Against a dump's recorded outputs, strictly instead: absolute tolerance (default 1e-5)");
  app->add_flag("--check", opts->check, "With --backend aot_eager: also run the step under the debug interpreter (fathom check)");
  app->add_flag("--json", opts->json, "Print JSON: {file, graph, outputs: [{index, dtype, sizes, strides, offset, sum, absmax}], seconds, "
                                      "recorded: {compared, mismatches, outputs: [{index, name, max_abs_diff, ok, ...}]}}; "
                                      "aot_eager: {outputs, saved, saved_bytes, compared: [{kind, index, input, max_abs_diff, ok}], match}");
  return {app, [opts, app] {
            opts->strict = app->count("--rtol") > 0 || app->count("--atol") > 0;
            return runGraph(*opts);
          }};
}

}  // namespace fathom::cli
