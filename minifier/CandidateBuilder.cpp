#include "minifier/CandidateBuilder.h"

#include <functional>

#include "engine/aot/GraphExtract.h"
#include "engine/graph/GraphGuards.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"
#include "minifier/Spill.h"

namespace fathom::minify {
namespace {

// The candidate without the inputs nothing reads (and their example inputs).
Candidate dropUnusedInputs(Candidate c) {
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

}  // namespace

CandidateBuilder::CandidateBuilder(const Graph& graph, const std::vector<ExampleInput>& inputs, const MinifyOptions& options)
    : graph_(graph), options_(options), originalInputs_(inputs) {
  if (options.shapeEnv)
    if (auto guards = guardSetOf(graph, *options.shapeEnv); guards.ok()) originalGuards_ = std::make_shared<sym::GuardSet>(std::move(*guards));
  const auto ph = graph.placeholders();
  for (size_t i = 0; i < ph.size() && i < inputs.size(); ++i) placeholderInputs_[ph[i].index] = inputs[i];
}

Status CandidateBuilder::computeRealValues() {
  auto tensors = materializeInputs(originalInputs_);
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

const ExampleInput* CandidateBuilder::realValue(int32_t index) const {
  if (placeholderInputs_.count(index) || !hasRealValue(index)) return nullptr;
  return &*real_[static_cast<size_t>(index)];
}

void CandidateBuilder::setRealValue(int32_t index, ExampleInput value) {
  if (index < 0 || static_cast<size_t>(index) >= graph_.size()) return;
  real_.resize(graph_.size());
  real_[static_cast<size_t>(index)] = std::move(value);
}

std::optional<Candidate> CandidateBuilder::build(const Cut& cut) const {
  std::vector<NodeRef> refs;
  Candidate c;
  for (int32_t i : cut.inputs) {
    refs.push_back(NodeRef{i});
    if (auto it = placeholderInputs_.find(i); it != placeholderInputs_.end()) {
      c.inputs.push_back(it->second);
      continue;
    }
    if (!hasRealValue(i)) return std::nullopt;
    c.inputs.push_back(*real_[static_cast<size_t>(i)]);
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

Cut CandidateBuilder::wholeGraph() const {
  Cut whole;
  for (NodeRef r : graph_.placeholders()) whole.inputs.push_back(r.index);
  const Node* out = graph_.outputNode();
  if (!out || out->args.empty()) return whole;
  if (auto* l = out->args[0].tryAs<ValueList>()) whole.outputs = *l;
  else whole.outputs = {out->args[0]};
  return whole;
}

// The original graph with the cut's constants and merged inputs applied.
Graph CandidateBuilder::rewritten(const Cut& cut) const {
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
bool CandidateBuilder::resize(Candidate& c, const std::map<std::string, int64_t>& sizes) const {
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
bool CandidateBuilder::guardsAllow(const std::map<std::string, int64_t>& binding) const {
  if (!originalGuards_) return true;
  std::string key;
  for (const auto& [name, v] : binding) key += name + "=" + std::to_string(v) + ",";
  if (auto it = guardAnswers_.find(key); it != guardAnswers_.end()) return it->second;
  auto resized = resizeInputs(graph_, originalInputs_, binding);
  return guardAnswers_[key] = resized.ok() && originalGuards_->check(inputSizes(*resized));
}

}  // namespace fathom::minify
