// Queries through a scheduler (see the header).
#include "minifier/Launcher.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/dump/DumpSave.h"
#include "engine/dump/ProbeVerdictJson.h"
#include "minifier/RunCommand.h"

namespace fathom::minify {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The last line with something on it ("srun: error: node3: task 0: Exited with exit code 2").
std::string lastLine(const std::string& text) {
  std::string last, line;
  std::istringstream in(text);
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

// `fathom probe PATH --json` with the run's limits; the repro carries predicate and backend.
std::string probeCommand(const RemoteQueries& q, const std::string& path) {
  std::string line = shellQuoted(q.fathom) + " probe " + shellQuoted(path) + " --json --trust-repro";
  if (q.limits.timeoutSeconds > 0) {
    std::ostringstream seconds;
    seconds << q.limits.timeoutSeconds;
    line += " --timeout " + seconds.str();
  }
  if (q.limits.memoryLimitMb > 0) line += " --memory-limit " + std::to_string(q.limits.memoryLimitMb) + "M";
  if (q.allowNonFinite) line += " --allow-nonfinite";
  return line;
}

// A fresh path in the shared folder: process id (parallel workers) and a counter (one worker's
// successive queries through the zygote), so no two queries share a file.
std::string candidatePath(const std::string& dir) {
  static std::atomic<size_t> counter{0};
  char host[64] = "host";
  ::gethostname(host, sizeof host - 1);
  const std::string name = std::string("query-") + host + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".fathom.json";
  return (std::filesystem::path(dir) / name).string();
}

// Writes `c` as a repro at a fresh path, asks, removes what it wrote.
RemoteAnswer askAbout(const RemoteQueries& q, const Candidate& c, const Dump& source, const ReproSpec& repro) {
  const std::string path = candidatePath(q.sharedDir);
  RemoteAnswer a;
  if (auto s = saveDumpCopyingScratch(checkpointDump(c, source, repro, q.origin), path, q.scratchDir); !s.ok()) {
    a.what = "could not write the query: " + s.error().str();
  } else {
    a = askRemote(q, path);
  }
  std::error_code ec;
  for (const auto& f : {path, sideFileOf(path)}) std::filesystem::remove(f, ec);
  return a;
}

}  // namespace

Result<Launcher> parseLauncher(const std::string& text) {
  if (text == "slurm") return Launcher{Launcher::Kind::Slurm, ""};
  if (text.rfind("slurm:", 0) == 0) return Launcher{Launcher::Kind::Slurm, text.substr(6)};
  if (text.find("{}") != std::string::npos) return Launcher{Launcher::Kind::Command, text};
  return invalidInput("--launcher must be slurm, slurm:SRUN-ARGS, or a command line with {} where the query goes (e.g. 'ssh gpu1 {}'), not '" +
                      text + "'");
}

std::string launchLine(const RemoteQueries& q, const std::string& path) {
  const std::string probe = probeCommand(q, path);
  if (q.launcher.kind == Launcher::Kind::Command) {
    std::string line = q.launcher.args;
    for (size_t at = line.find("{}"); at != std::string::npos; at = line.find("{}", at + probe.size())) line.replace(at, 2, probe);
    return line;
  }
  // One task on one node. --time (minutes, a minute past the probe's own limit) frees the node
  // of a query nobody waits for; the user's arguments come after ours, so theirs win.
  std::string line = "exec srun --quiet --job-name=fathom-probe --nodes=1 --ntasks=1";
  if (q.limits.timeoutSeconds > 0) line += " --time=" + std::to_string(static_cast<long>(std::ceil(q.limits.timeoutSeconds / 60.0)) + 1);
  if (!q.launcher.args.empty()) line += " " + q.launcher.args;
  return line + " " + probe;
}

RemoteAnswer askRemote(const RemoteQueries& q, const std::string& path) {
  const std::string out = path + ".out", err = path + ".err";
  std::string why;
  const auto onKill = q.launcher.kind == Launcher::Kind::Slurm ? OnWorkerKill::Terminated : OnWorkerKill::Killed;  // "exec srun"
  const int code = runCommand({"/bin/sh", "-c", launchLine(q, path)}, out, err, &why, onKill);
  const std::string printed = readFile(out), errors = readFile(err);
  std::error_code ec;
  std::filesystem::remove(out, ec);
  std::filesystem::remove(err, ec);
  RemoteAnswer a;
  if (auto verdict = parseProbeVerdict(printed); verdict.ok()) return RemoteAnswer{true, verdict->fails, verdict->what, verdict->predicate};
  a.what = "the launcher " + (code < 0 ? why : "exited with status " + std::to_string(code)) + " without a verdict";
  if (const std::string last = lastLine(errors); !last.empty()) a.what += ": " + last;
  return a;
}

RemoteAnswer probeOriginal(const RemoteQueries& q, const std::string& predicate, const std::string& backend, const Candidate& original,
                           const Dump& source, const std::string& graphName) {
  return askAbout(q, original, source, ReproSpec{graphName, predicate, backend, {}});
}

Oracle launcherOracle(const RemoteQueries& q, const std::string& predicate, const std::string& backend, const Dump& source,
                      const std::string& graphName) {
  const ReproSpec repro{graphName, predicate, backend, {}};
  return Oracle([q, repro, &source](const Candidate& c) {
    const RemoteAnswer a = askAbout(q, c, source, repro);
    return Verdict{a.answered && a.fails, a.what};
  });
}

}  // namespace fathom::minify
