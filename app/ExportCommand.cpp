// `fathom export MIN --as dump|gtest|pytorch -o PATH [--graph NAME] [--predicate P] [--backend B]
// [--force] [--json]`: writes a repro (usually what `fathom minify` produced) in a form a bug is
// filed in - the dump itself, a standalone GoogleTest file, or a PyTorch script (minifier/Export.h
// says what each contains). The predicate and backend come from the dump's repro section unless
// given. Large input values go to PATH.bin beside the output. The input is never overwritten,
// an existing output only with --force.
// Exit 0: written; 2: bad usage or input (one line naming the file); 3: internal error.
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "minifier/Backends.h"
#include "minifier/Export.h"

namespace fathom::cli {
namespace {

struct ExportCliOptions {
  std::string dump, as, output, graph, predicate, backend;
  bool force = false, json = false;
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
};

int runExport(const ExportCliOptions& o) {
  const auto form = minify::parseExportForm(o.as);
  if (!form) return usageError("export: --as must be dump, gtest or pytorch, not '" + o.as + "'");
  int rc = kExitOk;
  auto dump = loadDumpOrReport(o.dump, &rc, o.load);
  if (!dump) return rc;
  minify::ExportOptions options;
  options.graph = o.graph;
  options.predicate = o.predicate;
  options.backend = o.backend;
  options.source = o.dump;
  options.force = o.force;
  auto written = minify::writeExport(*dump, *form, o.output, options);
  if (!written.ok()) return reportError(written.error());
  const ReproSpec& r = written->repro;
  if (o.json) {
    printJson({{"file", o.dump}, {"as", o.as}, {"output", o.output}, {"graph", r.graph}, {"predicate", r.predicate},
               {"backend", r.backend}, {"nodes", written->nodes},
               {"side_file", written->files.size() > 1 ? Json(written->files[1]) : Json(nullptr)}});
    return kExitOk;
  }
  std::cout << "exported graph '" << r.graph << "' of " << o.dump << " (" << written->nodes << " nodes; predicate " << r.predicate
            << ", backend " << r.backend << ") as " << o.as << "\n";
  for (const auto& f : written->files) std::cout << "wrote " << f << "\n";
  return kExitOk;
}

}  // namespace

Command addExportCommand(CLI::App& parent) {
  auto o = std::make_shared<ExportCliOptions>();
  CLI::App* app = parent.add_subcommand("export", "Write a repro as a dump, a standalone GoogleTest file or a PyTorch script");
  app->add_option("MIN", o->dump, "The dump to export (usually fathom minify's output); it is never modified")->required();
  app->add_option("--as", o->as,
                  "dump (the dump with its repro section), gtest (a test that fails while the bug is there), or pytorch "
                  "(a script checking the same property with torch.ops calls; exit 1 when PyTorch shows it)")
      ->required();
  app->add_option("-o,--output", o->output, "Where to write; inputs over 65,536 elements go to OUTPUT.bin beside it")->required();
  addGraphOption(app, &o->graph, "Which graph (default: the repro's, else the first)");
  app->add_option("--predicate", o->predicate,
                  "The failure, as fathom minify takes it (default: the repro's, else exception): exception[:REGEX], crash, "
                  "timeout:SECONDS, accuracy[:TOL], mismatch, guard, script:CMD, torch[:exception|meta|accuracy]");
  app->add_option("--backend", o->backend, "The backend that shows it (default: the repro's, else eager): " + minify::backendNames());
  app->add_flag("--force", o->force, "Overwrite existing output files (never the input)");
  addDumpLoadFlags(app, &o->load);
  app->add_flag("--json", o->json, "Print JSON: {file, as, output, graph, predicate, backend, nodes, side_file}");
  return {app, [o] { return runExport(*o); }};
}

}  // namespace fathom::cli
