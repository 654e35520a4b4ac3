// Queries on a cluster (`fathom minify --launcher`): each candidate is written as a repro into a
// folder every node sees, and a scheduler runs `fathom probe` on it on some node - Slurm's srun,
// or any command line with {} for the probe (ssh, a container runner, a site's own wrapper). The
// probe prints its verdict as JSON; its exit status alone is the fallback.
//
// Nothing else changes: the local worker subprocesses each run one launcher command, so -j N keeps
// N queries in flight on the cluster; the answer cache, flaky re-verification and checkpoints
// stay here. The time and memory limits travel to the remote probe (which enforces them in its
// own worker); Slurm also gets --time as a backstop, so a lost query frees its node. Defaults
// that need the original run (exception's message, crash's signal, ...) are learned on a node
// too, by probing the original first: the failure may only show where the hardware is.
//
//   auto launcher = parseLauncher("slurm:--partition=gpu --gres=gpu:1");
//   RemoteQueries q{*launcher, "/home/me/fathom/build/app/fathom", "/home/me/queries", ...};
//   RemoteAnswer a = probeOriginal(q, "exception", "jit", original, dump, "forward");
//   if (a.answered && a.fails) minify(graph, inputs, launcherOracle(q, a.predicate, "jit", dump, "forward"), options);
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "minifier/Checkpoint.h"
#include "minifier/Predicates.h"

namespace fathom::minify {

struct Launcher {
  enum class Kind { Slurm, Command };
  Kind kind = Kind::Slurm;
  std::string args;  // Slurm: srun's extra arguments (shell words); Command: the line holding {}
};

// "slurm", "slurm:SRUN-ARGS", or a command line with {} where the probe goes; an error saying
// which forms there are otherwise.
Result<Launcher> parseLauncher(const std::string& text);

// Where and how a run's queries go.
struct RemoteQueries {
  Launcher launcher;
  std::string fathom;        // the fathom binary the nodes run (a path they see)
  std::string sharedDir;     // candidates are written here: a folder every node sees
  std::string scratchDir;    // this run's local folder: its values are copied into each candidate
  WorkerLimits limits;       // for the remote probe
  bool allowNonFinite = false;
  CheckpointOrigin origin;   // recorded in each candidate, so a stray file says whose it is
};

// The shell command line that probes the repro at `path` through the launcher.
std::string launchLine(const RemoteQueries& q, const std::string& path);

// What a remote probe said; answered is false when no verdict came back (the launcher failed:
// `what` holds its exit status and the last line of its stderr).
struct RemoteAnswer {
  bool answered = false, fails = false;
  std::string what, predicate;
};

// Runs launchLine for `path` (blocking) and reads the probe's verdict.
RemoteAnswer askRemote(const RemoteQueries& q, const std::string& path);

// The original probed on a node with `predicate` as the user gave it: its verdict, with the
// predicate resolved there ("exception:<its message>", ...) when it fails.
RemoteAnswer probeOriginal(const RemoteQueries& q, const std::string& predicate, const std::string& backend, const Candidate& original,
                           const Dump& source, const std::string& graphName);

// The oracle that asks every candidate remotely, written as a repro with `predicate` (resolved by
// probeOriginal) and `backend`. `source` (the input dump) outlives it.
Oracle launcherOracle(const RemoteQueries& q, const std::string& predicate, const std::string& backend, const Dump& source,
                      const std::string& graphName);

}  // namespace fathom::minify
