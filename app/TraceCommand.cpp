// `fathom trace MODEL [--layers N] [--batch B] [--seq S] [--dynamic] [-o OUT] [--trace-log FILE]
//                     [--calls BxS,...] [--aot [--partitioner default|min-cut] [--lazy-backward]]
//                     [--compiled-autograd [--steps N]] [--training] [--json]`, `fathom trace --list`:
// traces a sample model (samples/models) on fake tensors - static, or with symbolic input sizes -
// and writes the dump: graph, ShapeEnv (symbols, ranges, sources, replacements) and every guard
// with its provenance. --calls simulates a guarded cache: each call's input sizes are checked
// against the entries compiled so far; a miss lists every failing guard of every entry and
// retraces; with -o every compiled entry's dump is written (OUT, OUT-stem.entry1.fathom.json, ...)
// and the trace log names each compile's dump and each failing guard's entry, so a viewer can open
// the graph a guard came from. --aot traces the training step instead (AOT autograd): joint, forward and backward
// graphs, the partition (saved values with sizes and bytes) and the guards - with any late guard
// the lazy backward added after the forward's guards were installed.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "app/CliCommon.h"
#include "app/CompiledAutogradTrace.h"
#include "engine/aot/AotCompile.h"
#include "engine/core/TraceEvents.h"
#include "engine/dump/GuardJson.h"
#include "engine/frontend/ShapeTracing.h"
#include "engine/graph/GraphGuards.h"
#include "engine/graph/PartitionInfo.h"
#include "engine/symbolic/GuardedCache.h"
#include "samples/models/Models.h"

namespace fathom::cli {
namespace {

struct TraceOptions {
  std::string model;
  bool list = false;
  int64_t layers = 0, batch = 0, seq = 0;
  bool dynamic = false, noDuckSizing = false, json = false, force = false;
  bool aot = false, lazyBackward = false, training = false, compiledAutograd = false;
  int steps = 3;
  std::string out, traceLog, calls, partitioner = "default";
};

struct CallSpec {
  int64_t batch = 0, seq = 0;
  std::string text;
};

// "8x128,4x128,4x64" -> {8,128}, {4,128}, {4,64}; a bare "8" keeps the model's seq.
Result<std::vector<CallSpec>> parseCalls(const std::string& text) {
  std::vector<CallSpec> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    CallSpec c{0, 0, item};
    const auto x = item.find('x');
    auto number = [&](const std::string& s, int64_t* v) {
      try {
        size_t used = 0;
        *v = std::stoll(s, &used);
        return used == s.size() && *v > 0;
      } catch (const std::exception&) {
        return false;
      }
    };
    if (!number(item.substr(0, x), &c.batch) || (x != std::string::npos && !number(item.substr(x + 1), &c.seq)))
      return invalidInput("--calls: '" + item + "' is not BATCHxSEQ with positive integers (e.g. 8x128)");
    out.push_back(c);
  }
  if (out.empty()) return invalidInput("--calls: no calls given (e.g. --calls 8x128,4x128)");
  return out;
}

std::string failureText(const sym::GuardFailure& f) {
  std::string out = f.expr + "  [" + f.kind + "]";
  if (!f.actual.empty()) out += "  with " + f.actual;
  if (!f.where.node.empty()) out += "\n          from %" + f.where.node + " = " + f.where.op;
  if (!f.where.source.empty()) out += "  at " + f.where.source;
  if (!f.where.module.empty()) out += "  in " + f.where.module;
  if (f.where.node.empty() && !f.input.empty()) out += "\n          of input %" + f.input;
  if (!f.reason.empty()) out += "\n          why: " + f.reason;
  return out;
}

std::string oneLine(std::string text) {
  for (size_t at; (at = text.find("\n          ")) != std::string::npos;) text.replace(at, 11, "; ");
  return text;
}

std::string millis(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f ms", ms);
  return text;
}

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

Json traceSummaryJson(const ShapeTrace& t) {
  const Graph& g = t.dump.graphs.front().graph;
  return {{"nodes", g.size()}, {"symbols", t.env->symbols().size()}, {"guards", t.env->guards().size()},
          {"specializations", t.env->specializations().size()}, {"trace_ms", t.traceMs}};
}

struct Traced {
  ShapeTrace trace;
  std::vector<std::vector<int64_t>> sizes;
};

Result<Traced> traceOnce(const TraceOptions& o, const models::ModelOptions& mo, TraceLog* log, int64_t compileId,
                         CompileContext context = {}) {
  auto model = models::buildModel(o.model, mo);
  FATHOM_TRY(model);
  ShapeTraceOptions so;
  so.dynamic = o.dynamic;
  so.shapes.duckSizing = !o.noDuckSizing;
  so.log = log;
  so.compileId = compileId;
  so.compileContext = std::move(context);
  auto t = traceWithShapes(**model, so);
  FATHOM_TRY(t);
  Traced out{std::move(*t), {}};
  out.sizes = inputSizes(out.trace.dump.inputs.front().second);
  return out;
}

void addProducer(Dump& d, const TraceOptions& o) {
  d.producer.emplace_back("command", "fathom trace " + o.model + (o.dynamic ? " --dynamic" : ""));
  d.producer.emplace_back("dynamic", o.dynamic ? "true" : "false");
}

// Where --calls -o OUT writes compiled entry #k: OUT itself for #0, and for the others OUT's stem
// with ".entryK" before its suffix (b.fathom.json -> b.entry1.fathom.json), so every graph the
// session compiled - the one each recompile replaced included - can be opened and diffed.
std::string entryDumpPath(const std::string& out, size_t entry) {
  if (entry == 0) return out;
  const std::string tag = ".entry" + std::to_string(entry);
  for (const std::string suffix : {".fathom.json", ".json"})
    if (out.size() > suffix.size() && out.ends_with(suffix)) return out.substr(0, out.size() - suffix.size()) + tag + suffix;
  return out + tag;
}

// The state of a --calls session: the cache, each entry's dump, what --json prints.
struct CallSession {
  GuardedCache cache;
  std::vector<std::string> entryDumps;  // as written (empty without -o)
  Json calls = Json::array();
  int64_t compiles = 0, hits = 0;
};

// The dump a log names for a compile: none when nothing is written.
std::optional<std::string> loggedDump(const std::string& path) {
  return path.empty() ? std::nullopt : std::optional<std::string>(loggedPath(path));
}

std::optional<std::string> entryDump(const CallSession& s, size_t entry) { return loggedDump(s.entryDumps[entry]); }

void serveHit(const TraceOptions& o, CallSession& s, TraceLog& log, size_t call, const CallSpec& c, size_t entry) {
  ++s.hits;
  const CacheEntry& e = s.cache.entries()[entry];
  log.emit(e.compileId, "compile", CacheHitEvent{c.text, static_cast<int64_t>(entry), entryDump(s, entry)});
  s.calls.push_back({{"call", call + 1}, {"sizes", c.text}, {"result", "hit"}, {"entry", entry}, {"compile_id", e.compileId}});
  if (!o.json) std::cout << "call " << call + 1 << "  " << c.text << "  hit   entry #" << entry << " (compiled for " << e.label << ")\n";
}

// The recompile event: every failing guard of every entry, each with the compile id and dump of
// the entry it failed, so a viewer opens the graph its node is in.
void logRecompile(CallSession& s, TraceLog& log, int64_t compileId, const CallSpec& c, const CacheLookup& look) {
  RecompileEvent event{c.text, static_cast<int64_t>(s.cache.entries().size()), {}, {}};
  for (const auto& [entry, fs] : look.failures)
    for (const auto& f : fs) {
      event.failingGuards.push_back("entry #" + std::to_string(entry) + ": " + oneLine(failureText(f)));
      RecompileFailure failure = recompileFailureOf(entry, f);
      failure.compileId = s.cache.entries()[entry].compileId;
      failure.dump = entryDump(s, entry);
      event.failures.push_back(std::move(failure));
    }
  log.emit(compileId, "compile", event);
}

Status compileMiss(const TraceOptions& o, CallSession& s, TraceLog& log, size_t call, const CallSpec& c,
                   const models::ModelOptions& callOptions, const CacheLookup& look) {
  const int64_t compileId = s.compiles++;
  const size_t entry = s.cache.entries().size();
  const std::string dumpPath = o.out.empty() ? std::string() : entryDumpPath(o.out, entry);
  if (entry > 0) logRecompile(s, log, compileId, c, look);
  const CompileContext context{c.text, static_cast<int64_t>(entry), loggedDump(dumpPath)};
  auto traced = traceOnce(o, callOptions, &log, compileId, context);
  FATHOM_TRY(traced);
  Dump& dump = traced->trace.dump;
  auto guards = guardSetOf(dump.graphs.front().graph, *traced->trace.env);
  FATHOM_TRY(guards);
  s.cache.add({compileId, c.text, std::move(*guards)});
  s.entryDumps.push_back(dumpPath);
  if (!dumpPath.empty()) {
    addProducer(dump, o);
    dump.producer.emplace_back("call", c.text);
    dump.producer.emplace_back("entry", std::to_string(entry));
    FATHOM_TRY(saveDump(dump, dumpPath));
  }
  Json failures = Json::array();
  for (const auto& [e, fs] : look.failures)
    for (const auto& f : fs) failures.push_back(guardFailureJson(e, f));
  s.calls.push_back({{"call", call + 1}, {"sizes", c.text}, {"result", "miss"}, {"entry", entry}, {"compile_id", compileId},
                     {"failures", std::move(failures)}, {"trace", traceSummaryJson(traced->trace)},
                     {"dump", dumpPath.empty() ? Json(nullptr) : Json(dumpPath)}});
  if (o.json) return {};
  std::cout << "call " << call + 1 << "  " << c.text << "  miss  compiled entry #" << entry << " ("
            << plural(traced->trace.env->guards().size(), "guard") << ", " << millis(traced->trace.traceMs) << ")"
            << (look.failures.empty() ? "  first call\n" : "\n");
  for (const auto& [e, fs] : look.failures) {
    std::cout << "      entry #" << e << " (" << s.cache.entries()[e].label << "): " << plural(fs.size(), "failing guard") << "\n";
    for (const auto& f : fs) std::cout << "        " << failureText(f) << "\n";
  }
  return {};
}

// Each call's options, and each dump a call could write, are checked before the first trace, so
// a bad one stops nothing halfway (every call may compile: entries #0 to #calls-1).
Status checkCalls(const TraceOptions& o, const models::ModelOptions& mo, const std::vector<CallSpec>& calls) {
  for (const CallSpec& c : calls) {
    models::ModelOptions callOptions = mo;
    callOptions.batch = c.batch;
    if (c.seq) callOptions.seq = c.seq;
    if (auto model = models::buildModel(o.model, callOptions); !model.ok())
      return invalidInput("--calls " + c.text + ": " + model.error().message);
  }
  for (size_t k = 0; !o.out.empty() && !o.force && k < calls.size(); ++k)
    if (std::ifstream(entryDumpPath(o.out, k)).good())
      return invalidInput("trace: " + entryDumpPath(o.out, k) + " exists (--calls may write " + o.out + " and " +
                          entryDumpPath(o.out, 1) + ", ...); pass --force to overwrite it");
  return {};
}

int simulateCalls(const TraceOptions& o, models::ModelOptions mo, TraceLog& log) {
  auto calls = parseCalls(o.calls);
  if (!calls.ok()) return reportError(calls.error());
  if (auto checked = checkCalls(o, mo, *calls); !checked.ok()) return reportError(checked.error());
  CallSession s;
  for (size_t i = 0; i < calls->size(); ++i) {
    const CallSpec& c = (*calls)[i];
    models::ModelOptions callOptions = mo;
    callOptions.batch = c.batch;
    if (c.seq) callOptions.seq = c.seq;
    auto model = models::buildModel(o.model, callOptions);
    if (!model.ok()) return reportError(model.error());
    const CacheLookup look = s.cache.lookup(inputSizes(frontend::exampleInputs(**model)));
    if (look.hit) {
      serveHit(o, s, log, i, c, *look.hit);
    } else if (auto compiled = compileMiss(o, s, log, i, c, callOptions, look); !compiled.ok()) {
      return reportError(compiled.error());
    }
  }
  Json dumps = Json::array();
  for (const auto& d : s.entryDumps)
    if (!d.empty()) dumps.push_back(d);
  if (o.json) {
    printJson({{"model", o.model}, {"dynamic", o.dynamic}, {"calls", std::move(s.calls)}, {"compiles", s.compiles},
               {"hits", s.hits}, {"dumps", std::move(dumps)}});
    return kExitOk;
  }
  std::cout << plural(calls->size(), "call") << ": " << plural(static_cast<size_t>(s.hits), "hit") << ", "
            << plural(static_cast<size_t>(s.compiles), "compile") << "\n";
  for (size_t e = 0; e < s.entryDumps.size(); ++e)
    if (!s.entryDumps[e].empty())
      std::cout << "wrote " << s.entryDumps[e] << " (entry #" << e << ", compiled for " << s.cache.entries()[e].label << ")\n";
  return kExitOk;
}

int listModels(bool json) {
  Json out = Json::array();
  for (const auto& m : models::allModels()) {
    out.push_back({{"name", m.name}, {"description", m.description}, {"layers", m.defaults.layers},
                   {"batch", m.defaults.batch}, {"seq", m.defaults.seq}});
    if (!json)
      std::cout << "  " << m.name << std::string(10 - std::min<size_t>(9, m.name.size()), ' ') << m.description
                << "  (defaults: layers " << m.defaults.layers << ", batch " << m.defaults.batch << ", seq "
                << m.defaults.seq << ")\n";
  }
  if (json) printJson({{"models", std::move(out)}});
  return kExitOk;
}

Status writeDump(const Dump& dump, const TraceOptions& o) {
  if (o.out.empty()) return {};
  if (!o.force && std::ifstream(o.out).good()) return invalidInput("trace: " + o.out + " exists; pass --force to overwrite it");
  return saveDump(dump, o.out);
}

int runAotTrace(const TraceOptions& o, const models::ModelOptions& mo, TraceLog& log) {
  auto partitioner = aot::parsePartitioner(o.partitioner);
  if (!partitioner) return usageError("trace: --partitioner must be default or min-cut, not '" + o.partitioner + "'");
  auto model = models::buildModel(o.model, mo);
  if (!model.ok()) return reportError(model.error());
  aot::AotOptions ao;
  ao.shapes.dynamic = o.dynamic;
  ao.shapes.shapes.duckSizing = !o.noDuckSizing;
  ao.shapes.log = &log;
  ao.shapes.compileContext.dump = loggedDump(o.out);
  ao.partitioner = *partitioner;
  ao.backward = o.lazyBackward ? aot::BackwardTiming::Lazy : aot::BackwardTiming::Eager;
  auto compiled = aot::aotCompile(**model, ao);
  if (!compiled.ok()) return reportError(compiled.error());
  Dump& dump = compiled->dump;
  addProducer(dump, o);
  dump.producer.emplace_back("aot", std::string(aot::partitionerName(*partitioner)) + (o.lazyBackward ? ", lazy backward" : ""));
  if (auto s = writeDump(dump, o); !s.ok()) return usageError(s.error().message);
  const PartitionInfo& p = *dump.partition;
  const sym::ShapeEnv& env = *compiled->env;
  if (o.json) {
    Json saved = Json::array();
    for (const auto& v : p.saved) {
      Json j = {{"name", v.name}, {"kind", v.isSymInt ? "symint" : "tensor"}, {"bytes", v.bytes}};
      if (v.isSymInt) j["value"] = v.value.str();
      else j["sizes"] = symIntListJson(v.meta.sizes), j["dtype"] = std::string(dtypeName(v.meta.dtype));
      saved.push_back(std::move(j));
    }
    Json late = Json::array();
    for (const auto& g : compiled->lateGuards) late.push_back(guardProvenanceJson(g.expr, g.where, g.reason));
    Json graphs = Json::object();
    for (const auto& g : dump.graphs) graphs[g.name] = g.graph.size();
    printJson({{"model", o.model}, {"dynamic", o.dynamic}, {"partitioner", p.partitioner},
               {"output", o.out.empty() ? Json(nullptr) : Json(o.out)}, {"graphs", std::move(graphs)},
               {"saved", std::move(saved)}, {"saved_bytes", p.savedBytes()}, {"mutated_inputs", p.mutatedInputs},
               {"guards", env.guards().size()}, {"installed_guards", compiled->installedGuards},
               {"late_guards", std::move(late)}, {"trace_ms", compiled->traceMs},
               {"partition_ms", compiled->partitionMs}, {"compile_ms", compiled->compileMs}});
    return kExitOk;
  }
  std::cout << "aot " << o.model << (o.dynamic ? " (dynamic)" : " (static)") << ", " << p.partitioner << " partitioner: joint "
            << plural(dump.graph("joint")->size(), "node") << " -> forward " << dump.graph("forward")->size() << ", backward "
            << dump.graph("backward")->size() << " in " << millis(compiled->traceMs + compiled->partitionMs + compiled->compileMs) << "\n";
  std::cout << "  saved for backward: " << p.numSavedTensors() << " tensors + " << (p.saved.size() - p.numSavedTensors())
            << " SymInts, " << p.savedBytes() << " bytes (under the hints)\n";
  if (!p.mutatedInputs.empty()) std::cout << "  mutated inputs (applied back after the forward): " << p.mutatedInputs.size() << "\n";
  std::cout << "  guards: " << env.guards().size() << " (" << compiled->installedGuards << " installed with the forward)\n";
  for (const auto& g : compiled->lateGuards) {
    std::cout << "  LATE GUARD " << g.expr << "  [" << g.where.stage << "]\n          from %" << g.where.node << " = "
              << g.where.op;
    if (!g.where.source.empty()) std::cout << "  at " << g.where.source;
    if (!g.reason.empty()) std::cout << "\n          why: " << g.reason;
    std::cout << "\n          the guard set installed after the forward does not check it\n";
  }
  if (!o.out.empty()) std::cout << "wrote " << o.out << " (run it: fathom run " << o.out << " --backend aot_eager)\n";
  return kExitOk;
}

int runTrace(const TraceOptions& o) {
  if (o.list) return listModels(o.json);
  if (o.model.empty()) return usageError("trace: a MODEL is required (see 'fathom trace --list')");
  if (!models::findModel(o.model)) {
    std::string names;
    for (const auto& m : models::allModels()) names += (names.empty() ? "" : ", ") + m.name;
    return usageError("trace: unknown model '" + o.model + "' (models: " + names + ")");
  }
  if (o.layers < 0 || o.batch < 0 || o.seq < 0) return usageError("trace: --layers, --batch and --seq must be positive");
  models::ModelOptions mo;
  mo.layers = o.layers;
  mo.batch = o.batch;
  mo.seq = o.seq;
  mo.training = o.training;
  if (!o.aot && (o.lazyBackward || o.partitioner != "default"))
    return usageError("trace: --partitioner and --lazy-backward need --aot");

  TraceLog log;
  if (!o.traceLog.empty()) {
    auto opened = TraceLog::open(o.traceLog);
    if (!opened.ok()) return reportError(opened.error());
    log = std::move(*opened);
  }
  if (!o.calls.empty()) return simulateCalls(o, mo, log);
  if (o.aot) return runAotTrace(o, mo, log);
  if (o.compiledAutograd) return runCompiledAutogradTrace({o.model, mo, o.out, o.force, o.json, o.steps});

  CompileContext context;
  context.dump = loggedDump(o.out);
  auto traced = traceOnce(o, mo, &log, 0, context);
  if (!traced.ok()) return reportError(traced.error());
  Dump& dump = traced->trace.dump;
  addProducer(dump, o);
  if (!o.out.empty()) {
    if (!o.force && std::ifstream(o.out).good())
      return usageError("trace: " + o.out + " exists; pass --force to overwrite it");
    if (auto s = saveDump(dump, o.out); !s.ok()) return reportError(s.error());
  }
  const ShapeTrace& t = traced->trace;
  if (o.json) {
    Json j = {{"model", o.model}, {"dynamic", o.dynamic}, {"output", o.out.empty() ? Json(nullptr) : Json(o.out)}};
    j.update(traceSummaryJson(t));
    Json symbols = Json::array();
    for (const auto& s : t.env->symbols()) symbols.push_back({{"name", s.name}, {"hint", s.hint}, {"sources", s.sources}});
    j["symbol_list"] = std::move(symbols);
    printJson(j);
  } else {
    std::cout << "traced " << o.model << (o.dynamic ? " (dynamic)" : " (static)") << ": "
              << plural(dump.graphs.front().graph.size(), "node") << ", " << plural(t.env->symbols().size(), "symbol") << ", "
              << plural(t.env->guards().size(), "guard") << ", " << plural(t.env->specializations().size(), "specialization") << " in "
              << millis(t.traceMs) << "\n";
    for (const auto& s : t.env->symbols()) {
      std::cout << "  " << s.name << " = " << s.hint << " from ";
      for (size_t i = 0; i < s.sources.size(); ++i) std::cout << (i ? ", " : "") << s.sources[i];
      std::cout << "\n";
    }
    if (!o.out.empty()) std::cout << "wrote " << o.out << " (see its guards: fathom guards " << o.out << ")\n";
  }
  return kExitOk;
}

}  // namespace

Command addTraceCommand(CLI::App& parent) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* app = parent.add_subcommand("trace", "Trace a sample model (static or --dynamic) into a dump with its guards");
  app->add_option("MODEL", o->model, "The model: mlp, bert, resnet18, gpt2 (see --list)");
  app->add_flag("--list", o->list, "List the models and their default options");
  app->add_option("--layers", o->layers, "Layers (bert, gpt2 blocks; mlp linear layers)");
  app->add_option("--batch", o->batch, "Batch size of the example inputs");
  app->add_option("--seq", o->seq, "Sequence length (bert, gpt2) or image size (resnet18)");
  app->add_flag("--dynamic", o->dynamic, "Make every input dimension symbolic (s0, s1, ...)");
  app->add_flag("--no-duck-sizing", o->noDuckSizing, "Give equal input sizes separate symbols");
  app->add_option("-o,--output", o->out, "Write the dump (graph, shape_env with guards, example inputs) here; with --calls "
                                          "entry #0's, and entry #K's to OUT's stem + .entryK.fathom.json");
  app->add_flag("--force", o->force, "Overwrite --output if it exists");
  app->add_option("--trace-log", o->traceLog, "Append the events (symbols, guards, compiles, recompiles) as JSON lines");
  app->add_option("--calls", o->calls, "Simulate calls with these input sizes, e.g. 8x128,4x128,4x64: hits, misses, reasons");
  app->add_flag("--aot", o->aot, "Trace the training step (AOT autograd): joint, forward and backward graphs and the partition");
  app->add_option("--partitioner", o->partitioner, "With --aot: default (save what the backward reads) or min-cut (recompute cheap ops)");
  app->add_flag("--lazy-backward", o->lazyBackward, "With --aot: form the backward after the forward's guards are installed; report late guards");
  app->add_flag("--compiled-autograd", o->compiledAutograd,
                "Run training steps with compiled autograd (capture the backward tape as a graph, replay it); dump the graph");
  app->add_option("--steps", o->steps, "With --compiled-autograd: backward passes to run (default 3)");
  app->add_flag("--training", o->training, "Train mode: dropout active, batch norm on batch statistics (updates running stats)");
  app->add_flag("--json", o->json, "Print JSON: {model, dynamic, nodes, symbols, guards, ...}; with --calls "
                                   "{calls: [{call, sizes, result, entry, failures: [...], dump}], compiles, hits, dumps}; with --aot "
                                   "{graphs, saved: [{name, kind, sizes, bytes}], saved_bytes, guards, late_guards, ...}");
  return {app, [o] { return runTrace(*o); }};
}

}  // namespace fathom::cli
