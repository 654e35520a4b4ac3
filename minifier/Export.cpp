// What every export form shares: choosing the repro (graph, predicate, backend), making the graph
// concrete, giving each input its real values (inline or in PATH.bin), and writing the files.
#include "minifier/Export.h"

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "engine/interp/ExampleInputs.h"
#include "minifier/Backends.h"
#include "minifier/Predicates.h"

namespace fathom::minify {
namespace {

// A positive number from the whole of `text`.
std::optional<double> positiveNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(v > 0)) return std::nullopt;
  return v;
}

// `v` with every SymInt replaced by its hint (the trace's example value). Sets *symbolic when
// one was symbolic.
Value concrete(const Value& v, bool* symbolic) {
  auto fix = [&](const SymInt& s) {
    *symbolic |= s.isSymbolic();
    return SymInt(s.hint());
  };
  if (auto* s = v.tryAs<SymInt>()) return fix(*s);
  if (auto* m = v.tryAs<TensorMeta>()) {
    TensorMeta out = *m;
    for (auto& s : out.sizes) s = fix(s);
    for (auto& s : out.strides) s = fix(s);
    out.storageOffset = fix(out.storageOffset);
    return out;
  }
  if (auto* l = v.tryAs<ValueList>()) {
    ValueList out;
    for (const auto& e : *l) out.push_back(concrete(e, symbolic));
    return out;
  }
  return v;
}

Graph concreteGraph(const Graph& g, bool* symbolic) {
  Graph out = g;
  for (Node& n : out.mutableNodes()) {
    for (auto& a : n.args) a = concrete(a, symbolic);
    for (auto& [k, a] : n.kwargs) a = concrete(a, symbolic);
    n.val = concrete(n.val, symbolic);
  }
  return out;
}

std::string graphNames(const Dump& dump) {
  std::string out;
  for (const auto& g : dump.graphs) out += (out.empty() ? "'" : ", '") + g.name + "'";
  return out.empty() ? "none" : out;
}

// The inputs of `c.graph` with their values; large ones appended to c.sideData.
Status addInputs(ReproCase& c, const Dump& dump, int64_t inlineLimit, bool symbolic) {
  auto specs = chooseInputs(dump.graph(c.graphName), c.graphName, dump.inputsFor(c.graphName), nullptr);
  FATHOM_TRY(specs);
  const auto placeholders = c.graph.placeholders();
  if (specs->size() != placeholders.size())
    return invalidInput("graph '" + c.graphName + "' has " + std::to_string(placeholders.size()) + " placeholders but the dump has " +
                        std::to_string(specs->size()) + " example inputs for it");
  for (size_t i = 0; i < specs->size(); ++i) {
    const ExampleInput& spec = (*specs)[i];
    bool symbolicInput = false;
    ReproInput in;
    in.spec.name = spec.name;
    in.spec.meta = concrete(Value(spec.meta), &symbolicInput).as<TensorMeta>();
    const auto* recorded = c.graph.node(placeholders[i]).val.tryAs<TensorMeta>();
    if (symbolic && recorded && recorded->str() != in.spec.meta.str())
      return invalidInput("input '" + spec.name + "' is " + in.spec.meta.str() + " but the symbolic graph was traced at " + recorded->str() +
                          "; exports run at the trace's example sizes, so give inputs of those sizes");
    ExampleInput drawn;  // a copy only when symbolic (inline values can be large)
    if (symbolicInput) {
      drawn = spec;
      drawn.meta = in.spec.meta;
    }
    auto t = materializeInput(symbolicInput ? drawn : spec);
    FATHOM_TRY(t);
    if (t->numel() <= inlineLimit) {
      in.values.reserve(static_cast<size_t>(t->numel()));
      for (int64_t k = 0; k < t->numel(); ++k) in.values.push_back(t->atLinear(k));
    } else {
      auto dense = t->contiguous();  // row-major logical order, the side files' layout
      FATHOM_TRY(dense);
      in.fileOffset = c.sideData.size();
      c.sideData.append(static_cast<const char*>(dense->data()), static_cast<size_t>(t->numel()) * elementSize(t->dtype()));
    }
    c.inputs.push_back(std::move(in));
  }
  return {};
}

// Refuses to write over the dump being exported, or over an existing file without force.
Status checkWritable(const std::string& path, const ExportOptions& options) {
  std::error_code ec;
  if (!options.source.empty() && std::filesystem::equivalent(path, options.source, ec))
    return invalidInput("is the dump being exported; the input is never overwritten (choose another -o)", path);
  if (!options.force && std::filesystem::exists(path, ec)) return invalidInput("already exists; pass --force to overwrite it", path);
  return {};
}

Status writeGenerated(const Result<ExportedFile>& file, const std::string& path, const ExportOptions& options,
                      ExportSummary& summary) {
  FATHOM_TRY(file);
  summary.files = {path};
  if (!file->data.empty()) summary.files.push_back(sideFilePath(path));
  for (const auto& f : summary.files) FATHOM_TRY(checkWritable(f, options));
  if (!file->data.empty()) FATHOM_TRY(writeFileAtomically(sideFilePath(path), file->data));
  return writeFileAtomically(path, file->text);
}

}  // namespace

std::optional<ExportForm> parseExportForm(const std::string& text) {
  if (text == "dump") return ExportForm::Dump;
  if (text == "gtest") return ExportForm::Gtest;
  if (text == "pytorch") return ExportForm::PyTorch;
  return std::nullopt;
}

// The minifier's own parser (Predicates.h) decides what a predicate is, so every predicate
// `fathom minify` writes into a repro - resolved ones like crash:SIGSEGV, mismatch:OP or
// torch:meta:OP - exports; this adds what the export needs from it.
Result<ReproProperty> parseReproProperty(const std::string& text) {
  auto spec = parsePredicate(text);
  if (!spec.ok()) return invalidInput(spec.error().message);
  ReproProperty p;
  p.text = text;
  p.kind = spec->kind;
  p.arg = spec->arg;
  if (p.kind == PredicateKind::Timeout) p.seconds = *positiveNumber(p.arg);
  // (accuracy:kernels exports as the outputs' check against eager, at the default tolerance)
  if (p.kind == PredicateKind::Accuracy && !p.arg.empty() && p.arg != "kernels") p.tolerance = *positiveNumber(p.arg);
  return p;
}

Result<ReproSpec> resolveRepro(const Dump& dump, const ExportOptions& options) {
  const ReproSpec saved = dump.repro.value_or(ReproSpec{});
  ReproSpec r;
  r.graph = !options.graph.empty() ? options.graph : !saved.graph.empty() ? saved.graph : dump.graphs.empty() ? "" : dump.graphs[0].name;
  if (!dump.graph(r.graph))
    return invalidInput(r.graph.empty() ? "the dump has no graph" : "the dump has no graph named '" + r.graph + "' (it has " + graphNames(dump) + ")",
                        options.source);
  r.predicate = !options.predicate.empty() ? options.predicate : !saved.predicate.empty() ? saved.predicate : "exception";
  r.backend = !options.backend.empty() ? options.backend : saved.backend;
  r.options = saved.options;
  if (auto p = parseReproProperty(r.predicate); !p.ok()) return p.error().within(options.source);
  if (!findBackend(r.backend))
    return invalidInput("unknown backend '" + r.backend + "' (expected one of " + backendNames() + ")", options.source);
  return r;
}

Result<ReproCase> prepareRepro(const Dump& dump, const ExportOptions& options) {
  auto spec = resolveRepro(dump, options);
  FATHOM_TRY(spec);
  ReproCase c;
  c.source = options.source;
  c.graphName = spec->graph;
  c.property = *parseReproProperty(spec->predicate);
  c.backend = spec->backend;
  c.options = spec->options;
  bool symbolic = false;
  c.graph = concreteGraph(*dump.graph(c.graphName), &symbolic);
  if (auto s = addInputs(c, dump, options.inlineLimit, symbolic); !s.ok()) return s.error().within(options.source);
  return c;
}

std::string sideFilePath(const std::string& outputPath) { return outputPath + ".bin"; }

Result<ExportSummary> writeExport(const Dump& dump, ExportForm form, const std::string& path, const ExportOptions& options) {
  ExportSummary summary;
  if (form == ExportForm::Dump) {
    auto spec = resolveRepro(dump, options);
    FATHOM_TRY(spec);
    Dump out = dump;
    out.repro = *spec;
    ExportSummary written{*spec, dump.graph(spec->graph)->size(), {path}};
    // Values in side files outside PATH's folder are copied beside it (saveDump), so whoever
    // receives the repro loads it without --trust-paths.
    if (saveCopiesValues(out, path)) written.files.push_back(sideFileOf(path));
    for (const auto& f : written.files) FATHOM_TRY(checkWritable(f, options));
    FATHOM_TRY(saveDump(out, path));
    return written;
  }
  auto repro = prepareRepro(dump, options);
  FATHOM_TRY(repro);
  summary.repro = {repro->graphName, repro->property.text, repro->backend, repro->options};
  summary.nodes = repro->graph.size();
  if (form == ExportForm::Gtest) {
    FATHOM_TRY(writeGenerated(gtestSource(*repro, path), path, options, summary));
    return summary;
  }
  FATHOM_TRY(writeGenerated(pytorchScript(*repro, path), path, options, summary));
  std::error_code ec;  // executable, as scripts are; a file system without modes is fine too
  std::filesystem::permissions(path, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec | std::filesystem::perms::others_exec,
                               std::filesystem::perm_options::add, ec);
  return summary;
}

Status writePyTorchScript(const Dump& dump, const std::string& graph, const std::string& path, const std::string& predicate) {
  ExportOptions options;
  options.graph = graph;
  options.predicate = predicate;
  options.force = true;
  auto written = writeExport(dump, ExportForm::PyTorch, path, options);
  if (!written.ok()) return written.error();
  return {};
}

}  // namespace fathom::minify
