#include "engine/ops/infer/SamplePlan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "engine/core/Random.h"

namespace fathom::infer {
namespace {

// Memory order of a sample layout, slowest dim first.
std::vector<int64_t> memoryOrder(SampleLayout layout, size_t rank) {
  std::vector<int64_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  if (layout == SampleLayout::Transposed && rank >= 2) std::swap(order[rank - 2], order[rank - 1]);
  if (layout == SampleLayout::ChannelsLast && rank == 4) order = {0, 2, 3, 1};
  else if (layout == SampleLayout::Reversed || layout == SampleLayout::ChannelsLast) std::reverse(order.begin(), order.end());
  return order;
}

Result<Tensor> sampleTensor(const IntList& sizes, DType dtype, SampleLayout layout, RandomDraw draw, double zeros) {
  TensorMeta m;
  m.dtype = dtype;
  m.sizes.assign(sizes.begin(), sizes.end());
  m.strides.assign(sizes.size(), SymInt(1));
  int64_t next = 1;
  const auto order = memoryOrder(layout, sizes.size());
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    m.strides[static_cast<size_t>(*it)] = next;
    next *= std::max<int64_t>(sizes[static_cast<size_t>(*it)], 1);
  }
  if (layout == SampleLayout::Offset) m.storageOffset = 3;
  auto t = Tensor::fromMeta(m);
  FATHOM_TRY(t);
  // Small integers (exact in every dtype), `zeros` of them 0: values kernels branch on.
  for (int64_t i = 0; i < t->numel(); ++i) {
    const double u = draw.uniform(static_cast<uint64_t>(i));
    const double v = u < zeros ? 0.0 : 1.0 + std::floor((u - zeros) / (1.0 - zeros) * 4.0);
    t->setLinear(i, dtype == DType::Bool ? (v != 0) : (static_cast<int64_t>(u * 1e6) % 2 ? v : -v));
  }
  return t;
}

// Run r's value of variable k: distinct for every variable of a run (up to `span` of them).
int64_t runValue(int64_t base, int64_t span, int64_t r, int64_t k) { return base + (r * 3 + k * 5) % span; }

std::vector<SampleRun> runs(size_t vars, size_t inputs, int64_t base, int64_t span,
                            const std::vector<std::vector<SampleLayout>>& layoutCycles, uint64_t seed) {
  std::vector<SampleRun> out;
  for (size_t r = 0; r < layoutCycles.size(); ++r) {
    SampleRun run;
    for (size_t k = 0; k < vars; ++k) run.values.push_back(runValue(base, span, static_cast<int64_t>(r), static_cast<int64_t>(k)));
    for (size_t i = 0; i < inputs; ++i) run.layouts.push_back(layoutCycles[r][i % layoutCycles[r].size()]);
    run.seed = seed + r;
    out.push_back(std::move(run));
  }
  return out;
}

}  // namespace

std::string_view sampleLayoutName(SampleLayout l) {
  switch (l) {
    case SampleLayout::Contiguous: return "contiguous";
    case SampleLayout::Transposed: return "transposed";
    case SampleLayout::Reversed: return "reversed";
    case SampleLayout::Offset: return "offset 3";
    case SampleLayout::ChannelsLast: return "channels-last";
  }
  return "?";
}

Result<std::vector<TensorMeta>> inputMetas(const ValueList& args, const std::vector<TensorSlot>& slots) {
  std::vector<TensorMeta> out;
  for (size_t i = 0; i < slots.size(); ++i) {
    const auto& s = slots[i];
    const Value* v = s.arg < args.size() ? &args[s.arg] : nullptr;
    if (v && s.item) {
      const auto* list = v->tryAs<ValueList>();
      v = list && *s.item < list->size() ? &(*list)[*s.item] : nullptr;
    }
    if (v && v->is<TensorMeta>()) out.push_back(v->as<TensorMeta>());
    else if (v && v->is<Tensor>()) out.push_back(v->as<Tensor>().meta());
    else return invalidInput("input in" + std::to_string(i) + " (argument " + std::to_string(s.arg) +
                             (s.item ? " item " + std::to_string(*s.item) : "") + ") is not a tensor in this call");
  }
  return out;
}

Result<SamplePlan> SamplePlan::fromExample(const ValueList& exampleArgs) {
  SamplePlan p;
  p.args_ = exampleArgs;
  for (size_t a = 0; a < exampleArgs.size(); ++a) {
    if (exampleArgs[a].is<TensorMeta>()) p.slots_.push_back({a, std::nullopt});
    if (const auto* list = exampleArgs[a].tryAs<ValueList>())
      for (size_t j = 0; j < list->size(); ++j)
        if ((*list)[j].is<TensorMeta>()) p.slots_.push_back({a, j});
  }
  if (p.slots_.empty()) return invalidInput("the example call has no tensor argument (give tensors as TensorMeta)");
  auto metas = inputMetas(exampleArgs, p.slots_);
  FATHOM_TRY(metas);
  p.example_ = std::move(*metas);
  std::map<int64_t, int> varOfSize;
  for (const auto& m : p.example_) {
    std::vector<int> vars;
    for (const auto& s : m.sizes) {
      if (s.isSymbolic()) return invalidInput("the example call has a symbolic size (" + s.str() + "): give concrete sizes");
      const int64_t v = s.hint();
      vars.push_back(v <= 1 ? -1 : varOfSize.emplace(v, static_cast<int>(varOfSize.size())).first->second);
    }
    p.vars_.push_back(std::move(vars));
  }
  p.varCount_ = varOfSize.size();
  return p;
}

SampleRun SamplePlan::exampleRun() const {
  SampleRun run;
  run.values.assign(varCount_, 0);
  for (size_t i = 0; i < vars_.size(); ++i)
    for (size_t d = 0; d < vars_[i].size(); ++d)
      if (vars_[i][d] >= 0) run.values[static_cast<size_t>(vars_[i][d])] = example_[i].sizes[d].hint();
  run.layouts.assign(slots_.size(), SampleLayout::Contiguous);
  return run;
}

std::vector<SampleRun> SamplePlan::fitRuns() const {
  using L = SampleLayout;
  return runs(varCount_, slots_.size(), 2, 8,
              {{L::Contiguous}, {L::Transposed}, {L::Offset}, {L::ChannelsLast, L::Contiguous}, {L::Contiguous, L::Transposed}}, 11);
}

std::vector<SampleRun> SamplePlan::checkRuns() const {
  using L = SampleLayout;
  return runs(varCount_, slots_.size(), 10, 6, {{L::Transposed, L::Reversed}, {L::Offset, L::Transposed}}, 101);
}

SampleRun SamplePlan::redrawn(const SampleRun& run, uint64_t seed, double zeros) {
  SampleRun r = run;
  r.seed = seed;
  r.zeros = zeros;
  return r;
}

std::vector<std::vector<int64_t>> SamplePlan::inputSizes(const SampleRun& run) const {
  std::vector<std::vector<int64_t>> out;
  for (size_t i = 0; i < example_.size(); ++i) {
    std::vector<int64_t> sizes;
    for (size_t d = 0; d < vars_[i].size(); ++d)
      sizes.push_back(vars_[i][d] < 0 ? example_[i].sizes[d].hint() : run.values[static_cast<size_t>(vars_[i][d])]);
    out.push_back(std::move(sizes));
  }
  return out;
}

Result<ValueList> SamplePlan::realArgs(const SampleRun& run) const {
  ValueList args = args_;
  const auto sizes = inputSizes(run);
  for (size_t i = 0; i < slots_.size(); ++i) {
    RandomDraw draw{run.seed * 1000003 + i, 0};
    auto t = sampleTensor(sizes[i], example_[i].dtype, run.layouts[i], draw, run.zeros);
    FATHOM_TRY(t);
    Value& slot = slots_[i].item ? args[slots_[i].arg].as<ValueList>()[*slots_[i].item] : args[slots_[i].arg];
    slot = Value(std::move(*t));
  }
  return args;
}

std::string SamplePlan::describe(const SampleRun& run) const {
  std::string out;
  const auto sizes = inputSizes(run);
  for (size_t i = 0; i < sizes.size(); ++i)
    out += (i ? ", in" : "in") + std::to_string(i) + " " + intListText(sizes[i]) + " " +
           std::string(sampleLayoutName(run.layouts[i]));
  return out;
}

}  // namespace fathom::infer
