#include "minifier/Predicates.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <functional>
#include <filesystem>
#include <memory>
#include <regex>
#include <set>

#include "engine/aot/AotCompile.h"
#include "engine/graph/GraphGuards.h"
#include "engine/interp/AccuracyRule.h"
#include "engine/jit/KernelCheck.h"
#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/ValueDiff.h"
#include "engine/symbolic/GuardSet.h"
#include "minifier/CustomPredicates.h"
#include "minifier/Export.h"
#include "minifier/RunCommand.h"

namespace fathom::minify {
namespace {

const Backend& backendOf(const OracleContext& c) { return c.backend ? *c.backend : *findBackend("eager"); }

Result<ValueList> runWith(const Backend& b, const Graph& g, const std::vector<ExampleInput>& inputs) {
  auto tensors = materializeInputs(inputs);
  FATHOM_TRY(tensors);
  return b.run(g, std::move(*tensors));
}

constexpr const char* kRaised = "raised: ";

// What a run did, in words: "ran cleanly" or "raised: MESSAGE".
Verdict describe(const Result<ValueList>& r) { return r.ok() ? Verdict{false, "ran cleanly"} : Verdict{false, kRaised + r.error().str()}; }

// An error's signature: the op's message, without "; while executing %node = ..." (node names
// change as the graph shrinks) and without the "%node: " prefix.
std::string signature(std::string message) {
  if (const auto at = message.find("; while executing"); at != std::string::npos) message.resize(at);
  if (!message.empty() && message[0] == '%')
    if (const auto colon = message.find(": "); colon != std::string::npos) message = message.substr(colon + 2);
  return message;
}

std::string regexEscape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (std::strchr("\\^$.|?*+()[]{}", ch)) out += '\\';
    out += ch;
  }
  return out;
}

// The original, run the way candidates are (in a worker when isolated: it may crash or hang).
WorkerResult observe(const std::function<Verdict()>& probe, const OracleContext& ctx) { return runProbe(probe, ctx.isolate, ctx.limits); }

std::optional<int> parseSignal(const std::string& text) {
  std::string name = text;
  if (name.rfind("SIG", 0) == 0) name = name.substr(3);
  for (int s = 1; s < 65; ++s)
    if (const char* abbrev = ::sigabbrev_np(s); abbrev && name == abbrev) return s;
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos && text.size() < 3) return std::stoi(text);
  return std::nullopt;
}

std::optional<double> parsePositive(const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && v > 0 && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// --- accuracy ------------------------------------------------------------------------------

bool allFinite(const Tensor& t) {
  for (int64_t i = 0; i < t.numel(); ++i)
    if (!std::isfinite(t.atLinear(i))) return false;
  return true;
}

// Outputs with nested lists (a multi-output op returned whole) flattened.
Result<ValueList> flat(Result<ValueList> r) {
  if (!r.ok()) return r;
  ValueList out;
  std::function<void(const Value&)> add = [&](const Value& v) {
    if (const auto* l = v.tryAs<ValueList>()) for (const auto& e : *l) add(e);
    else out.push_back(v);
  };
  for (const auto& v : *r) add(v);
  return out;
}

Verdict accuracy(const Backend& backend, const Candidate& c, double tol, bool allowNonFinite) {
  auto inputs = materializeInputs(c.inputs);
  if (!inputs.ok()) return {false, "its inputs cannot be built: " + inputs.error().str()};
  for (const auto& v : *inputs)
    if (const auto* t = v.tryAs<Tensor>(); t && isFloating(t->dtype()) && !allowNonFinite && !allFinite(*t))
      return {false, "an input holds NaN or Inf (not taken without allowing it)"};
  auto wide = widenedToFloat64(*inputs);
  if (!wide.ok()) return {false, wide.error().str()};
  auto got = flat(backend.run(c.graph, *inputs));
  if (!got.ok()) return {false, kRaised + got.error().str()};
  auto eager = flat(findBackend("eager")->run(c.graph, *inputs));
  if (!eager.ok()) return {false, "the eager reference raised: " + eager.error().str()};
  auto ref = flat(findBackend("eager")->run(c.graph, *wide));
  for (size_t i = 0; i < got->size() && i < eager->size(); ++i) {
    const auto* g = (*got)[i].tryAs<Tensor>();
    const auto* e = (*eager)[i].tryAs<Tensor>();
    if (!g || !e || !isFloating(g->dtype()) || g->numel() != e->numel()) continue;
    const Tensor* r = ref.ok() && i < ref->size() ? (*ref)[i].tryAs<Tensor>() : nullptr;
    char text[160];
    if (r && r->numel() == g->numel()) {  // PyTorch's rule, against the float64 run
      const double gotError = rmse(*g, *r), eagerError = rmse(*e, *r);
      if (!(gotError <= 2 * eagerError + tol / 10)) {
        std::snprintf(text, sizeof text, "output %zu: rmse %.3g against float64, eager's %.3g (allowed %.3g)", i, gotError,
                      eagerError, 2 * eagerError + tol / 10);
        return {true, text};
      }
    } else if (auto d = diffValues((*got)[i], (*eager)[i], tol, tol); !d.ok) {  // no float64 run: against eager
      std::snprintf(text, sizeof text, "output %zu: max |difference| %.3g from eager (tolerance %g)", i, d.maxAbsDiff, tol);
      return {true, text};
    }
  }
  return {false, "outputs within tolerance"};
}

// --- mismatch ------------------------------------------------------------------------------

// The first origin the debug interpreter finds at an `op` node (any op when empty), over the
// graph as the backend records its meta.
Verdict mismatch(const Backend& backend, const Candidate& c, const std::string& op) {
  auto tensors = materializeInputs(c.inputs);
  if (!tensors.ok()) return {false, tensors.error().str()};
  const Graph g = backend.meta(c.graph);
  DebugInterpreter di(g, {});
  auto r = di.run(std::move(*tensors));
  for (const auto& m : di.mismatches())
    if (m.origin && (op.empty() || m.op == op)) return {true, m.op};
  if (!r.ok()) return {false, kRaised + r.error().str()};
  return {false, di.mismatches().empty() ? "no mismatch" : "no origin at " + (op.empty() ? std::string("any node") : op)};
}

// --- guard ---------------------------------------------------------------------------------

// Runs in a worker only: compiling the candidate adds guards to the symbols' environment (the
// one the dump's sizes point to), which only the worker's copy of it may keep.
Verdict guard(sym::ShapeEnv& env, const Candidate& c) {
  std::set<std::string> nodes;  // the calls: a guard's node cut into an input no longer asks it
  for (const auto& n : c.graph.nodes())
    if (n.kind == NodeKind::Call) nodes.insert(n.name);
  if (auto set = guardSetOf(c.graph, env); set.ok())
    for (const auto& f : set->failures(inputSizes(c.inputs)))
      if (f.kind == "guard" && nodes.count(f.where.node)) return {true, "guard " + f.expr + " fails (" + f.actual + "), from %" + f.where.node};
  // Compiling the candidate again: a guard the trace did not record is one the installed set
  // does not check - a late guard.
  std::set<std::string> known;
  for (const auto& g : env.guards()) known.insert(g.expr.str());
  const size_t before = env.guards().size();
  if (auto s = aot::propagateFake(c.graph); !s.ok()) return {false, "its meta does not re-propagate: " + s.error().str()};
  for (size_t i = before; i < env.guards().size(); ++i) {
    const auto& g = env.guards()[i];
    if (!known.count(g.expr.str())) return {true, "late guard " + g.expr.str() + " (" + g.reason + ")"};
  }
  return {false, "every guard holds and none is late"};
}

// --- script --------------------------------------------------------------------------------

// `/bin/sh -c 'CMD "$1"' fathom-minify PATH`: exit status 0 means still failing.
Verdict runScript(const std::string& command, const std::string& path) {
  std::string why;
  const int code = runCommand({"/bin/sh", "-c", command + " \"$1\"", "fathom-minify", path}, "", "", &why);
  if (code < 0) return {false, why};
  return {code == 0, "the script exited with status " + std::to_string(code)};
}

// The candidate as a PyTorch script (minifier/Export.h) run under Debian's python3: it prints
// "FATHOM-REPRO: KIND: DETAIL" and exits 1 when PyTorch shows the failure.
// The op of a meta report's detail: "%name = aten.where.self: output 0: ..." -> aten.where.self.
std::string reportedOp(const std::string& line) {
  const auto eq = line.find(" = ");
  if (eq == std::string::npos) return "";
  const auto end = line.find(':', eq + 3);
  return line.substr(eq + 3, end == std::string::npos ? std::string::npos : end - eq - 3);
}

// `op` (when not empty) must be the op PyTorch's meta report names: a different meta bug is not
// the one being minified.
Verdict runInPyTorch(const Dump& candidate, const std::string& graph, const std::string& kind, const std::string& op,
                     const std::string& script) {
  if (auto s = writePyTorchScript(candidate, graph, script, "torch:" + kind); !s.ok()) return {false, "could not export it: " + s.error().str()};
  std::string why;
  const std::string output = script + ".out";
  const int code = runCommand({"/usr/bin/python3", script, "--check", kind}, output, "", &why);
  auto text = readFile(output);
  std::error_code ec;
  for (const auto& f : {script, output, sideFilePath(script)}) std::filesystem::remove(f, ec);
  if (code < 0) return {false, why};
  std::string line = text.ok() ? *text : "";
  if (const auto at = line.find("FATHOM-REPRO: "); at != std::string::npos) line = line.substr(at);
  if (const auto nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
  if (code == 2) return {false, "PyTorch could not run it: " + line};
  const bool fails = code == 1 && line.rfind("FATHOM-REPRO: " + kind, 0) == 0 && (op.empty() || reportedOp(line) == op);
  return {fails, line.empty() ? "python3 exited with status " + std::to_string(code) : line};
}

// --- one oracle per kind ---------------------------------------------------------------------

// What every kind's oracle is made from: the original candidate, the backend, the context.
struct Original {
  const Candidate& candidate;
  const Backend& backend;
  const OracleContext& ctx;

  // How candidates run: the backend's run, in words.
  std::function<Verdict(const Candidate&)> probe() const {
    const Backend& b = backend;
    return [&b](const Candidate& c) { return describe(runWith(b, c.graph, c.inputs)); };
  }
  // The original does not show the failure the kind needs to learn its defaults.
  Error doesNot(const std::string& what, const WorkerResult& r) const {
    return invalidInput("the graph does not " + what + " under backend " + backend.name + "; instead: " + r.verdict.what);
  }
  // The kinds that need worker subprocesses refuse to run in this process.
  Status checkIsolated(PredicateKind kind) const {
    if (ctx.isolate) return {};
    return invalidInput("--predicate " + std::string(predicateKindName(kind)) + " needs worker subprocesses (not --in-process)");
  }
};

Result<PreparedOracle> exceptionOracle(const PredicateSpec& spec, const Original& o) {
  std::string regex = spec.arg, seen;
  if (regex.empty()) {
    const WorkerResult r = observe([&] { return o.probe()(o.candidate); }, o.ctx);
    if (r.end != WorkerEnd::Answered || r.verdict.what.rfind(kRaised, 0) != 0) return o.doesNot("raise an error", r);
    regex = regexEscape(signature(r.verdict.what.substr(std::strlen(kRaised))));
    seen = r.verdict.what;
  }
  auto re = std::make_shared<std::regex>(regex);
  const Backend& backend = o.backend;
  Oracle oracle([re, &backend](const Candidate& c) {
    Verdict v = describe(runWith(backend, c.graph, c.inputs));
    v.fails = v.what.rfind(kRaised, 0) == 0 && std::regex_search(v.what.substr(std::strlen(kRaised)), *re);
    return v;
  });
  return PreparedOracle{std::move(oracle), "exception:" + regex, 0, seen};
}

// crash and timeout: answered by how the worker ends.
Result<PreparedOracle> workerEndOracle(const PredicateSpec& spec, const Original& o) {
  FATHOM_TRY(o.checkIsolated(spec.kind));
  if (spec.kind == PredicateKind::Timeout) {
    const double seconds = *parsePositive(spec.arg);
    OracleContext limited = o.ctx;
    limited.limits.timeoutSeconds = seconds;
    const WorkerResult r = observe([&] { return o.probe()(o.candidate); }, limited);
    if (r.end != WorkerEnd::TimedOut) return o.doesNot("time out in " + spec.arg + " s", r);
    Oracle oracle(o.probe(), [](WorkerEnd end, int) { return end == WorkerEnd::TimedOut; });
    return PreparedOracle{std::move(oracle), "timeout:" + spec.arg, seconds, r.verdict.what};
  }
  int signal = spec.arg.empty() ? 0 : *parseSignal(spec.arg);
  std::string seen;
  if (!signal) {
    const WorkerResult r = observe([&] { return o.probe()(o.candidate); }, o.ctx);
    if (r.end != WorkerEnd::Crashed || !r.signal) return o.doesNot("crash", r);
    signal = r.signal;
    seen = r.verdict.what;
  }
  Oracle oracle(o.probe(), [signal](WorkerEnd end, int s) { return end == WorkerEnd::Crashed && s == signal; });
  return PreparedOracle{std::move(oracle), "crash:" + signalName(signal), 0, seen};
}

// accuracy:kernels: the jit's kernel-by-kernel check (engine/jit/KernelCheck.h) finds a generated
// kernel whose outputs, computed alone on the eager values of its inputs, differ from eager's - a
// miscompiled kernel even where the graph's outputs hide it.
Verdict kernelDivergence(const Backend& backend, const Candidate& c) {
  auto inputs = materializeInputs(c.inputs);
  if (!inputs.ok()) return {false, "its inputs cannot be built: " + inputs.error().str()};
  KernelCheckOptions options;
  options.jit.checkInputs = backend.name != "jit-unchecked";
  auto report = checkKernels(c.graph, *inputs, options);
  if (!report.ok()) return {false, kRaised + report.error().str()};
  if (const KernelDivergence* d = report->firstDivergence()) return {true, divergenceText(*d)};
  return {false, "every generated kernel matches eager"};
}

Result<PreparedOracle> accuracyOracle(const PredicateSpec& spec, const Original& o) {
  const Backend& backend = o.backend;
  if (spec.arg == "kernels") {
    if (backend.name != "jit" && backend.name != "jit-unchecked")
      return invalidInput("--predicate accuracy:kernels checks the jit's kernels: it needs --backend jit or jit-unchecked");
    Oracle oracle([&backend](const Candidate& c) { return kernelDivergence(backend, c); });
    return PreparedOracle{std::move(oracle), "accuracy:kernels", 0, {}};
  }
  const double tol = spec.arg.empty() ? 1e-3 : *parsePositive(spec.arg);
  const bool allow = o.ctx.allowNonFinite;
  Oracle oracle([&backend, tol, allow](const Candidate& c) { return accuracy(backend, c, tol, allow); });
  char text[64];
  std::snprintf(text, sizeof text, "accuracy:%g", tol);
  return PreparedOracle{std::move(oracle), text, 0, {}};
}

Result<PreparedOracle> mismatchOracle(const PredicateSpec& spec, const Original& o) {
  const Backend& backend = o.backend;
  std::string op = spec.arg, seen;
  if (op.empty()) {
    const WorkerResult r = observe([&] { return mismatch(backend, o.candidate, ""); }, o.ctx);
    if (r.end != WorkerEnd::Answered || !r.verdict.fails) return o.doesNot("show a meta mismatch", r);
    op = r.verdict.what;
    seen = "a meta mismatch originates at an " + op + " node";
  }
  Oracle oracle([&backend, op](const Candidate& c) { return mismatch(backend, c, op); });
  return PreparedOracle{std::move(oracle), "mismatch:" + op, 0, seen};
}

Result<PreparedOracle> guardOracle(const Original& o) {
  if (!o.ctx.dump || !o.ctx.dump->shapeEnv)
    return invalidInput("--predicate guard needs a dump with symbols and guards (a trace with --dynamic)");
  FATHOM_TRY(o.checkIsolated(PredicateKind::Guard));
  std::shared_ptr<sym::ShapeEnv> env = o.ctx.dump->shapeEnv;
  const WorkerResult r = observe([&] { return guard(*env, o.candidate); }, o.ctx);
  if (r.end != WorkerEnd::Answered || !r.verdict.fails) return o.doesNot("fail a guard or add a late one", r);
  Oracle oracle([env](const Candidate& c) { return guard(*env, c); });
  return PreparedOracle{std::move(oracle), "guard", 0, r.verdict.what};
}

// script and torch: each candidate is written as a dump (named by the worker's process id, so
// parallel workers do not share a file) for the command, or as a PyTorch script.
Result<PreparedOracle> fileOracle(const PredicateSpec& spec, const Original& o) {
  if (!o.ctx.dump) return internalError("script and torch predicates need the original dump");
  auto counter = std::make_shared<size_t>(0);
  const Dump* dump = o.ctx.dump;
  const std::string dir = o.ctx.workDir, name = o.ctx.graphName, command = spec.arg;
  auto pathFor = [=](const std::string& suffix) {
    const std::string file = "candidate-" + std::to_string(::getpid()) + "-" + std::to_string((*counter)++) + suffix;
    return (std::filesystem::path(dir) / file).string();
  };
  if (spec.kind == PredicateKind::Torch) {
    const std::string kind = spec.arg.empty() ? "exception" : spec.arg.substr(0, spec.arg.find(':'));
    std::string op = kind == "meta" && spec.arg.size() > 5 ? spec.arg.substr(5) : "";
    auto probeFor = [=](const std::string& wantOp) {
      return [=](const Candidate& c) { return runInPyTorch(candidateDump(c, *dump, name), name, kind, wantOp, pathFor(".py")); };
    };
    const WorkerResult r = observe([&] { return probeFor(op)(o.candidate); }, o.ctx);
    if (r.end != WorkerEnd::Answered || !r.verdict.fails) return o.doesNot("fail in PyTorch (" + kind + ")", r);
    if (kind == "meta" && op.empty()) op = reportedOp(r.verdict.what);  // the original's first meta bug
    return PreparedOracle{Oracle(probeFor(op)), "torch:" + kind + (op.empty() ? "" : ":" + op), 0, r.verdict.what};
  }
  Oracle oracle([=](const Candidate& c) {
    const std::string path = pathFor(".fathom.json");
    if (auto s = saveDump(candidateDump(c, *dump, name), path); !s.ok()) return Verdict{false, "could not write the candidate: " + s.error().str()};
    Verdict v = runScript(command, path);
    std::error_code ec;
    for (const auto& f : {path, sideFileOf(path)}) std::filesystem::remove(f, ec);
    return v;
  });
  return PreparedOracle{std::move(oracle), "script:" + spec.arg, 0, {}};
}

// A plugin's predicate (CustomPredicates.h): spec.arg is "NAME[:ARG]"; its check runs with the
// run's backend. One that may crash or hang asks for workers.
Result<PreparedOracle> pluginOracle(const PredicateSpec& spec, const Original& o) {
  const auto colon = spec.arg.find(':');
  const CustomPredicate* p = findCustomPredicate(std::string_view(spec.arg).substr(0, colon));
  if (!p) return invalidInput("--predicate " + spec.arg + ": no plugin registered it");
  if (p->needsWorkers && !o.ctx.isolate) return invalidInput("--predicate " + p->name + " needs worker subprocesses (not --in-process)");
  const std::string arg = colon == std::string::npos ? "" : spec.arg.substr(colon + 1);
  const Backend& backend = o.backend;
  Oracle oracle([p, arg, &backend](const Candidate& c) { return p->check(c, backend, arg); });
  return PreparedOracle{std::move(oracle), spec.arg, 0, {}};
}

// The argument `spec.arg` checked for its kind ("" when fine, else why not); `hasArg`: the
// text had a ':'.
std::string argumentProblem(const PredicateSpec& spec, bool hasArg) {
  switch (spec.kind) {
    case PredicateKind::Exception:
      if (spec.arg.empty()) return "";
      try {
        std::regex re(spec.arg);
      } catch (const std::regex_error& e) {
        return "'" + spec.arg + "' is not a regular expression (" + e.what() + ")";
      }
      return "";
    case PredicateKind::Crash: return hasArg && !parseSignal(spec.arg) ? "'" + spec.arg + "' is not a signal (SIGSEGV, SEGV or 11)" : "";
    case PredicateKind::Timeout: return !parsePositive(spec.arg) ? "timeout:SECONDS needs a positive number of seconds" : "";
    case PredicateKind::Accuracy:
      return hasArg && spec.arg != "kernels" && !parsePositive(spec.arg) ? "accuracy:TOL needs a positive tolerance (or accuracy:kernels)" : "";
    case PredicateKind::Mismatch: return hasArg && spec.arg.empty() ? "mismatch:OP needs an op name (aten.t.default)" : "";
    case PredicateKind::Guard: return hasArg ? "guard takes no argument" : "";
    case PredicateKind::Script: return spec.arg.empty() ? "script:CMD needs a command" : "";
    case PredicateKind::Plugin: return "";
    case PredicateKind::Torch:
      return hasArg && spec.arg != "exception" && spec.arg != "meta" && spec.arg.rfind("meta:", 0) != 0
                 ? "torch:KIND takes exception, meta or meta:OP"
                 : "";
  }
  return "";
}

}  // namespace

Result<PredicateSpec> parsePredicate(const std::string& text) {
  const auto colon = text.find(':');
  const auto kind = parsePredicateKind(std::string_view(text).substr(0, colon));
  if (!kind && findCustomPredicate(std::string_view(text).substr(0, colon))) return PredicateSpec{PredicateKind::Plugin, text};
  if (!kind) {
    std::string plugins;
    for (const auto& p : customPredicates()) plugins += ", " + p.name + "[:ARG]";
    return invalidInput("--predicate must be " + std::string(predicateKinds()) + plugins + ", not '" + text + "'");
  }
  PredicateSpec spec{*kind, colon == std::string::npos ? "" : text.substr(colon + 1)};
  if (auto why = argumentProblem(spec, colon != std::string::npos); !why.empty()) return invalidInput("--predicate " + text + ": " + why);
  return spec;
}

bool needsWorkers(const PredicateSpec& spec) {
  if (spec.kind != PredicateKind::Plugin) return predicateKindInfo(spec.kind).needsWorkers;
  const CustomPredicate* p = findCustomPredicate(std::string_view(spec.arg).substr(0, spec.arg.find(':')));
  return p && p->needsWorkers;
}

Dump candidateDump(const Candidate& c, const Dump& original, const std::string& graphName) {
  Dump d;
  d.producer = original.producer;
  d.producer.emplace_back("minified", "true");
  d.shapeEnv = original.shapeEnv;  // symbolic sizes in the candidate are over these symbols
  d.graphs.push_back({graphName, c.graph});
  d.inputs.emplace_back(graphName, c.inputs);
  return d;
}

Result<PreparedOracle> makeOracle(const PredicateSpec& spec, const Graph& graph, const std::vector<ExampleInput>& inputs,
                                  const OracleContext& ctx) {
  const Candidate original{graph, inputs};
  const Original o{original, backendOf(ctx), ctx};
  switch (spec.kind) {
    case PredicateKind::Exception: return exceptionOracle(spec, o);
    case PredicateKind::Crash:
    case PredicateKind::Timeout: return workerEndOracle(spec, o);
    case PredicateKind::Accuracy: return accuracyOracle(spec, o);
    case PredicateKind::Mismatch: return mismatchOracle(spec, o);
    case PredicateKind::Guard: return guardOracle(o);
    case PredicateKind::Script:
    case PredicateKind::Torch: return fileOracle(spec, o);
    case PredicateKind::Plugin: return pluginOracle(spec, o);
  }
  return internalError("unknown predicate kind");
}

}  // namespace fathom::minify
