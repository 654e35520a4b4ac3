// `fathom minify REPRO [--predicate P] [--backend B] [-j N] [-o OUT] [--json] ...`: shrinks one
// graph of a dump to a small graph that still fails as P says (minifier/Predicates.h). A repro -
// a dump with a `repro` section, as this command writes - brings its own predicate, backend and
// graph; for a plain dump --predicate says what failing means. A repro's `script:CMD` predicate
// would run CMD, a command someone else wrote: it runs only when the user names it with
// --predicate or passes --trust-repro (Fathom's own predicates need no such consent).
//
// Each candidate runs in a forked worker with a time and a memory limit (--in-process: in this
// process, for predicates that cannot crash or hang). The best so far is written to OUT
// (atomically, with its large values in OUT.bin) after every improvement; Ctrl-C stops with it
// (exit 130) and --resume continues from it (the checkpoint format: minifier/Checkpoint.h). The input is never modified. On a terminal a live
// line shows the progress; --progress json streams it as JSON lines instead (app/MinifyProgress.h),
// which is how fathom-gui's minifier panel follows its `fathom minify` subprocess.
// --passes / --skip-passes pick the minifier's passes by key (minifier/Passes.def), and
// --list-passes prints them (no REPRO needed).
// Exit 0: a minimized repro was written; 1: the input does not fail as P says (and what happened
// instead); 2: bad usage or input; 130: interrupted (the best so far is in OUT).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "app/MinifyLauncher.h"
#include "app/MinifyProgress.h"
#include "app/PredicateChoice.h"
#include "minifier/Backends.h"
#include "minifier/Checkpoint.h"
#include "minifier/Minify.h"
#include "minifier/Predicates.h"
#include "minifier/Spill.h"

namespace fathom::cli {
namespace {

constexpr int kExitInterrupted = 130;

// dump, graph, predicate, backend, --trust-repro, --in-process and the limits: PredicateChoice.
struct MinifyCliOptions : PredicateChoice {
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
  std::string output;
  size_t jobs = 1;
  bool resume = false, allowNonFinite = false;
  bool force = false, json = false;
  LauncherCliOptions launch;  // --launcher, --shared-dir, --remote-fathom
  std::string progress;  // --progress: none, line, json; empty: the line on a terminal
  std::vector<std::string> passes, skipPasses;  // keys, as given
  bool listPasses = false;
};

std::atomic<bool> interrupted{false};
extern "C" void onInterrupt(int) { interrupted = true; }

// DUMP.fathom.json -> DUMP.min.fathom.json
std::string defaultOutput(const std::string& dump) { return dumpStem(dump) + ".min.fathom.json"; }

// --list-passes: one line per pass, its key first; with --json an array of {key, name, description}.
int listPasses(bool json) {
  if (json) {
    Json list = Json::array();
    for (const auto& p : minify::allPasses()) list.push_back({{"key", p.key}, {"name", p.name}, {"description", p.description}});
    printJson(list);
    return kExitOk;
  }
  size_t width = 0;
  for (const auto& p : minify::allPasses()) width = std::max(width, std::string_view(p.key).size());
  for (const auto& p : minify::allPasses()) std::cout << std::left << std::setw(static_cast<int>(width + 2)) << p.key << p.description << "\n";
  return kExitOk;
}

// The passes --passes or --skip-passes select (the default ones when neither is given), or a usage
// error naming an unknown key and the valid ones.
std::optional<std::vector<std::string>> selectedPasses(const MinifyCliOptions& o, int* rc) {
  if (!o.passes.empty() && !o.skipPasses.empty()) {
    *rc = usageError("--passes and --skip-passes cannot go together: name the passes to run, or the ones to skip");
    return std::nullopt;
  }
  const bool only = !o.passes.empty();
  const std::vector<std::string>& named = only ? o.passes : o.skipPasses;
  const std::string flag = only ? "--passes" : "--skip-passes";
  for (const auto& key : named) {
    if (minify::findPass(key)) continue;
    *rc = usageError(flag + ": unknown pass '" + key + "'; the passes are " + minify::passKeyList());
    return std::nullopt;
  }
  std::vector<std::string> keys;
  for (const auto& key : only ? minify::allPassKeys() : minify::defaultPassKeys())
    if ((std::find(named.begin(), named.end(), key) != named.end()) == only) keys.push_back(key);
  if (keys.empty()) {
    *rc = usageError(flag + ": every pass is skipped, nothing would run");
    return std::nullopt;
  }
  return keys;
}

// Where a run starts: the input's graph, or the checkpoint's with --resume.
struct Start {
  std::string graphName;
  Graph graph;
  std::vector<ExampleInput> inputs;
  size_t originalNodes = 0;
  bool resumed = false;
};


// The minifier's options from the command line: isolation, workers, limits, spill, passes, and
// Ctrl-C (checked between queries: the best so far is kept).
minify::MinifyOptions workerOptions(const MinifyCliOptions& o, double oracleTimeout, uint64_t memoryBytes,
                                    const std::string& spillFile, const std::vector<std::string>& passes) {
  minify::MinifyOptions mo;
  mo.isolate = !o.inProcess;
  mo.jobs = o.jobs;
  mo.timeoutSeconds = oracleTimeout > 0 ? oracleTimeout : o.timeout;
  mo.memoryLimitMb = static_cast<size_t>(memoryBytes >> 20);
  mo.spillFile = spillFile;
  mo.passes = passes;
  mo.shouldStop = [] { return interrupted.load(); };
  interrupted = false;
  return mo;
}

// --resume: the run starts from the checkpoint at `out`, which must be one of this input's graph.
int resumeFrom(const MinifyCliOptions& o, const std::string& out, const minify::CheckpointOrigin& origin, Start& start) {
  int rc = kExitOk;
  auto checkpoint = loadDumpOrReport(out, &rc, o.load);
  if (!checkpoint) return rc;
  auto point = minify::resumePoint(*checkpoint, out, start.graphName, origin);
  if (!point.ok()) return usageError("--resume: " + point.error().message + " (pass --force to start over)");
  start.graph = std::move(point->graph);
  start.inputs = std::move(point->inputs);
  start.originalNodes = point->startNodes;
  start.resumed = true;
  return kExitOk;
}

// -j, --in-process, --timeout and --memory-limit (its bytes into *memoryBytes), and the
// predicates that need worker subprocesses.
int checkWorkerOptions(const MinifyCliOptions& o) {
  if (o.jobs < 1 || o.jobs > 256) return usageError("-j must be between 1 and 256");
  if (o.inProcess && o.jobs > 1) return usageError("-j needs worker subprocesses: it cannot go with --in-process");
  if (o.inProcess && !o.launch.launcher.empty()) return usageError("--launcher runs each query as a job: it cannot go with --in-process");
  return kExitOk;
}

// The output is never the input; it is new, or continued with --resume, or replaced with --force.
int checkOutput(const MinifyCliOptions& o, const std::string& out) {
  std::error_code ec;
  if (std::filesystem::equivalent(out, o.dump, ec)) return usageError(out + " is the input: the input is never overwritten");
  if (o.resume && !std::filesystem::exists(out)) return usageError("--resume: " + out + " does not exist (no checkpoint to continue from)");
  if (!o.resume && !o.force && std::filesystem::exists(out))
    return usageError(out + " already exists; pass --resume to continue from it or --force to start over");
  return kExitOk;
}

// What the summary line (or --json) reports besides the stats.
struct Summary {
  std::string graph, predicate, backend, output;
  size_t startNodes = 0;
  bool resumed = false;
  double seconds = 0;
};

int printSummary(const MinifyCliOptions& o, const Summary& s, const minify::MinifyStats& st) {
  if (o.json) {
    printJson({{"file", o.dump}, {"graph", s.graph}, {"predicate", s.predicate}, {"backend", s.backend}, {"output", s.output},
               {"start_nodes", s.startNodes}, {"end_nodes", st.endNodes}, {"queries", st.queries}, {"cache_hits", st.cacheHits},
               {"verifications", st.verifications}, {"flaky", st.flaky}, {"invalid", st.invalid},
               {"passes", st.passesThatHelped}, {"seconds", s.seconds}, {"jobs", o.jobs}, {"isolated", !o.inProcess},
               {"resumed", s.resumed}, {"interrupted", st.stopped}});
  } else {
    std::cout << (st.stopped ? "interrupted: the best so far of graph '" : "minified graph '") << s.graph << "' of " << o.dump << ": "
              << s.startNodes << " -> " << st.endNodes << " nodes in " << st.queries << " queries (" << st.cacheHits
              << " answered from the cache, " << st.invalid << " invalid skipped), " << s.seconds << " s\n"
              << "wrote " << s.output << " (predicate " << s.predicate << ", backend " << s.backend << ")\n";
    if (st.stopped) std::cout << "continue with: fathom minify " << o.dump << " -o " << s.output << " --resume\n";
  }
  return st.stopped ? kExitInterrupted : kExitOk;
}

// --progress as asked, else the live line on a terminal (not with --json).
ProgressMode progressMode(const MinifyCliOptions& o) {
  if (!o.progress.empty()) return *parseProgressMode(o.progress);
  return !o.json && ::isatty(STDERR_FILENO) ? ProgressMode::Line : ProgressMode::None;
}

// The minifier from `start`, its best so far written to the checkpoint after every improvement
// and reported as it goes; Ctrl-C (SIGINT) stops it with the best so far. A checkpoint that
// could not be written is said once, after the run, and in the progress stream at the time.
Result<minify::MinifyResult> minifyWithCheckpoints(const Start& start, const minify::Oracle& oracle, minify::MinifyOptions mo,
                                                   const minify::CheckpointWriter& checkpoints, MinifyReporter& reporter) {
  std::string writeError;
  mo.onImprove = [&](const minify::Candidate& c, const minify::MinifyStats& stats) {
    auto saved = checkpoints.save(c);
    if (!saved.ok()) writeError = saved.error().str();
    reporter.improve(c, stats, saved.ok() ? checkpoints.path() : std::string(), saved.ok() ? std::string() : saved.error().str());
  };
  mo.onQuery = [&](const minify::MinifyStats& s, const char* pass) { reporter.query(s, pass); };
  mo.onWaiting = [&](const minify::MinifyStats& s, const char* pass, const minify::InFlight& f) { reporter.waiting(s, pass, f); };
  mo.onWarning = [&](const std::string& w) { reporter.warning(w); };
  auto previous = std::signal(SIGINT, onInterrupt);
  auto r = minify::minify(start.graph, start.inputs, oracle, mo);
  std::signal(SIGINT, previous);
  if (!writeError.empty()) printErrorLine("while minifying, a checkpoint could not be written: " + writeError);
  return r;
}

// Where a run writes: its output, where it came from, the workers' memory limit.
struct RunPlace {
  std::string output;
  minify::CheckpointOrigin origin;
  uint64_t memory = 0;
};

// The oracle: the predicate's own, here, or --launcher's, on a cluster node (with the shared
// folder it writes the queries to in *queries). kExitOk, else the exit code of what it printed.
int prepareOracle(const MinifyCliOptions& o, const minify::PredicateSpec& spec, const Dump& dump, const Start& start,
                  const minify::OracleContext& context, const RunPlace& place, minify::PreparedOracle* oracle,
                  std::unique_ptr<RemovedAtExit>* queries) {
  if (!o.launch.launcher.empty())
    return prepareLauncher(o.launch, {o, spec, dump, start.graphName, start.graph, start.inputs, context.workDir, place.output, place.origin,
                                      place.memory, o.allowNonFinite},
                           oracle, queries);
  auto made = minify::makeOracle(spec, start.graph, start.inputs, context);
  if (!made.ok()) {
    if (made.error().code == ErrorCode::Internal) return reportError(made.error());
    printErrorLine(o.dump + ": graph '" + start.graphName + "': " + made.error().message);
    return kExitProblem;
  }
  *oracle = std::move(*made);
  return kExitOk;
}

int runMinify(MinifyCliOptions o) {
  int rc = kExitOk;
  if (o.listPasses) return listPasses(o.json);
  if (o.dump.empty()) return usageError("minify: REPRO is required (see 'fathom minify --help')");
  if (!o.progress.empty() && !parseProgressMode(o.progress))
    return usageError("--progress must be none, line or json, not '" + o.progress + "'");
  auto passes = selectedPasses(o, &rc);
  if (!passes) return rc;
  Target t;
  if (int bad = openTarget(o, o.load, &t); bad != kExitOk) return bad;
  if (int bad = checkWorkerOptions(o); bad != kExitOk) return bad;
  const std::string out = o.output.empty() ? defaultOutput(o.dump) : o.output;
  if (int bad = checkOutput(o, out); bad != kExitOk) return bad;
  const Dump* dump = &*t.dump;
  const minify::PredicateSpec& spec = t.spec;
  const minify::Backend* backend = t.backend;
  const uint64_t memory = t.memoryBytes;
  const NamedGraph& g = *t.graph;
  const minify::CheckpointOrigin origin{o.dump, minify::fileHash(o.dump), g.graph.size()};
  Start start{g.name, g.graph, std::move(t.inputs), g.graph.size(), false};

  // The work folder: the spill file of large values and script predicates' candidates.
  const auto work = std::filesystem::temp_directory_path() / ("fathom-minify-" + std::to_string(::getpid()));
  std::filesystem::create_directories(work);
  const RemovedAtExit cleanup{work};
  const std::string spillFile = (work / "values.bin").string();

  if (o.resume)
    if (int bad = resumeFrom(o, out, origin, start); bad != kExitOk) return bad;
  // The inputs' side-file values move into this run's spill, in the work folder: OUT.bin is
  // rewritten at every checkpoint, and a script predicate's candidates, written there too, then
  // name side files only inside their own folder (what `fathom` reads without --trust-paths).
  if (auto s = minify::spillSideFileInputs(start.inputs, spillFile); !s.ok()) return reportError(s.error().within(start.resumed ? out : o.dump));

  const minify::OracleContext context{&*dump, g.name, work.string(), backend, !o.inProcess,
                                      {o.timeout, static_cast<size_t>(memory >> 20)}, o.allowNonFinite};
  std::unique_ptr<RemovedAtExit> queries;  // --launcher's shared folder
  minify::PreparedOracle prepared;
  if (int bad = prepareOracle(o, spec, *dump, start, context, {out, origin, memory}, &prepared, &queries); bad != kExitOk) return bad;
  const minify::PreparedOracle* oracle = &prepared;

  // Every checkpoint is a repro: the candidate, the failure it shows, where it came from.
  minify::CheckpointWriter checkpoints(*dump, ReproSpec{g.name, oracle->predicate, backend->name, {}},
                                       {origin.input, origin.inputHash, start.originalNodes}, out);
  checkpoints.setScratchFolder(work.string());  // its spilled values go into OUT.bin, whatever OUT's folder
  MinifyReporter reporter(progressMode(o), start.originalNodes, start.graph.size());
  MinifyEvent started;
  started.file = o.dump, started.graph = g.name, started.predicate = oracle->predicate, started.backend = backend->name;
  started.output = out, started.passes = *passes, started.jobs = o.jobs, started.isolated = !o.inProcess, started.resumed = start.resumed;
  reporter.start(std::move(started));
  minify::MinifyOptions mo = workerOptions(o, oracle->timeoutSeconds, memory, spillFile, *passes);
  if (queries) mo.timeoutSeconds = 0, mo.memoryLimitMb = 0;  // the limits hold on the node; here a worker waits for its job
  mo.shapeEnv = dump->shapeEnv;
  auto r = minifyWithCheckpoints(start, oracle->oracle, std::move(mo), checkpoints, reporter);
  if (!r.ok()) {
    reporter.abandon();
    return reportError(r.error().within(o.dump));
  }
  if (!r->originalFails) {
    reporter.end(*r, out);
    printErrorLine(o.dump + ": graph '" + g.name + "' does not fail as --predicate " + o.predicate + " asks under backend " + backend->name +
                   "; instead: " + r->originalWhat);
    return kExitProblem;
  }
  if (auto s = checkpoints.save(r->best); !s.ok()) return reportError(s.error());
  reporter.end(*r, out);
  return printSummary(o, Summary{g.name, oracle->predicate, backend->name, out, start.originalNodes, start.resumed, reporter.seconds()}, r->stats);
}

}  // namespace

Command addMinifyCommand(CLI::App& parent) {
  auto o = std::make_shared<MinifyCliOptions>();
  CLI::App* app = parent.add_subcommand("minify", "Shrink a failing graph to a small one that still fails the same way");
  app->footer("Exit 0: a minimized repro was written; 1: the input does not fail as asked (and what it did instead); 2: bad usage or "
              "input; 130: interrupted (the best so far is in the output: continue with --resume).");
  app->add_option("REPRO", o->dump, "A repro or a dump (*.fathom.json); it is never modified (required unless --list-passes)");
  addDumpLoadFlags(app, &o->load);
  addPredicateOptions(app, o.get());
  addLauncherOptions(app, &o->launch);
  app->add_option("-j,--jobs", o->jobs, "Candidates tested at once, in worker subprocesses (speculatively; the result is 1-minimal either way)");
  app->add_flag("--allow-nonfinite", o->allowNonFinite, "accuracy: also take candidates whose inputs hold NaN or Inf");
  app->add_option("-o,--output", o->output, "Where the minimized repro goes (default: REPRO.min.fathom.json); written after every improvement");
  app->add_flag("--resume", o->resume, "Continue from the checkpoint in the output file (after Ctrl-C or a kill)");
  app->add_flag("--force", o->force, "Overwrite the output file if it exists");
  app->add_option("--passes", o->passes, "Run only these passes, comma-separated keys (see --list-passes); they run in table order")
      ->delimiter(',');
  app->add_option("--skip-passes", o->skipPasses, "Run the default passes but these, comma-separated keys (see --list-passes)")->delimiter(',');
  app->add_option("--progress", o->progress,
                  "How to report while running: line (the rewriting line; the default on a terminal, not with --json), none, or json: "
                  "one JSON object per line on stderr - {event: start, file, graph, predicate, backend, output, start_nodes, nodes, "
                  "passes, jobs, isolated, resumed}, {event: query, queries, cache_hits, pass, nodes, seconds} after every query, "
                  "{event: improve, nodes, queries, seconds, checkpoint (just written; null and checkpoint_error when it could not be), "
                  "inputs, calls (the best's node names, the input's names)}, {event: end, result: minimized|interrupted|not-failing, "
                  "start_nodes, end_nodes, queries, cache_hits, verifications, flaky, invalid, passes, seconds, output, what}; an "
                  "error that stops the run is the one 'fathom: ...' line instead of an end");
  app->add_flag("--list-passes", o->listPasses, "List the passes (key and description, in the order they run) and exit");
  app->add_flag("--json", o->json,
                "Print JSON: {file, graph, predicate, backend, output, start_nodes, end_nodes, queries, cache_hits, verifications "
                "(queries re-asking a candidate before taking it), flaky, invalid (candidates failing Graph::verify, skipped), passes, "
                "seconds, jobs, isolated, resumed, interrupted}; with --list-passes: [{key, name, description}]");
  return {app, [o] { return runMinify(*o); }};
}

}  // namespace fathom::cli
