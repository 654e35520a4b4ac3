#include "minifier/PassContext.h"

#include <algorithm>
#include <set>
#include <thread>

#include "minifier/WireTask.h"

namespace fathom::minify {

PassContext::PassContext(const Graph& graph, const std::vector<ExampleInput>& inputs, const Oracle& oracle, const MinifyOptions& options)
    : graph_(graph), oracle_(oracle), options_(options), builder_(graph, inputs, options) {}

Result<Verdict> PassContext::askOriginal() {
  Cut start = builder_.wholeGraph();
  stats_.startNodes = graph_.size();
  std::optional<Candidate> original = builder_.build(start);
  if (!original) return internalError("the original graph could not be rebuilt as a candidate");
  WorkerResult r = askOne(start, *original);
  ++stats_.queries;
  cache_[cutKey(start)] = failsOn(r);
  best_ = Best{std::move(start), std::move(*original)};
  return Verdict{failsOn(r), r.verdict.what};
}

bool PassContext::stopRequested() {
  if (options_.shouldStop && options_.shouldStop()) stats_.stopped = true;
  return stats_.stopped;
}

size_t PassContext::parallelism() const { return options_.isolate ? std::max<size_t>(options_.jobs, 1) : 1; }

PassContext::Asked PassContext::ask(const std::vector<Cut>& cuts, std::optional<size_t> smallerThan, bool all) {
  Asked out{{}, std::vector<std::optional<Candidate>>(cuts.size())};
  auto task = [&](size_t i) {
    WorkerTask t;
    if (auto it = cache_.find(cutKey(cuts[i])); it != cache_.end()) {
      ++stats_.cacheHits;
      t.known = it->second;
      return t;
    }
    out.built[i] = buildValid(cuts[i]);
    if (!out.built[i] || (smallerThan && out.built[i]->graph.size() >= *smallerThan)) {
      t.known = false;
      return t;
    }
    t.candidate = *out.built[i];
    if (options_.isolate) t.wire = wire(cuts[i]);
    return t;
  };
  auto finished = [&](size_t i, const WorkerResult& r) {
    ++stats_.queries;
    cache_[cutKey(cuts[i])] = failsOn(r);
    if (options_.onQuery) options_.onQuery(stats_, pass_);
  };
  if (options_.isolate) {
    WorkerCallbacks cb = waiting();
    cb.task = task;
    cb.fails = [&](const WorkerResult& r) { return failsOn(r); };
    cb.onFinished = finished;
    cb.shouldStop = options_.shouldStop;
    if (all) out.failing = allFailing(cuts.size(), setup(), cb);
    else if (auto first = firstFailing(cuts.size(), setup(), cb)) out.failing = {*first};
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
    if (!out.built[i]) out.built[i] = builder_.build(cuts[i]);  // answered from the cache
  return out;
}

std::optional<size_t> PassContext::replaceWithFirstFailing(Best& best, const std::vector<Cut>& cuts, bool mustShrink, bool verify) {
  Asked a = ask(cuts, mustShrink ? std::optional(best.candidate.graph.size()) : std::nullopt, false);
  if (a.failing.empty() || !a.built[a.failing[0]]) return std::nullopt;
  const size_t i = a.failing[0];
  if (!(verify ? accept(best, Best{cuts[i], std::move(*a.built[i])}) : (best = Best{cuts[i], std::move(*a.built[i])}, true)))
    return std::nullopt;
  return i;
}

bool PassContext::accept(Best& best, Best candidate) {
  WorkerResult r = askOne(candidate.cut, candidate.candidate);
  ++stats_.queries;
  ++stats_.verifications;
  if (options_.onQuery) options_.onQuery(stats_, pass_);
  if (!failsOn(r)) {
    ++stats_.flaky;
    cache_[cutKey(candidate.cut)] = false;
    return false;
  }
  best = std::move(candidate);
  return true;
}

std::vector<int32_t> PassContext::computed(const Best& best) const {
  std::vector<int32_t> out;
  for (const auto& n : best.candidate.graph.nodes())
    if (n.kind == NodeKind::Call)
      if (auto r = graph_.find(n.name)) out.push_back(r->index);
  return out;
}

// Only nodes that can become inputs: ones with a real tensor value (a multi-output node such
// as native_layer_norm cannot, and one in a chunk would make the whole chunk unbuildable), and
// not the cut's outputs (cutting an output leaves nothing to compute; removing outputs is the
// other pass's job).
std::vector<Cut> PassContext::chunkCuts(const Best& best, size_t chunk) const {
  std::set<int32_t> outputs;
  for (const auto& v : best.cut.outputs)
    if (const auto* r = v.tryAs<NodeRef>()) outputs.insert(r->index);
  std::vector<int32_t> nodes;
  for (int32_t i : computed(best))
    if (hasRealValue(i) && !outputs.count(i)) nodes.push_back(i);
  std::reverse(nodes.begin(), nodes.end());
  std::vector<Cut> cuts;
  for (size_t start = 0; start < nodes.size(); start += chunk) {
    Cut c = best.cut;
    for (size_t k = start; k < std::min(start + chunk, nodes.size()); ++k) c.inputs.push_back(nodes[k]);
    normalizeInputs(c);
    cuts.push_back(std::move(c));
  }
  return cuts;
}

// A candidate the oracle may see: built, and a well-formed graph (STYLE.md rule 9: an invalid
// candidate is skipped and counted, never fatal and never asked).
std::optional<Candidate> PassContext::buildValid(const Cut& cut) {
  std::optional<Candidate> c = builder_.build(cut);
  if (c && !c->graph.verify().ok()) {
    ++stats_.invalid;
    return std::nullopt;
  }
  return c;
}

bool PassContext::failsOn(const WorkerResult& r) const { return oracleFails(oracle_, r); }

void PassContext::startZygote() {
  if (!options_.isolate || !options_.zygote) return;
  auto warn = [this](const std::string& why) {
    if (options_.onWarning) options_.onWarning(why + "; the rest of the run forks its workers from the minifier itself (slower)");
  };
  zygote_ = Zygote::start([this](std::string_view task) { return probeWire(task); }, warn);
}

WorkerResult PassContext::askOne(const Cut& cut, const Candidate& c) {
  if (!options_.isolate) return WorkerResult{WorkerEnd::Answered, 0, oracle_.probe(c)};
  return runTask(WorkerTask{std::nullopt, c, wire(cut)}, setup(), waiting());
}

std::string PassContext::wire(const Cut& cut) const {
  if (!zygote_ || !zygote_->alive()) return {};
  return encodeWireTask(cut, [this](int32_t i) { return builder_.realValue(i); }).value_or(std::string());
}

// Runs in the zygote's worker: this copy of the context has no real values but the task's.
Verdict PassContext::probeWire(std::string_view task) {
  std::optional<WireTask> t = decodeWireTask(task);
  if (!t) return {false, "internal error: the worker zygote got a task it cannot read"};
  for (auto& [index, value] : t->values) builder_.setRealValue(index, std::move(value));
  std::optional<Candidate> c = builder_.build(t->cut);
  if (!c) return {false, "internal error: the worker zygote could not build the candidate"};
  return oracle_.probe(*c);
}

WorkerSetup PassContext::setup() const { return WorkerSetup{options_.jobs, limits(), oracle_.probe, zygote_.get()}; }

WorkerCallbacks PassContext::waiting() {
  WorkerCallbacks cb;
  if (options_.onWaiting) cb.onWaiting = [this](const InFlight& f) { options_.onWaiting(stats_, pass_, f); };
  return cb;
}

// N workers share the machine's cores.
WorkerLimits PassContext::limits() const {
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return {options_.timeoutSeconds, options_.memoryLimitMb, static_cast<int>(std::max<size_t>(cores / std::max<size_t>(options_.jobs, 1), 1))};
}

}  // namespace fathom::minify
