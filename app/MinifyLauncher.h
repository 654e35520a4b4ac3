// `fathom minify --launcher slurm[:SRUN-ARGS] | 'CMD {}' [--shared-dir DIR] [--remote-fathom PATH]`:
// the command-line side of minifier/Launcher.h - the flags, the shared folder for the queries
// (a fresh folder inside DIR, OUT's folder by default, removed when the run ends), the original
// probed on a node, and the oracle that asks every candidate there.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "app/CliCommon.h"
#include "app/PredicateChoice.h"
#include "minifier/Checkpoint.h"
#include "minifier/Predicates.h"

namespace fathom::cli {

struct LauncherCliOptions {
  std::string launcher, sharedDir, remoteFathom;
};

void addLauncherOptions(CLI::App* app, LauncherCliOptions* options);

// What the launcher needs of the run.
struct LaunchedRun {
  const PredicateChoice& choice;      // predicate as given, backend, limits
  const minify::PredicateSpec& spec;
  const Dump& dump;
  std::string graphName;
  const Graph& graph;
  const std::vector<ExampleInput>& inputs;
  std::string scratchDir, output;
  minify::CheckpointOrigin origin;
  uint64_t memoryBytes = 0;
  bool allowNonFinite = false;
};

// The launcher's oracle in *oracle, its shared folder in *queries (removed when that goes), and
// kExitOk; else the exit code of the error it printed (2: bad flags, or no verdict came back from
// the launcher; 1: the original does not fail on the node, and what it did instead).
int prepareLauncher(const LauncherCliOptions& options, const LaunchedRun& run, minify::PreparedOracle* oracle,
                    std::unique_ptr<RemovedAtExit>* queries);

}  // namespace fathom::cli
