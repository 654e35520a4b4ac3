// `fathom step DUMP [--graph NAME] [--inputs FILE] [--seed N] [--strict-strides] [--commands FILE]`:
// a gdb-like stepper over the debug interpreter (the session is engine/interp/DebugSession.h,
// its command lines app/Stepper.h). It runs one graph node by node on real tensors and, after
// every node, compares the node's recorded fake value with the real one (see DebugInterpreter.h).
//
// Commands come from a terminal (readline, with history), a --commands file or a pipe; the last
// two are echoed after the prompt so the transcript reads like a session. Bad usage or input
// *before* the session starts exits 2 with one stderr line; after that a bad command is one line
// and the session goes on. Exit 1 when any run of the session saw a mismatch or a node that
// failed to execute.
#include <charconv>
#include <iostream>
#include <memory>
#include <optional>

#include "app/CliCommon.h"
#include "app/LineReader.h"
#include "app/Stepper.h"
#include "engine/interp/ExampleInputs.h"

namespace fathom::cli {
namespace {

constexpr const char* kPrompt = "(fathom) ";

struct StepOptions {
  std::string dump;
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
  std::string graph;
  std::string inputsFile;
  std::string seed;  // parsed here, as in `run`: CLI11 would wrap "-1" into a huge unsigned value
  std::string commandsFile;
  bool strictStrides = false;
};

int runStep(const StepOptions& opts) {
  std::optional<uint64_t> seed;
  if (!parseSeed(opts.seed, &seed)) return usageError("--seed: expected an integer from 0 to 2^64-1, got '" + opts.seed + "'");
  int rc = kExitOk;
  std::optional<Dump> dump;
  const NamedGraph* graph = loadGraphOrReport(opts.dump, opts.graph, opts.load, &dump, &rc);
  if (!graph) return rc;
  const NamedGraph& g = *graph;
  auto inputs = graphInputs(*dump, g.name, opts.inputsFile, opts.dump, opts.load);
  if (!inputs.ok()) return reportError(inputs.error());
  auto reader = LineReader::open(opts.commandsFile);
  if (!reader.ok()) return reportError(reader.error());

  const size_t numInputs = inputs->size();
  Stepper stepper(g, dump->shapeEnv.get(), std::move(*inputs), seed,
                  CheckOptions{.strictStrides = opts.strictStrides, .graphName = g.name, .keepIntermediates = true});
  if (auto s = stepper.restart(); !s.ok()) return reportError(s.error().within(opts.dump + ": graph '" + g.name + "'"));
  std::cout << "stepping graph '" << g.name << "' of " << opts.dump << ": " << g.graph.size() << " nodes, " << numInputs
            << " inputs; 'help' lists the commands\n";
  std::cout << "before " << stepper.cursorLine() << "\n";
  while (auto line = (*reader)->read(kPrompt))
    if (!stepper.execute(*line)) break;
  stepper.printEnd();
  return stepper.problemSeen() ? kExitProblem : kExitOk;
}

}  // namespace

Command addStepCommand(CLI::App& parent) {
  auto opts = std::make_shared<StepOptions>();
  CLI::App* app = parent.add_subcommand(
      "step", "Step through a graph node by node, comparing each node's recorded meta with its real value");
  addDumpArgument(app, &opts->dump, &opts->load);
  addGraphOption(app, &opts->graph);
  addInputsOption(app, &opts->inputsFile);
  addSeedOption(app, &opts->seed);
  app->add_flag("--strict-strides", opts->strictStrides, "Compare the strides of size-1 dimensions too");
  app->add_option("--commands", opts->commandsFile, "Read commands from this file (one a line, echoed) instead of stdin");
  app->footer(
      "Commands: next [N] (n), continue (c), break NODE|OP (b), break, delete N (d), print NODE (p), where (w), "
      "list (l), restart, quit (q), help. On a terminal with line editing and history; from --commands or a pipe "
      "each command is echoed. Exit 0, or 1 if any mismatch (or a failing node) was seen.");
  return {app, [opts] { return runStep(*opts); }};
}

}  // namespace fathom::cli
