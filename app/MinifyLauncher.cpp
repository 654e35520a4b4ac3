// The command-line side of minify's launcher (see the header).
#include "app/MinifyLauncher.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "minifier/Launcher.h"
#include "minifier/Predicates.h"

namespace fathom::cli {

void addLauncherOptions(CLI::App* app, LauncherCliOptions* l) {
  app->add_option("--launcher", l->launcher,
                  "Run each query as a job on a cluster: slurm (srun, one task on one node, --time set from --timeout), "
                  "slurm:SRUN-ARGS (e.g. 'slurm:--partition=gpu --gres=gpu:1'), or a command line with {} for the query "
                  "(e.g. 'ssh gpu1 {}'). The node runs `fathom probe` on the candidate, written to --shared-dir; -j N jobs at once");
  app->add_option("--shared-dir", l->sharedDir,
                  "With --launcher: a folder every node sees, for the queries (default: the output's folder); a fresh folder "
                  "inside it holds them and goes when the run ends");
  app->add_option("--remote-fathom", l->remoteFathom, "With --launcher: the fathom the nodes run (default: this one's path)");
}

namespace {

// The queries' folder: fresh, named after this host and process, inside the shared one.
Result<std::string> queriesFolder(const LauncherCliOptions& l, const std::string& output) {
  std::error_code ec;
  const std::filesystem::path base =
      std::filesystem::absolute(l.sharedDir.empty() ? std::filesystem::path(output).parent_path() : std::filesystem::path(l.sharedDir), ec);
  char host[64] = "host";
  ::gethostname(host, sizeof host - 1);
  const auto dir = base / (std::string("fathom-queries-") + host + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir, ec);
  if (ec) return invalidInput("--shared-dir: cannot create " + dir.string() + ": " + ec.message());
  return dir.string();
}

std::string thisFathom() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("fathom") : self.string();
}

}  // namespace

int prepareLauncher(const LauncherCliOptions& l, const LaunchedRun& run, minify::PreparedOracle* oracle,
                    std::unique_ptr<RemovedAtExit>* queries) {
  auto launcher = minify::parseLauncher(l.launcher);
  if (!launcher.ok()) return usageError(launcher.error().message);
  auto folder = queriesFolder(l, run.output);
  if (!folder.ok()) return usageError(folder.error().message);
  *queries = std::make_unique<RemovedAtExit>();
  (*queries)->dir = *folder;
  minify::RemoteQueries q{*launcher, l.remoteFathom.empty() ? thisFathom() : l.remoteFathom, *folder, run.scratchDir,
                          {run.choice.timeout, static_cast<size_t>(run.memoryBytes >> 20)}, run.allowNonFinite, run.origin};
  if (run.spec.kind == minify::PredicateKind::Timeout)  // timeout:S: the node waits at least S
    q.limits.timeoutSeconds = std::max(q.limits.timeoutSeconds, std::stod(run.spec.arg));
  const minify::Candidate original{run.graph, run.inputs};
  const minify::RemoteAnswer a = minify::probeOriginal(q, run.choice.predicate, run.choice.backend, original, run.dump, run.graphName);
  if (!a.answered) return usageError("--launcher: the query on the original came back without a verdict: " + a.what);
  if (!a.fails) {
    printErrorLine(run.choice.dump + ": graph '" + run.graphName + "' does not fail as --predicate " + run.choice.predicate +
                   " asks under backend " + run.choice.backend + " on the launcher's node: " + a.what);
    return kExitProblem;
  }
  oracle->oracle = minify::launcherOracle(q, a.predicate, run.choice.backend, run.dump, run.graphName);
  oracle->predicate = a.predicate;
  oracle->originalFailure = a.what;
  return kExitOk;
}

}  // namespace fathom::cli
