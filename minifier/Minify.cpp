#include "minifier/Minify.h"

#include <algorithm>
#include <map>
#include <optional>

#include "engine/aot/GraphExtract.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"

namespace fathom::minify {
namespace {

// A cut of the original graph: its inputs (node indices, ascending) and returned values.
struct Cut {
  std::vector<int32_t> inputs;
  ValueList outputs;
};

// The smallest failing cut so far and its candidate, built once.
struct Best {
  Cut cut;
  Candidate candidate;
};

// The example input standing for a call node cut into an input: its real value, inline.
ExampleInput inputFromValue(const Node& node, const Tensor& t) {
  ExampleInput in;
  in.name = node.name;
  in.meta = t.meta();
  in.data.reserve(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) in.data.push_back(t.atLinear(i));
  return in;
}

class Minifier {
 public:
  Minifier(const Graph& g, const std::vector<ExampleInput>& inputs, const Oracle& oracle, const MinifyOptions& options)
      : graph_(g), oracle_(oracle), options_(options) {
    const auto ph = g.placeholders();
    for (size_t i = 0; i < ph.size() && i < inputs.size(); ++i) placeholderInputs_[ph[i].index] = inputs[i];
  }

  Status computeRealValues(const std::vector<ExampleInput>& inputs) {
    auto tensors = materializeInputs(inputs);
    FATHOM_TRY(tensors);
    Interpreter interp(graph_, InterpreterOptions{true});
    FATHOM_TRY(interp.start(std::move(*tensors)));
    while (!interp.done()) {
      const size_t at = interp.cursor();
      if (!interp.step().ok()) break;  // the failure itself may be an error: values up to it
      real_.resize(at + 1);
      real_[at] = interp.value(NodeRef{static_cast<int32_t>(at)});
    }
    real_.resize(graph_.size());
    return {};
  }

  // The candidate of a cut, or nothing when it cannot be built (an input without a real value).
  std::optional<Candidate> build(const Cut& cut) const {
    std::vector<NodeRef> refs;
    Candidate c;
    for (int32_t i : cut.inputs) {
      refs.push_back(NodeRef{i});
      const Node& n = graph_.nodes()[static_cast<size_t>(i)];
      if (auto it = placeholderInputs_.find(i); it != placeholderInputs_.end()) {
        c.inputs.push_back(it->second);
        continue;
      }
      const auto* t = real_[static_cast<size_t>(i)].tryAs<Tensor>();
      if (!t || !t->defined()) return std::nullopt;  // only tensors can become inputs
      c.inputs.push_back(inputFromValue(n, *t));
    }
    auto g = aot::extractGraph(graph_, refs, cut.outputs, "candidate");
    if (!g.ok()) return std::nullopt;
    c.graph = std::move(*g);
    // Inputs nothing reads are dropped (with their example inputs).
    return dropUnusedInputs(std::move(c));
  }

  // The oracle's answer for a cut (cached); `built` is its candidate when the caller has it.
  bool fails(const Cut& cut, const std::optional<Candidate>* built = nullptr) {
    const std::string key = keyOf(cut);
    if (auto it = cache_.find(key); it != cache_.end()) {
      ++stats_.cacheHits;
      return it->second;
    }
    std::optional<Candidate> own;
    if (!built) {
      own = build(cut);
      built = &own;
    }
    bool answer = false;
    if (*built) {
      ++stats_.queries;
      answer = oracle_(**built);
      if (options_.onQuery) options_.onQuery(stats_, pass_);
    }
    cache_[key] = answer;
    return answer;
  }

  // `c` as the new best, when it still fails (and, with mustShrink, is smaller): each candidate
  // is built once, for its size and for the oracle.
  bool tryReplace(Best& best, Cut c, bool mustShrink) {
    std::optional<Candidate> built = build(c);
    if (mustShrink && (!built || built->graph.size() >= best.candidate.graph.size())) return false;
    if (!fails(c, &built)) return false;
    best = Best{std::move(c), std::move(*built)};
    return true;
  }

  // The call nodes the best candidate computes (not inputs), in graph order, as original nodes.
  std::vector<int32_t> computed(const Best& best) const {
    std::vector<int32_t> out;
    for (const auto& n : best.candidate.graph.nodes())
      if (n.kind == NodeKind::Call)
        if (auto r = graph_.find(n.name)) out.push_back(r->index);
    return out;
  }

  // Truncate suffix: the earliest node whose value alone, returned, still fails.
  bool truncateSuffix(Best& best) {
    const auto nodes = computed(best);
    // Monotone in the common case (a failure at node k shows in any suffix cut after it):
    // binary search, then the answer is re-verified by fails() itself.
    size_t lo = 0, hi = nodes.size();
    std::optional<size_t> found;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      Cut c{allPlaceholders(), {Value(NodeRef{nodes[mid]})}};
      if (fails(c)) {
        found = mid;
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    if (!found) return false;
    Cut c{allPlaceholders(), {Value(NodeRef{nodes[*found]})}};
    auto built = build(c);  // known to fail: the search asked
    if (!built || built->graph.size() >= best.candidate.graph.size()) return false;
    best = Best{std::move(c), std::move(*built)};
    return true;
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
        for (int32_t a : operands) {
          Cut c = best.cut;
          c.outputs[i] = Value(NodeRef{a});
          if (tryReplace(best, std::move(c), true)) {
            improved = moved = true;
            break;
          }
        }
      }
    }
    return improved;
  }

  // Remove outputs: drop chunks of outputs (ddmin-style halving), keeping at least one.
  bool removeOutputs(Best& best) {
    bool improved = false;
    for (size_t chunk = std::max<size_t>(best.cut.outputs.size() / 2, 1); chunk >= 1; chunk /= 2) {
      for (size_t start = 0; start < best.cut.outputs.size() && best.cut.outputs.size() > 1;) {
        Cut c = best.cut;
        const size_t end = std::min(start + chunk, c.outputs.size());
        if (end - start >= c.outputs.size()) break;
        c.outputs.erase(c.outputs.begin() + static_cast<std::ptrdiff_t>(start), c.outputs.begin() + static_cast<std::ptrdiff_t>(end));
        if (tryReplace(best, std::move(c), false)) improved = true;
        else start = end;
      }
      if (chunk == 1) break;
    }
    return improved;
  }

  // Nodes -> inputs: cut chunks of computed nodes into inputs (their upstream drops out),
  // latest first; after a success the same chunk size is tried again on the smaller candidate,
  // and halving down to single nodes makes the result 1-minimal.
  bool nodesToInputs(Best& best) {
    bool improved = false;
    size_t chunk = std::max<size_t>(computed(best).size() / 2, 1);
    for (;;) {
      auto nodes = computed(best);
      std::reverse(nodes.begin(), nodes.end());
      bool progress = false;
      for (size_t start = 0; start < nodes.size() && !progress; start += chunk) {
        Cut c = best.cut;
        for (size_t k = start; k < std::min(start + chunk, nodes.size()); ++k) c.inputs.push_back(nodes[k]);
        std::sort(c.inputs.begin(), c.inputs.end());
        c.inputs.erase(std::unique(c.inputs.begin(), c.inputs.end()), c.inputs.end());
        if (tryReplace(best, std::move(c), true)) improved = progress = true;
      }
      if (progress) continue;
      if (chunk == 1) break;
      chunk /= 2;
    }
    return improved;
  }

  Result<MinifyResult> run() {
    Cut start{allPlaceholders(), originalOutputs()};
    stats_.startNodes = graph_.size();
    std::optional<Candidate> original = build(start);
    if (!fails(start, &original)) return invalidInput("the graph does not fail as the oracle asks: nothing to minify");
    Best best{std::move(start), std::move(*original)};
    struct Pass {
      const char* name;
      bool (Minifier::*fn)(Best&);
    };
    const Pass passes[] = {{"truncate suffix", &Minifier::truncateSuffix},
                           {"remove outputs", &Minifier::removeOutputs},
                           {"output to its operands", &Minifier::outputToOperands},
                           {"nodes to inputs", &Minifier::nodesToInputs}};
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& p : passes) {
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
    return MinifyResult{std::move(best.candidate), stats_};
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
    return key;
  }

  const Graph& graph_;
  const Oracle& oracle_;
  const MinifyOptions& options_;
  const char* pass_ = "checking the original";
  std::map<int32_t, ExampleInput> placeholderInputs_;
  std::vector<Value> real_;
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
