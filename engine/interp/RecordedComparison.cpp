#include "engine/interp/RecordedComparison.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "engine/core/Error.h"
#include "engine/graph/Downstream.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "engine/interp/RandomOps.h"

namespace fathom {
namespace {

// The node a graph output comes from, or null (a constant or a None).
const Node* outputSource(const Graph& graph, size_t i) {
  const Node* out = graph.outputNode();
  const auto* returned = out && !out->args.empty() ? out->args[0].tryAs<ValueList>() : nullptr;
  const auto* ref = returned && i < returned->size() ? (*returned)[i].tryAs<NodeRef>() : nullptr;
  return ref ? &graph.node(*ref) : nullptr;
}

// The max_pool2d/3d_with_indices node whose indices `n` picks (getitem(pool, 1)), or null.
const Node* maxPoolOfIndices(const Graph& graph, const Node* n) {
  if (!n || n->target != "getitem" || n->args.size() < 2) return nullptr;
  const auto* index = n->args[1].tryAs<SymInt>();
  const auto* pool = n->args[0].tryAs<NodeRef>();
  if (!index || index->isSymbolic() || index->hint() != 1 || !pool) return nullptr;
  const Node& p = graph.node(*pool);
  const bool isMaxPool =
      p.target == "aten.max_pool2d_with_indices.default" || p.target == "aten.max_pool3d_with_indices.default";
  return isMaxPool ? &p : nullptr;
}

// Spatial dims of a max pool: 3 for max_pool3d_with_indices, else 2.
size_t poolDims(const Node& pool) { return pool.target == "aten.max_pool3d_with_indices.default" ? 3 : 2; }

// Runs the graph and keeps the values of `wanted` nodes only.
class CapturingInterpreter : public Interpreter {
 public:
  CapturingInterpreter(const Graph& g, std::unordered_set<int32_t> wanted) : Interpreter(g), wanted_(std::move(wanted)) {}
  std::vector<std::pair<int32_t, Value>> captured;

 protected:
  Result<Value> runNode(const Node& node) override {
    auto v = Interpreter::runNode(node);
    const auto index = static_cast<int32_t>(&node - graph().nodes().data());
    if (v.ok() && wanted_.count(index)) captured.emplace_back(index, *v);
    return v;
  }

 private:
  std::unordered_set<int32_t> wanted_;
};

IntList intsAt(const Node& n, size_t pos, IntList fallback) {
  if (pos >= n.args.size()) return fallback;
  try {
    IntList l = toIntList(n.args[pos]);
    return l.empty() ? fallback : l;
  } catch (const OpError&) {
    return fallback;
  }
}

// Whether the input element `index` (its position in a plane of spatial sizes `in`) lies in the
// window of output position `at` (spatial coordinates) of `pool`.
bool inWindow(const Node& pool, int64_t index, const IntList& in, const IntList& at) {
  const size_t n = in.size();
  const auto perDim = [&](size_t pos, const IntList& fallback) {
    IntList v = intsAt(pool, pos, fallback);
    if (v.size() == 1) v.assign(n, v[0]);
    return v;
  };
  const IntList k = perDim(1, {1}), s = perDim(2, k), p = perDim(3, {0}), d = perDim(4, {1});
  if (k.size() != n || s.size() != n || p.size() != n || d.size() != n) return false;
  for (size_t i = n; i-- > 0;) {
    const int64_t offset = index % in[i] - (at[i] * s[i] - p[i]);
    index /= in[i];
    if (offset < 0 || offset % d[i] != 0 || offset / d[i] >= k[i]) return false;
  }
  return true;
}

// max-index: each index where Fathom and the recording differ must point, in Fathom's own pool
// input `x`, at an element of its window as large as Fathom's choice (within tol of x's scale).
void judgeMaxIndices(OutputVerdict& v, const Node& pool, const Tensor& x, const Tensor& got, const Tensor& want, double tol) {
  const size_t n = poolDims(pool);
  const IntList& os = got.sizes();
  const IntList& xs = x.sizes();
  if (os.size() < n || xs.size() < n) {
    v.ok = false;
    v.note = "the pool's input or indices have fewer dims than its window";
    return;
  }
  const IntList out(os.end() - static_cast<std::ptrdiff_t>(n), os.end()), in(xs.end() - static_cast<std::ptrdiff_t>(n), xs.end());
  int64_t outPlane = 1, inPlane = 1;
  for (size_t i = 0; i < n; ++i) outPlane *= out[i], inPlane *= in[i];
  double scale = 0;
  for (int64_t i = 0; i < x.numel(); ++i) scale = std::max(scale, std::abs(x.atLinear(i)));
  for (int64_t i = 0; i < got.numel(); ++i) {
    const auto a = static_cast<int64_t>(got.atLinear(i)), b = static_cast<int64_t>(want.atLinear(i));
    if (a == b) continue;
    ++v.indicesDiffering;
    const int64_t plane = i / outPlane;
    IntList at(n);
    for (int64_t d = static_cast<int64_t>(n) - 1, r = i % outPlane; d >= 0; --d) at[d] = r % out[d], r /= out[d];
    const bool inRange = b >= 0 && b < inPlane;
    const double xa = x.atLinear(plane * inPlane + a), xb = inRange ? x.atLinear(plane * inPlane + b) : NAN;
    if (!inRange || !inWindow(pool, b, in, at) || !(xb >= xa - tol * scale)) {
      v.ok = false;
      v.note = "index " + std::to_string(i) + ": PyTorch's " + std::to_string(b) + " is not a maximum of its window (" +
               std::to_string(xb) + " against Fathom's " + std::to_string(xa) + " at " + std::to_string(a) + ")";
      return;
    }
  }
  v.ok = true;
}

struct Pending {
  size_t verdict;  // index into the verdicts
  Tensor got, want;
};

// Which nodes an opaque node (an op this build does not know, run as zeros) feeds: their values
// are not real, in the float64 run either, so only the strict comparison means anything.
std::vector<char> dependsOnOpaque(const Graph& graph) {
  return downstreamOf(graph, [](const Node& n) { return n.opaque; });
}

bool layoutMatches(const ValueDiff& d) { return d.dtypeMatch && d.sizesMatch && d.stridesMatch; }

// allclose / fp64 for the float outputs, with one float64 run of the whole graph.
void judgeFloats(const Graph& graph, const std::vector<ExampleInput>& inputs, std::vector<OutputVerdict>& verdicts,
                 const std::vector<Pending>& floats, double tol) {
  const Graph wide = withFloat64DtypeArgs(graph);
  Result<ValueList> reference = materializeInputs(inputs);
  if (reference.ok()) reference = widenedToFloat64(*reference);
  if (reference.ok()) reference = Interpreter(wide).run(std::move(*reference));
  for (const auto& p : floats) {
    OutputVerdict& v = verdicts[p.verdict];
    const Tensor* fp64 = reference.ok() && v.index < reference->size() ? (*reference)[v.index].tryAs<Tensor>() : nullptr;
    if (!fp64 || fp64->sizes() != p.want.sizes()) {
      v.note = "no float64 run (" + (reference.ok() ? std::string("its output differs in size") : reference.error().str()) +
               "): allclose only";
      v.accuracy = judgeAccuracy(p.got, p.want, p.want, tol);
    } else {
      v.accuracy = judgeAccuracy(p.got, p.want, *fp64, tol);
    }
    v.rule = v.accuracy.allclose ? OutputRule::Allclose : OutputRule::Float64;
    v.ok = v.accuracy.ok && layoutMatches(v.diff);
  }
}

// max-index for the pooling indices that differ, with one run that keeps the pools' inputs.
void judgeIndices(const Graph& graph, const std::vector<ExampleInput>& inputs, std::vector<OutputVerdict>& verdicts,
                  const std::vector<std::pair<Pending, const Node*>>& indices, double tol) {
  std::unordered_set<int32_t> wanted;
  for (const auto& [p, pool] : indices) wanted.insert(pool->args[0].as<NodeRef>().index);
  CapturingInterpreter run(graph, wanted);
  Status ran;
  if (auto fresh = materializeInputs(inputs); !fresh.ok()) ran = fresh.error();
  else if (auto r = run.run(std::move(*fresh)); !r.ok()) ran = r.error();
  for (const auto& [p, pool] : indices) {
    OutputVerdict& v = verdicts[p.verdict];
    const int32_t input = pool->args[0].as<NodeRef>().index;
    auto it = std::find_if(run.captured.begin(), run.captured.end(), [&](const auto& c) { return c.first == input; });
    const Tensor* x = it != run.captured.end() ? it->second.tryAs<Tensor>() : nullptr;
    if (!x) {
      v.ok = false;
      v.note = "the pool's input could not be computed again" + (ran.ok() ? std::string() : ": " + ran.error().str());
      continue;
    }
    judgeMaxIndices(v, *pool, *x, p.got, p.want, tol);
    v.ok = v.ok && layoutMatches(v.diff);
  }
}

}  // namespace

Result<std::vector<OutputVerdict>> judgeRecorded(const Graph& graph, const std::vector<ExampleInput>& inputs,
                                                 const ValueList& outputs,
                                                 const std::vector<std::optional<ExampleInput>>& recorded,
                                                 const RecordedOptions& options) {
  const std::vector<char> random = dependsOnRandom(graph), opaque = dependsOnOpaque(graph);
  std::vector<OutputVerdict> verdicts;
  std::vector<Pending> floats;
  std::vector<std::pair<Pending, const Node*>> indices;
  for (size_t i = 0; i < recorded.size() && i < outputs.size(); ++i) {
    if (!recorded[i]) continue;  // a non-tensor output: nothing recorded to compare
    auto want = materializeInput(*recorded[i]);
    if (!want.ok()) return want.error().within("recorded output " + std::to_string(i));
    OutputVerdict v;
    v.index = i;
    v.name = recorded[i]->name;
    v.diff = diffValues(outputs[i], Value(*want), options.rtol, options.atol);
    const Node* source = outputSource(graph, i);
    const auto* got = outputs[i].tryAs<Tensor>();
    const bool layout = layoutMatches(v.diff);
    if (source && random[static_cast<size_t>(source - graph.nodes().data())]) {
      v.rule = OutputRule::Random;
      v.ok = layout;
    } else if (source && opaque[static_cast<size_t>(source - graph.nodes().data())]) {
      v.rule = OutputRule::Strict;
      v.ok = v.diff.ok && layout;
      v.note = "computed from an opaque node's stand-in zeros";
    } else if (options.strict || !got || !got->defined() || !v.diff.sizesMatch) {
      v.rule = options.strict ? OutputRule::Strict : OutputRule::Exact;
      v.ok = v.diff.ok && layout;
    } else if (isFloating(got->dtype())) {
      floats.push_back({verdicts.size(), *got, *want});
    } else if (const Node* pool = maxPoolOfIndices(graph, source); pool && v.diff.maxAbsDiff != 0) {
      v.rule = OutputRule::MaxIndex;
      indices.push_back({{verdicts.size(), *got, *want}, pool});
    } else {
      v.rule = OutputRule::Exact;
      v.ok = layout && v.diff.maxAbsDiff == 0;
    }
    verdicts.push_back(std::move(v));
  }
  if (!floats.empty()) judgeFloats(graph, inputs, verdicts, floats, options.tol);
  if (!indices.empty()) judgeIndices(graph, inputs, verdicts, indices, options.tol);
  return verdicts;
}

const char* outputRuleName(OutputRule rule) {
  switch (rule) {
    case OutputRule::Random: return "random";
    case OutputRule::Strict: return "strict";
    case OutputRule::Allclose: return "allclose";
    case OutputRule::Float64: return "fp64";
    case OutputRule::Exact: return "exact";
    case OutputRule::MaxIndex: return "max-index";
  }
  return "?";
}

}  // namespace fathom
