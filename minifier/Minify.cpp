#include "minifier/Minify.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "engine/aot/GraphExtract.h"
#include "engine/cache/ShapeTracing.h"
#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "minifier/Spill.h"
#include "minifier/Worker.h"

namespace fathom::minify {
namespace {

// A cut of the original graph: its inputs (node indices, ascending) and returned values.
// A cut of the original graph: its inputs (node indices, ascending) and returned values, plus
// what the shrinking passes changed: symbols rebound to smaller sizes, scalar arguments made
// simpler, and inputs merged into an identical earlier one.
struct Cut {
  std::vector<int32_t> inputs;
  ValueList outputs;
  std::map<std::string, int64_t> sizes;                   // symbol name -> value
  std::map<std::pair<int32_t, size_t>, double> constants;  // (node, argument) -> value
  std::map<int32_t, int32_t> merged;                       // input node -> the input it reads instead
};

// The smallest failing cut so far and its candidate, built once.
struct Best {
  Cut cut;
  Candidate candidate;
};

class Minifier {
 public:
  Minifier(const Graph& g, const std::vector<ExampleInput>& inputs, const Oracle& oracle, const MinifyOptions& options)
      : graph_(g), oracle_(oracle), options_(options), originalInputs_(inputs) {
    if (options.shapeEnv)
      if (auto guards = guardSetOf(g, *options.shapeEnv); guards.ok()) originalGuards_ = std::make_shared<sym::GuardSet>(std::move(*guards));
    const auto ph = g.placeholders();
    for (size_t i = 0; i < ph.size() && i < inputs.size(); ++i) placeholderInputs_[ph[i].index] = inputs[i];
  }

  // The real value of every call node, as the example input it becomes when cut into one
  // (large ones spilled to disk). The original runs once, eagerly; a node it cannot run (the
  // failure itself may be an error) and everything after it have none.
  Status computeRealValues(const std::vector<ExampleInput>& inputs) {
    auto tensors = materializeInputs(inputs);
    FATHOM_TRY(tensors);
    ValueSpill spill(options_.spillFile, options_.spillBytes);
    Interpreter interp(graph_, InterpreterOptions{true});
    FATHOM_TRY(interp.start(std::move(*tensors)));
    real_.resize(graph_.size());
    while (!interp.done()) {
      const size_t at = interp.cursor();
      if (!interp.step().ok()) break;
      const Node& n = graph_.nodes()[at];
      const auto* t = n.kind == NodeKind::Call ? interp.value(NodeRef{static_cast<int32_t>(at)}).tryAs<Tensor>() : nullptr;
      if (!t || !t->defined()) continue;  // only tensors can become inputs
      auto in = spill.store(n.name, *t);
      FATHOM_TRY(in);
      real_[at] = std::move(*in);
    }
    return {};
  }

  // The candidate of a cut, or nothing when it cannot be built (an input without a real value).
  std::optional<Candidate> build(const Cut& cut) const {
    std::vector<NodeRef> refs;
    Candidate c;
    for (int32_t i : cut.inputs) {
      refs.push_back(NodeRef{i});
      if (auto it = placeholderInputs_.find(i); it != placeholderInputs_.end()) {
        c.inputs.push_back(it->second);
        continue;
      }
      const auto& real = real_[static_cast<size_t>(i)];
      if (!real) return std::nullopt;
      c.inputs.push_back(*real);
    }
    std::optional<Graph> changed;
    if (!cut.constants.empty() || !cut.merged.empty()) changed = rewritten(cut);
    auto g = aot::extractGraph(changed ? *changed : graph_, refs, cut.outputs, "candidate");
    if (!g.ok()) return std::nullopt;
    c.graph = std::move(*g);
    // Inputs nothing reads are dropped (with their example inputs).
    c = dropUnusedInputs(std::move(c));
    if (!cut.sizes.empty() && !resize(c, cut.sizes)) return std::nullopt;
    return c;
  }

  // The original graph with the cut's constants and merged inputs applied.
  Graph rewritten(const Cut& cut) const {
    Graph g = graph_;
    for (const auto& [at, value] : cut.constants) g.mutableNodes()[static_cast<size_t>(at.first)].args[at.second] = Value(value);
    if (!cut.merged.empty()) {
      std::function<void(Value&)> redirect = [&](Value& v) {
        if (const auto* r = v.tryAs<NodeRef>()) {
          if (auto it = cut.merged.find(r->index); it != cut.merged.end()) v = Value(NodeRef{it->second});
        } else if (v.tryAs<ValueList>()) {
          for (auto& e : v.as<ValueList>()) redirect(e);
        }
      };
      for (Node& n : g.mutableNodes()) {
        for (auto& a : n.args) redirect(a);
        for (auto& [k, a] : n.kwargs) redirect(a);
      }
    }
    return g;
  }

  // The candidate's inputs at the rebound sizes (the other symbols keep their hints), when the
  // recorded guards allow them: a candidate no compiled entry could get is no repro.
  bool resize(Candidate& c, const std::map<std::string, int64_t>& sizes) const {
    if (!options_.shapeEnv) return false;
    std::map<std::string, int64_t> binding;
    const auto& symbols = options_.shapeEnv->symbols();
    for (size_t i = 0; i < symbols.size(); ++i) binding[symbols[i].name] = symbols[i].hint;
    for (const auto& [name, v] : sizes) binding[name] = v;
    if (!guardsAllow(binding)) return false;
    auto resized = resizeInputs(c.graph, c.inputs, binding);
    if (!resized.ok()) return false;
    c.inputs = std::move(*resized);
    return true;
  }

  // The guards are checked on the original graph's inputs at those sizes (a candidate's own
  // inputs are cut values whose sizes are expressions the guard set cannot bind).
  // Asked for every candidate built at rebound sizes, so answered once per binding.
  bool guardsAllow(const std::map<std::string, int64_t>& binding) const {
    if (!originalGuards_) return true;
    std::string key;
    for (const auto& [name, v] : binding) key += name + "=" + std::to_string(v) + ",";
    if (auto it = guardAnswers_.find(key); it != guardAnswers_.end()) return it->second;
    auto resized = resizeInputs(graph_, originalInputs_, binding);
    return guardAnswers_[key] = resized.ok() && originalGuards_->check(inputSizes(*resized));
  }

  // The cuts that still fail - and have fewer nodes than `smallerThan`, when given - in order: only
  // the first (as a one-by-one run finds it) unless `all`. Answers are cached by cut. Isolated,
  // `jobs` workers test the cuts at once (ahead of the first, speculatively).
  struct Asked {
    std::vector<size_t> failing;
    std::vector<std::optional<Candidate>> built;
  };
  Asked ask(const std::vector<Cut>& cuts, std::optional<size_t> smallerThan, bool all) {
    Asked out{{}, std::vector<std::optional<Candidate>>(cuts.size())};
    auto task = [&](size_t i) {
      WorkerTask t;
      if (auto it = cache_.find(keyOf(cuts[i])); it != cache_.end()) {
        ++stats_.cacheHits;
        t.known = it->second;
        return t;
      }
      out.built[i] = build(cuts[i]);
      if (!out.built[i] || (smallerThan && out.built[i]->graph.size() >= *smallerThan)) t.known = false;
      else t.candidate = *out.built[i];
      return t;
    };
    auto finished = [&](size_t i, const WorkerResult& r) {
      ++stats_.queries;
      cache_[keyOf(cuts[i])] = failsOn(r);
      if (options_.onQuery) options_.onQuery(stats_, pass_);
    };
    if (options_.isolate) {
      WorkerCallbacks cb{task, [&](const WorkerResult& r) { return failsOn(r); }, finished, options_.shouldStop};
      if (all) out.failing = allFailing(cuts.size(), options_.jobs, limits(), oracle_.probe, cb);
      else if (auto first = firstFailing(cuts.size(), options_.jobs, limits(), oracle_.probe, cb)) out.failing = {*first};
    } else {
      for (size_t i = 0; i < cuts.size() && (all || out.failing.empty()) && !stopRequested(); ++i) {
        WorkerTask t = task(i);
        bool fails = t.known.value_or(false);
        if (t.candidate) {
          WorkerResult r{WorkerEnd::Answered, 0, oracle_.probe(*t.candidate)};
          finished(i, r);
          fails = failsOn(r);
        }
        if (fails) out.failing.push_back(i);
      }
    }
    if (options_.shouldStop && options_.shouldStop()) stats_.stopped = true;
    for (size_t i : out.failing)
      if (!out.built[i]) out.built[i] = build(cuts[i]);  // answered from the cache
    return out;
  }

  // The first of `cuts` that still fails (and is smaller, with mustShrink) becomes the best; its
  // position, or nothing.
  std::optional<size_t> replaceWithFirstFailing(Best& best, const std::vector<Cut>& cuts, bool mustShrink, bool verify = true) {
    Asked a = ask(cuts, mustShrink ? std::optional(best.candidate.graph.size()) : std::nullopt, false);
    if (a.failing.empty() || !a.built[a.failing[0]]) return std::nullopt;
    const size_t i = a.failing[0];
    if (!(verify ? accept(best, Best{cuts[i], std::move(*a.built[i])}) : (best = Best{cuts[i], std::move(*a.built[i])}, true)))
      return std::nullopt;
    return i;
  }

  // Every candidate that becomes the best is asked once more, fresh (not from the cache): a
  // flaky answer - a timeout under load, a crash that does not always happen - must not steer
  // the rest of the run. One that fails to fail again is not taken, and its cut is remembered
  // as not failing.
  bool accept(Best& best, Best candidate) {
    const Candidate& c = candidate.candidate;
    WorkerResult r = runProbe([&] { return oracle_.probe(c); }, options_.isolate, limits());
    ++stats_.queries;
    ++stats_.verifications;
    if (options_.onQuery) options_.onQuery(stats_, pass_);
    if (!failsOn(r)) {
      ++stats_.flaky;
      cache_[keyOf(candidate.cut)] = false;
      return false;
    }
    best = std::move(candidate);
    return true;
  }

  bool failsOn(const WorkerResult& r) const {
    if (r.end == WorkerEnd::Answered) return r.verdict.fails;
    return oracle_.lostWorkerFails && oracle_.lostWorkerFails(r.end, r.signal);
  }

  // N workers share the machine's cores.
  WorkerLimits limits() const {
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    return {options_.timeoutSeconds, options_.memoryLimitMb, static_cast<int>(std::max<size_t>(cores / std::max<size_t>(options_.jobs, 1), 1))};
  }

  bool stopRequested() {
    if (options_.shouldStop && options_.shouldStop()) stats_.stopped = true;
    return stats_.stopped;
  }

  // The call nodes the best candidate computes (not inputs), in graph order, as original nodes.
  std::vector<int32_t> computed(const Best& best) const {
    std::vector<int32_t> out;
    for (const auto& n : best.candidate.graph.nodes())
      if (n.kind == NodeKind::Call)
        if (auto r = graph_.find(n.name)) out.push_back(r->index);
    return out;
  }

  // Truncate suffix: the earliest node whose value alone, returned, still fails. Monotone in the
  // common case (a failure at node k shows in any suffix cut after it): a binary search - with
  // jobs workers, a (jobs+1)-ary one, all points of a round tested at once. Only tensor-valued
  // nodes: a size computation (sym_size, operator.mul) returned alone shows nothing and would
  // break the search's monotonicity.
  bool truncateSuffix(Best& best) {
    std::vector<int32_t> nodes;
    for (int32_t i : computed(best))
      if (graph_.nodes()[static_cast<size_t>(i)].val.tryAs<TensorMeta>()) nodes.push_back(i);
    auto suffixCut = [&](size_t k) {
      Cut c = best.cut;  // the best's inputs, and what the shrinking passes changed
      c.outputs = {Value(NodeRef{nodes[k]})};
      return c;
    };
    size_t lo = 0, hi = nodes.size();
    std::optional<Best> found;
    const size_t ways = options_.isolate ? std::max<size_t>(options_.jobs, 1) : 1;
    while (lo < hi && !stopRequested()) {
      std::vector<size_t> points;
      for (size_t k = 1; k <= ways; ++k) {
        const size_t p = lo + (hi - lo) * k / (ways + 1);
        if (p < hi && (points.empty() || p > points.back())) points.push_back(p);
      }
      std::vector<Cut> cuts;
      for (size_t p : points) cuts.push_back(suffixCut(p));
      Best probe = best;
      if (auto at = replaceWithFirstFailing(probe, cuts, false, false)) {  // verified once, at the end
        found = std::move(probe);
        hi = points[*at];
        lo = *at ? points[*at - 1] + 1 : lo;
      } else {
        lo = points.back() + 1;
      }
    }
    if (!found || found->candidate.graph.size() >= best.candidate.graph.size()) return false;
    return accept(best, std::move(*found));
  }

  // Output to its operands: an output computed by a call is replaced by one of the call's
  // node arguments - the failure moves up a step. Binary search in truncateSuffix assumes the
  // failure shows in every later node, which a DAG breaks (a later node may not depend on the
  // culprit); walking up from the output finds the culprit along the path that does.
  bool outputToOperands(Best& best) {
    bool improved = false;
    for (size_t i = 0; i < best.cut.outputs.size(); ++i) {
      for (bool moved = true; moved;) {
        moved = false;
        const auto* r = best.cut.outputs[i].tryAs<NodeRef>();
        if (!r) break;
        const Node& n = graph_.nodes()[static_cast<size_t>(r->index)];
        if (n.kind != NodeKind::Call || std::binary_search(best.cut.inputs.begin(), best.cut.inputs.end(), r->index)) break;
        std::vector<int32_t> operands;
        forEachNodeRef(n, [&](NodeRef a) {
          if (std::find(operands.begin(), operands.end(), a.index) == operands.end()) operands.push_back(a.index);
        });
        std::vector<Cut> cuts;
        for (int32_t a : operands) {
          cuts.push_back(best.cut);
          cuts.back().outputs[i] = Value(NodeRef{a});
        }
        if (replaceWithFirstFailing(best, cuts, true)) improved = moved = true;
      }
    }
    return improved;
  }

  // Remove outputs: drop chunks of outputs (ddmin-style halving), keeping at least one; after a
  // success the scan goes on from the same place in the smaller list.
  bool removeOutputs(Best& best) {
    bool improved = false;
    for (size_t chunk = std::max<size_t>(best.cut.outputs.size() / 2, 1);; chunk /= 2) {
      for (size_t start = 0; start < best.cut.outputs.size() && best.cut.outputs.size() > 1 && !stopRequested();) {
        std::vector<Cut> cuts;
        for (size_t s = start; s < best.cut.outputs.size(); s += chunk) {
          Cut c = best.cut;
          const size_t end = std::min(s + chunk, c.outputs.size());
          if (end - s >= c.outputs.size()) break;
          c.outputs.erase(c.outputs.begin() + static_cast<std::ptrdiff_t>(s), c.outputs.begin() + static_cast<std::ptrdiff_t>(end));
          cuts.push_back(std::move(c));
        }
        auto at = replaceWithFirstFailing(best, cuts, false);
        if (!at) break;
        improved = true;
        start += *at * chunk;  // the next chunk moved into the removed one's place
      }
      if (chunk <= 1) break;
    }
    return improved;
  }

  // Nodes -> inputs: cut chunks of computed nodes into inputs (their upstream drops out),
  // latest first; after a success the scan starts again on the smaller candidate, and halving
  // down to single nodes makes the result 1-minimal.
  bool nodesToInputs(Best& best) {
    if (options_.isolate && options_.jobs > 1) return nodesToInputsInBatches(best);
    bool improved = false;
    for (size_t chunk = std::max<size_t>(chunkCuts(best, 1).size() / 2, 1);;) {
      if (stopRequested()) break;
      if (replaceWithFirstFailing(best, chunkCuts(best, chunk), true)) {
        improved = true;
        continue;
      }
      if (chunk == 1) break;
      chunk /= 2;
    }
    return improved;
  }

  // With jobs workers: the next `jobs` chunks run at once, and when several still fail, their
  // union (every one of those chunks cut) is tried too - a success of each worker counts,
  // instead of all but the first being thrown away. Still 1-minimal: it ends only after a
  // round of single nodes where none could go.
  bool nodesToInputsInBatches(Best& best) {
    bool improved = false;
    size_t chunk = std::max<size_t>(chunkCuts(best, 1).size() / 2, 1);
    for (size_t start = 0; !stopRequested();) {
      std::vector<Cut> cuts = chunkCuts(best, chunk);
      if (start >= cuts.size()) {
        if (chunk == 1) break;
        chunk /= 2;
        start = 0;
        continue;
      }
      std::vector<Cut> batch(cuts.begin() + static_cast<std::ptrdiff_t>(start),
                             cuts.begin() + static_cast<std::ptrdiff_t>(std::min(start + options_.jobs, cuts.size())));
      Asked a = ask(batch, best.candidate.graph.size(), true);
      if (a.failing.empty()) {
        start += batch.size();
        continue;
      }
      improved = true;
      if (a.failing.size() > 1) {
        Cut merged = best.cut;
        for (size_t i : a.failing) merged.inputs.insert(merged.inputs.end(), batch[i].inputs.begin(), batch[i].inputs.end());
        normalize(merged);
        if (replaceWithFirstFailing(best, {merged}, true)) {
          start = 0;
          continue;
        }
      }
      const size_t first = a.failing.front();
      if (a.built[first]) accept(best, Best{batch[first], std::move(*a.built[first])});
      start = 0;
    }
    return improved;
  }

  // Merge inputs: an input read in place of another with the same dtype, sizes and strides
  // (the later one goes), so a repro needs fewer values.
  bool mergeInputs(Best& best) {
    bool improved = false;
    for (bool again = true; again && !stopRequested();) {
      again = false;
      const auto ph = best.candidate.graph.placeholders();
      std::vector<Cut> cuts;
      for (size_t later = 1; later < ph.size(); ++later) {
        const auto* a = best.candidate.graph.node(ph[later]).val.tryAs<TensorMeta>();
        const auto from = graph_.find(best.candidate.graph.node(ph[later]).name);
        for (size_t earlier = 0; earlier < later && a && from; ++earlier) {
          const auto* b = best.candidate.graph.node(ph[earlier]).val.tryAs<TensorMeta>();
          const auto to = graph_.find(best.candidate.graph.node(ph[earlier]).name);
          if (!b || !to || a->str() != b->str()) continue;
          Cut c = best.cut;
          c.merged[from->index] = to->index;
          cuts.push_back(std::move(c));
        }
      }
      if (!cuts.empty() && replaceWithFirstFailing(best, cuts, false) && best.candidate.graph.placeholders().size() < ph.size())
        improved = again = true;
    }
    return improved;
  }

  // Shrink symbolic sizes: each symbol the candidate's inputs use is rebound to the smallest of
  // 2, 4, 8, ... below its value that keeps the failure and satisfies the guards.
  bool shrinkSymbols(Best& best) {
    if (!options_.shapeEnv) return false;
    std::set<int32_t> used;
    for (NodeRef r : best.candidate.graph.placeholders())
      if (const auto* m = best.candidate.graph.node(r).val.tryAs<TensorMeta>())
        for (const auto& s : m->sizes)
          for (int32_t i : sym::exprOf(s).symbols()) used.insert(i);
    bool improved = false;
    const auto& symbols = options_.shapeEnv->symbols();
    for (int32_t i : used) {
      if (i < 0 || static_cast<size_t>(i) >= symbols.size() || stopRequested()) continue;
      const auto& info = symbols[static_cast<size_t>(i)];
      const auto it = best.cut.sizes.find(info.name);
      const int64_t now = it != best.cut.sizes.end() ? it->second : info.hint;
      std::vector<Cut> cuts;
      for (int64_t v = std::max<int64_t>(2, info.range.lo); v < now; v *= 2) {
        cuts.push_back(best.cut);
        cuts.back().sizes[info.name] = v;
      }
      if (replaceWithFirstFailing(best, cuts, false)) improved = true;
    }
    return improved;
  }

  // Shrink constants: a floating scalar argument of a computed node becomes 0, else 1.
  bool shrinkConstants(Best& best) {
    bool improved = false;
    for (int32_t node : computed(best)) {
      const Node& n = graph_.nodes()[static_cast<size_t>(node)];
      for (size_t a = 0; a < n.args.size() && !stopRequested(); ++a) {
        const auto* d = n.args[a].tryAs<double>();
        const auto it = best.cut.constants.find({node, a});
        const double now = it != best.cut.constants.end() ? it->second : d ? *d : 0;
        if (!d || now == 0) continue;
        std::vector<Cut> cuts;
        for (double simpler : {0.0, 1.0}) {
          if (simpler == now) break;
          cuts.push_back(best.cut);
          cuts.back().constants[{node, a}] = simpler;
        }
        if (replaceWithFirstFailing(best, cuts, false)) improved = true;
      }
    }
    return improved;
  }

  // Each chunk of `chunk` computed nodes of the best (latest first) cut into inputs.
  // Only nodes that can become inputs: ones with a real tensor value (a multi-output node such
  // as native_layer_norm cannot, and one in a chunk would make the whole chunk unbuildable), and
  // not the cut's outputs (cutting an output leaves nothing to compute; removing outputs is the
  // other pass's job).
  std::vector<Cut> chunkCuts(const Best& best, size_t chunk) const {
    std::set<int32_t> outputs;
    for (const auto& v : best.cut.outputs)
      if (const auto* r = v.tryAs<NodeRef>()) outputs.insert(r->index);
    std::vector<int32_t> nodes;
    for (int32_t i : computed(best))
      if (real_[static_cast<size_t>(i)] && !outputs.count(i)) nodes.push_back(i);
    std::reverse(nodes.begin(), nodes.end());
    std::vector<Cut> cuts;
    for (size_t start = 0; start < nodes.size(); start += chunk) {
      Cut c = best.cut;
      for (size_t k = start; k < std::min(start + chunk, nodes.size()); ++k) c.inputs.push_back(nodes[k]);
      normalize(c);
      cuts.push_back(std::move(c));
    }
    return cuts;
  }

  static void normalize(Cut& c) {
    std::sort(c.inputs.begin(), c.inputs.end());
    c.inputs.erase(std::unique(c.inputs.begin(), c.inputs.end()), c.inputs.end());
  }

  Result<MinifyResult> run() {
    Cut start;
    start.inputs = allPlaceholders();
    start.outputs = originalOutputs();
    stats_.startNodes = graph_.size();
    std::optional<Candidate> original = build(start);
    if (!original) return internalError("the original graph could not be rebuilt as a candidate");
    // The original, checked the way every candidate is (in a worker when isolated).
    const Candidate& o = *original;
    WorkerResult r = runProbe([&] { return oracle_.probe(o); }, options_.isolate, limits());
    ++stats_.queries;
    cache_[keyOf(start)] = failsOn(r);
    if (!failsOn(r)) {
      stats_.endNodes = graph_.size();
      return MinifyResult{std::move(*original), stats_, false, r.verdict.what};
    }
    Best best{std::move(start), std::move(*original)};
    struct Pass {
      const char* name;
      bool (Minifier::*fn)(Best&);
    };
    const Pass passes[] = {{"truncate suffix", &Minifier::truncateSuffix},
                           {"remove outputs", &Minifier::removeOutputs},
                           {"output to its operands", &Minifier::outputToOperands},
                           {"nodes to inputs", &Minifier::nodesToInputs},
                           {"merge inputs", &Minifier::mergeInputs},
                           {"shrink symbolic sizes", &Minifier::shrinkSymbols},
                           {"shrink constants", &Minifier::shrinkConstants}};
    for (bool changed = true; changed && !stopRequested();) {
      changed = false;
      for (const auto& p : passes) {
        if (stopRequested()) break;
        pass_ = p.name;
        if ((this->*p.fn)(best)) {
          changed = true;
          stats_.endNodes = best.candidate.graph.size();
          if (options_.onImprove) options_.onImprove(best.candidate, stats_);
          if (std::find(stats_.passesThatHelped.begin(), stats_.passesThatHelped.end(), p.name) == stats_.passesThatHelped.end())
            stats_.passesThatHelped.push_back(p.name);
        }
      }
    }
    stats_.endNodes = best.candidate.graph.size();
    return MinifyResult{std::move(best.candidate), stats_, true, r.verdict.what};
  }

 private:
  std::vector<int32_t> allPlaceholders() const {
    std::vector<int32_t> out;
    for (NodeRef r : graph_.placeholders()) out.push_back(r.index);
    return out;
  }

  ValueList originalOutputs() const {
    const Node* out = graph_.outputNode();
    if (!out || out->args.empty()) return {};
    if (auto* l = out->args[0].tryAs<ValueList>()) return *l;
    return {out->args[0]};
  }

  static Candidate dropUnusedInputs(Candidate c) {
    const auto users = c.graph.users();
    const auto ph = c.graph.placeholders();
    std::vector<NodeRef> keep;
    std::vector<ExampleInput> inputs;
    for (size_t i = 0; i < ph.size(); ++i) {
      if (users[static_cast<size_t>(ph[i].index)].empty()) continue;
      keep.push_back(ph[i]);
      inputs.push_back(c.inputs[i]);
    }
    if (keep.size() == ph.size()) return c;
    const Node* out = c.graph.outputNode();
    auto g = aot::extractGraph(c.graph, keep, out->args[0].as<ValueList>(), "candidate");
    if (!g.ok()) return c;
    return Candidate{std::move(*g), std::move(inputs)};
  }

  static std::string keyOf(const Cut& cut) {
    std::string key;
    for (int32_t i : cut.inputs) key += std::to_string(i) + ",";
    key += "|";
    std::function<void(const Value&)> add = [&](const Value& v) {
      if (auto* r = v.tryAs<NodeRef>()) key += std::to_string(r->index) + ",";
      else if (auto* l = v.tryAs<ValueList>()) {
        key += "[";
        for (const auto& e : *l) add(e);
        key += "]";
      } else {
        key += "c,";
      }
    };
    for (const auto& v : cut.outputs) add(v);
    for (const auto& [name, v] : cut.sizes) key += "|" + name + "=" + std::to_string(v);
    for (const auto& [at, v] : cut.constants) key += "|c" + std::to_string(at.first) + "." + std::to_string(at.second) + "=" + std::to_string(v);
    for (const auto& [from, to] : cut.merged) key += "|m" + std::to_string(from) + ">" + std::to_string(to);
    return key;
  }

  const Graph& graph_;
  const Oracle& oracle_;
  const MinifyOptions& options_;
  const char* pass_ = "checking the original";
  std::vector<ExampleInput> originalInputs_;
  std::shared_ptr<sym::GuardSet> originalGuards_;
  mutable std::map<std::string, bool> guardAnswers_;  // by binding  // null: no symbols, or none the inputs bind
  std::map<int32_t, ExampleInput> placeholderInputs_;
  std::vector<std::optional<ExampleInput>> real_;  // by node index
  std::map<std::string, bool> cache_;
  MinifyStats stats_;
};

}  // namespace

Result<MinifyResult> minify(const Graph& graph, const std::vector<ExampleInput>& inputs, const Oracle& oracle,
                            const MinifyOptions& options) {
  if (graph.placeholders().size() != inputs.size())
    return invalidInput("the graph has " + std::to_string(graph.placeholders().size()) + " placeholders but " +
                        std::to_string(inputs.size()) + " inputs were given");
  Minifier m(graph, inputs, oracle, options);
  FATHOM_TRY(m.computeRealValues(inputs));
  return m.run();
}

}  // namespace fathom::minify
