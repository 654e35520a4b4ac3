// `fathom minify DUMP --predicate P [--graph NAME] [-o OUT] [--force] [--json]`: shrinks one graph
// of the dump to a small graph that still fails as P says (minifier/Predicates.h), writing the
// best so far to OUT (atomically) after every improvement, so an interrupted run leaves its
// result. The input dump is never modified. On a terminal a live line shows the progress.
// Exit 0: a minimized dump was written; 1: the input does not fail as P says (and what
// happened instead); 2: bad usage or input.
//
// In this first version candidates run in-process, one at a time (worker subprocesses with
// limits, -j N, --resume and the other predicates are still to come: issue 8).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "minifier/Minify.h"
#include "minifier/Predicates.h"

namespace fathom::cli {
namespace {

struct MinifyCliOptions {
  std::string dump;
  bool keepUnknownOps = false;
  std::string graph, predicate, output;
  bool force = false, json = false;
};

// DUMP.fathom.json -> DUMP.min.fathom.json
std::string defaultOutput(const std::string& dump) {
  const std::string suffix = ".fathom.json";
  if (dump.size() > suffix.size() && dump.compare(dump.size() - suffix.size(), suffix.size(), suffix) == 0)
    return dump.substr(0, dump.size() - suffix.size()) + ".min.fathom.json";
  return dump + ".min.fathom.json";
}

int runMinify(const MinifyCliOptions& o) {
  if (o.predicate.empty()) return usageError("minify: --predicate is required (exception[:REGEX], mismatch or script:CMD)");
  auto spec = minify::parsePredicate(o.predicate);
  if (!spec.ok()) return reportError(spec.error());
  const std::string out = o.output.empty() ? defaultOutput(o.dump) : o.output;
  std::error_code ec;
  if (std::filesystem::equivalent(out, o.dump, ec) || (!o.force && std::filesystem::exists(out)))
    return usageError(out + " already exists; pass --force to overwrite it (the input dump is never overwritten)");
  int rc = kExitOk;
  auto dump = loadDumpOrReport(o.dump, &rc, o.keepUnknownOps);
  if (!dump) return rc;
  auto graph = selectGraph(*dump, o.graph, o.dump);
  if (!graph.ok()) return reportError(graph.error());
  const NamedGraph& g = **graph;
  auto inputs = graphInputs(*dump, g.name, "", o.dump);
  if (!inputs.ok()) return reportError(inputs.error());

  const auto work = std::filesystem::temp_directory_path() / ("fathom-minify-" + std::to_string(::getpid()));
  std::filesystem::create_directories(work);
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() { std::error_code ec; std::filesystem::remove_all(dir, ec); }
  } cleanup{work};
  auto oracle = minify::makeOracle(*spec, g.graph, *inputs, {&*dump, g.name, work.string()});
  if (!oracle.ok()) {
    printErrorLine(o.dump + ": " + oracle.error().message);
    return kExitProblem;
  }

  const bool live = !o.json && ::isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  minify::MinifyOptions mo;
  std::string writeError;
  mo.onImprove = [&](const minify::Candidate& c, const minify::MinifyStats&) {
    if (auto s = saveDump(minify::candidateDump(c, *dump, g.name), out); !s.ok()) writeError = s.error().str();
  };
  mo.onQuery = [&](const minify::MinifyStats& s, const char* pass) {
    if (live)
      std::fprintf(stderr, "\rminify: %zu nodes (from %zu), %zu queries, %zu cached, %.1f s, %s   ", s.endNodes ? s.endNodes : s.startNodes,
                   s.startNodes, s.queries, s.cacheHits, seconds(), pass);
  };
  auto r = minify::minify(g.graph, *inputs, *oracle, mo);
  if (live) std::fprintf(stderr, "\n");
  if (!r.ok()) {
    if (r.error().code == ErrorCode::InvalidInput && r.error().message.find("does not fail") != std::string::npos) {
      printErrorLine(o.dump + ": graph '" + g.name + "' does not fail as --predicate " + o.predicate + " asks; nothing to minify");
      return kExitProblem;
    }
    return reportError(r.error().within(o.dump));
  }
  if (auto s = saveDump(minify::candidateDump(r->best, *dump, g.name), out); !s.ok()) return reportError(s.error());
  if (!writeError.empty()) printErrorLine("while minifying, a checkpoint could not be written: " + writeError);
  const auto& st = r->stats;
  if (o.json) {
    printJson({{"file", o.dump}, {"graph", g.name}, {"predicate", o.predicate}, {"output", out},
               {"start_nodes", st.startNodes}, {"end_nodes", st.endNodes}, {"queries", st.queries},
               {"cache_hits", st.cacheHits}, {"passes", st.passesThatHelped}, {"seconds", seconds()}});
  } else {
    std::cout << "minified graph '" << g.name << "' of " << o.dump << ": " << st.startNodes << " -> " << st.endNodes << " nodes in "
              << st.queries << " queries (" << st.cacheHits << " answered from the cache), " << seconds() << " s\n"
              << "wrote " << out << "\n";
  }
  return kExitOk;
}

}  // namespace

Command addMinifyCommand(CLI::App& parent) {
  auto o = std::make_shared<MinifyCliOptions>();
  CLI::App* app = parent.add_subcommand("minify", "Shrink a failing graph to a small one that still fails the same way");
  app->add_option("DUMP", o->dump, "The dump file (*.fathom.json); it is never modified")->required();
  addKeepUnknownOpsFlag(app, &o->keepUnknownOps);
  app->add_option("--predicate", o->predicate,
                  "What failing means: exception[:REGEX] (default: the original error's message), mismatch (the debug "
                  "interpreter finds an origin), script:CMD (CMD CANDIDATE.fathom.json exits 0 while it still fails)");
  app->add_option("--graph", o->graph, "Which graph (default: the first)");
  app->add_option("-o,--output", o->output, "Where the minimized dump goes (default: DUMP.min.fathom.json); written after every improvement");
  app->add_flag("--force", o->force, "Overwrite the output file if it exists");
  app->add_flag("--json", o->json, "Print JSON: {file, graph, predicate, output, start_nodes, end_nodes, queries, cache_hits, passes, seconds}");
  return {app, [o] { return runMinify(*o); }};
}

}  // namespace fathom::cli
