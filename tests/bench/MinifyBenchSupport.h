// What the two minifier benches (MinifyBench.cpp, MinifyPredicatesBench.cpp) share: one timed
// minification with its queries by pass, counting a result's op nodes, the work folder, and their
// PyTorch side's figures kept there, so a rerun with --work-dir does not export BERT and run
// PyTorch's minifier again; --passes / --skip-passes, which measure one pass set against another
// on one binary.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "engine/graph/Graph.h"
#include "minifier/Minify.h"
#include "minifier/Passes.h"
#include "tests/bench/PythonScript.h"

namespace fathom {

// Call nodes: what FX counts as call_function nodes (ops, getitem), the "op nodes" of a result.
inline size_t callsIn(const Graph& g) {
  size_t n = 0;
  for (const auto& node : g.nodes()) n += node.kind == NodeKind::Call;
  return n;
}

// User + system seconds of this process and of every descendant it has reaped (the minifier's
// zygote and workers), so isolation's CPU cost shows on a loaded machine too.
inline double cpuSecondsWithChildren() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    ::getrusage(who, &u);
    for (const timeval& t : {u.ru_utime, u.ru_stime}) total += static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  }
  return total;
}

// The passes every timed minification runs (MinifyOptions::passes): the default ones, or what
// --passes=KEYS or --skip-passes=KEYS (comma-separated, as `fathom minify` takes them; skipping
// starts from the default ones) say.
inline std::vector<std::string>& benchPasses() {
  static std::vector<std::string> keys = minify::MinifyOptions{}.passes;
  return keys;
}

// Takes `arg` when it is --passes= or --skip-passes=; false when it is neither. An unknown key is
// an error naming the valid ones (exit status 2).
inline bool takePassFlag(const char* arg) {
  const std::string a = arg;
  const bool only = a.rfind("--passes=", 0) == 0, skip = a.rfind("--skip-passes=", 0) == 0;
  if (!only && !skip) return false;
  std::vector<std::string> named;
  std::stringstream in(a.substr(a.find('=') + 1));
  for (std::string key; std::getline(in, key, ',');) {
    if (!minify::findPass(key)) {
      std::fprintf(stderr, "unknown pass '%s'; the passes are %s\n", key.c_str(), minify::passKeyList().c_str());
      std::exit(2);
    }
    named.push_back(key);
  }
  std::vector<std::string> keys;
  for (const auto& p : minify::allPasses()) {
    const bool isNamed = std::find(named.begin(), named.end(), p.key) != named.end();
    if (only ? isNamed : p.byDefault && !isNamed) keys.emplace_back(p.key);
  }
  benchPasses() = keys;
  return true;
}

// One minification and its wall and CPU time; the queries by pass (options.onQuery's counts; the ones it
// does not see - the original's - under "the original"). The spill file is removed after it.
struct TimedMinify {
  Result<minify::MinifyResult> result = invalidInput("not run");
  double seconds = 0, cpuSeconds = 0;
  std::map<std::string, size_t> queriesByPass;
};

inline TimedMinify timedMinify(const Graph& g, const std::vector<ExampleInput>& inputs, const minify::Oracle& oracle,
                               minify::MinifyOptions options) {
  TimedMinify t;
  options.passes = benchPasses();
  options.onQuery = [&t](const minify::MinifyStats&, const char* pass) { ++t.queriesByPass[pass]; };
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = cpuSecondsWithChildren();
  t.result = minify::minify(g, inputs, oracle, options);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.cpuSeconds = cpuSecondsWithChildren() - cpuStart;
  if (!options.spillFile.empty()) std::filesystem::remove(options.spillFile);
  if (!t.result.ok()) return t;
  size_t reported = 0;
  for (const auto& [pass, count] : t.queriesByPass) reported += count;
  if (t.result->stats.queries > reported) t.queriesByPass["the original"] += t.result->stats.queries - reported;
  return t;
}

// A number of the PyTorch side's "key value" lines; -1 when it did not print it.
inline double figureOf(const std::map<std::string, std::string>& torch, const std::string& key) {
  auto it = torch.find(key);
  return it == torch.end() ? -1 : std::stod(it->second);
}

// `script ARGS` (tests/bench/SCRIPT, which writes its dump into `dir` and prints "dump PATH"),
// or the figures an earlier run with the same ARGS saved in dir/SAVED while its dump is still
// there. `what` is printed before a fresh run (it takes minutes).
inline std::map<std::string, std::string> cachedTorchReference(const std::filesystem::path& dir, const std::string& saved,
                                                               const std::string& script, const std::string& args,
                                                               const char* what) {
  std::map<std::string, std::string> out;
  if (std::ifstream in(dir / saved); in) {
    for (std::string line; std::getline(in, line);)
      if (auto space = line.find(' '); space != std::string::npos) out[line.substr(0, space)] = line.substr(space + 1);
    if (out["args"] == args && out.count("dump") && std::filesystem::exists(out["dump"])) return out;
    out.clear();
  }
  std::printf("%s\n", what);
  std::fflush(stdout);
  out = runTorchScript(script, args);
  out["args"] = args;
  if (out.count("dump")) {
    std::ofstream keep(dir / saved);
    for (const auto& [k, v] : out)
      if (k != "output") keep << k << ' ' << v << '\n';
  }
  return out;
}

// The work folder: `dir` when given, else a fresh one under the temporary folder (named after
// `prefix` and this process), which the caller removes at the end; true when temporary.
inline bool prepareWorkDir(std::filesystem::path& dir, const std::string& prefix) {
  const bool temporary = dir.empty();
  if (temporary) dir = std::filesystem::temp_directory_path() / (prefix + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return temporary;
}

// Loads the dump the PyTorch side exported and hands it to `run`; says why not when PyTorch is
// missing (exit status 0: nothing to compare with) or the export does not load (1).
inline int withTorchExport(std::map<std::string, std::string>& torch, const std::function<void(Dump&&)>& run) {
  if (!torch.count("dump")) {
    std::printf("PyTorch reference unavailable (needs /usr/bin/python3 with python3-torch): %s%s\n",
                torch.count("error") ? torch["error"].c_str() : "", torch.count("output") ? torch["output"].c_str() : "");
    return 0;
  }
  auto d = loadDump(torch["dump"]);
  if (!d.ok()) {
    std::printf("cannot load the export: %s\n", d.error().str().c_str());
    return 1;
  }
  run(std::move(*d));
  return 0;
}

}  // namespace fathom
