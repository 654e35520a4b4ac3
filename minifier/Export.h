// Export of a repro (DESIGN.md: "a dump plus the failure it must show and the backend that shows
// it") in the forms a bug is filed in, so a Fathom-found bug can go upstream (`fathom export`):
//   dump     the dump itself, with its repro section set (saveDump copies values in side files
//            outside the output's folder into its own side file, OUT.bin, so it loads anywhere)
//   gtest    a standalone GoogleTest file: the graph rebuilt with GraphBuilder, the inputs with
//            their values, and a TEST asserting the *correct* behaviour - it fails while the bug
//            is there and passes once it is fixed (ExportGtest.cpp)
//   pytorch  a Python script for torch 1.13 and 2.x: the same graph as torch.ops.aten calls on
//            the same values, checking the matching property in PyTorch (ExportPyTorch.cpp)
//
//   ExportOptions o;
//   o.predicate = "accuracy";  // else the dump's repro section says
//   auto r = prepareRepro(dump, o);
//   auto file = gtestSource(*r, "repro_test.cpp");  // file->text, and file->data for PATH.bin
//   writeExport(dump, ExportForm::PyTorch, "repro.py", o);  // both steps, and the files
//
// Invariants of a prepared ReproCase: the graph is concrete (every symbolic size, stride, offset
// and argument replaced by its hint - exports run at the trace's example sizes), and every input
// has its real values: Fathom's seeded generator is not PyTorch's, so seeds are never exported.
// Inputs larger than `inlineLimit` elements go to one side file, PATH.bin next to the output, as
// raw little-endian values in row-major logical order (the dump side files' format).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "minifier/PredicateKind.h"

namespace fathom::minify {

enum class ExportForm { Dump, Gtest, PyTorch };
// "dump", "gtest", "pytorch" -> the form; nullopt for anything else.
std::optional<ExportForm> parseExportForm(const std::string& text);

// What to export; empty fields fall back to the dump's repro section, then to the defaults
// (the first graph, predicate "exception", backend "eager").
struct ExportOptions {
  std::string graph;
  std::string predicate;
  std::string backend;
  std::string source;              // the dump's path, named in generated headers and errors
  int64_t inlineLimit = 65536;     // elements per input written into the source; more: PATH.bin
  bool force = false;              // overwrite existing output files
};

// The failure, parsed from the predicate text (as `fathom minify --predicate` takes it).
struct ReproProperty {
  std::string text;    // "accuracy:0.01"
  PredicateKind kind = PredicateKind::Exception;
  std::string arg;     // the regex, command or torch check kind; empty when not given
  double seconds = 0;  // timeout: the limit
  // accuracy: the predicate's rule (PyTorch's): an output fails when rmse(backend, float64 run) >
  // 2 * rmse(eager, float64 run) + tol / 10; where the float64 run raises, when
  // max |backend - eager| > tol * max |eager| + tol
  double tolerance = 1e-3;
};
Result<ReproProperty> parseReproProperty(const std::string& text);

// One input with the values it will be exported with: inline, or at `fileOffset` in PATH.bin.
struct ReproInput {
  ExampleInput spec;            // name and concrete layout (seed and data cleared)
  std::vector<double> values;   // row-major logical order; empty when in the side file
  std::optional<uint64_t> fileOffset;
};

struct ReproCase {
  std::string source;  // the dump's path
  std::string graphName;
  Graph graph;         // concrete (see above)
  std::vector<ReproInput> inputs;
  std::string sideData;  // the bytes of PATH.bin; empty when every input is inline
  ReproProperty property;
  std::string backend;
  std::vector<std::pair<std::string, std::string>> options;  // the repro's, for the header
};

// The repro the options and the dump's repro section ask for: the graph (--graph, else the
// repro's, else the first), predicate and backend, checked (an unknown graph, backend or
// predicate kind is an error naming it and what there is).
Result<ReproSpec> resolveRepro(const Dump& dump, const ExportOptions& options);
// resolveRepro, then the concrete graph and the inputs with their values.
Result<ReproCase> prepareRepro(const Dump& dump, const ExportOptions& options);

// A generated file: its text, and the side file's bytes (empty: no side file).
struct ExportedFile {
  std::string text;
  std::string data;
};
// `outputPath` is where the file will be written: the gtest reads PATH.bin by that path made
// absolute (moving the test means editing kDataFile); the script reads it next to itself.
Result<ExportedFile> gtestSource(const ReproCase& repro, const std::string& outputPath);
Result<ExportedFile> pytorchScript(const ReproCase& repro, const std::string& outputPath);

// "PATH.bin": where a generated file's large input values go.
std::string sideFilePath(const std::string& outputPath);

// What writeExport wrote: the repro it exported, the graph's node count, the files.
struct ExportSummary {
  ReproSpec repro;
  size_t nodes = 0;
  std::vector<std::string> files;  // PATH, and PATH.bin when written
};

// Writes `form` of the dump to `path` (and PATH.bin when needed), each file atomically. For the
// dump form the dump is written whole, with its repro section set to the chosen graph,
// predicate and backend. Refuses (before writing anything) to overwrite options.source, and
// any existing file unless `force`.
Result<ExportSummary> writeExport(const Dump& dump, ExportForm form, const std::string& path, const ExportOptions& options);

// The PyTorch script for graph `graph` of `dump` at `path` (+ PATH.bin): what the `torch[:KIND]`
// predicate runs as its oracle (`python3 PATH [--check exception|meta|accuracy]`; exit 1 and a
// "FATHOM-REPRO: KIND: DETAIL" line while PyTorch shows the failure, 0 when not, 2 on setup
// problems). The predicate (and so the script's default check) is `predicate`, else the dump's.
// Existing files are overwritten.
Status writePyTorchScript(const Dump& dump, const std::string& graph, const std::string& path,
                          const std::string& predicate = {});

}  // namespace fathom::minify
