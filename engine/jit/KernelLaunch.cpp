#include "engine/jit/KernelLaunch.h"

#include <algorithm>

#include "engine/core/Parallel.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {
namespace {

constexpr int64_t kPooledBytes = 1 << 20;  // smaller buffers come from malloc's free lists anyway

// A kernel output with its recorded layout under the binding.
Result<Tensor> allocate(const Node& n, const SymbolBinding& binding, OutputPool* pool) {
  const TensorMeta* m = n.val.tryAs<TensorMeta>();
  if (!m) return internalError("%" + n.name + " has no recorded tensor");
  IntList sizes, strides;
  for (const auto& s : m->sizes) sizes.push_back(binding.eval(s).value_or(-1));
  for (const auto& s : m->strides) strides.push_back(binding.eval(s).value_or(-1));
  const bool bound = std::none_of(sizes.begin(), sizes.end(), [](int64_t v) { return v < 0; }) &&
                     std::none_of(strides.begin(), strides.end(), [](int64_t v) { return v < 0; });
  if (!bound) return invalidInput("%" + n.name + ": a recorded size or stride has no value here");
  if (pool) return pool->take(n.name, sizes, strides, m->dtype);
  return Tensor::emptyStrided(sizes, strides, m->dtype);
}

}  // namespace

Result<Tensor> OutputPool::take(const std::string& name, const IntList& sizes, const IntList& strides, DType dtype) {
  auto it = buffers_.find(name);
  if (it != buffers_.end()) {
    const Tensor& kept = it->second;
    // Only the pool holds it: the last run's caller is done with it.
    if (kept.storage().use_count() == 1 && kept.sizes() == sizes && kept.strides() == strides && kept.dtype() == dtype)
      return kept;
    kept_ -= static_cast<int64_t>(kept.storage()->nbytes());
    buffers_.erase(it);
  }
  auto fresh = Tensor::emptyStrided(sizes, strides, dtype);
  FATHOM_TRY(fresh);
  const auto bytes = static_cast<int64_t>(fresh->storage()->nbytes());
  if (bytes >= kPooledBytes && kept_ + bytes <= limit_) {
    buffers_.emplace(name, *fresh);
    kept_ += bytes;
  }
  return fresh;
}

Result<KernelArgs> kernelArgs(const LoweredKernel& k, const Graph& graph, const SymbolBinding& binding,
                              const ValueByName& valueOf, OutputPool* pool) {
  KernelArgs args;
  for (const SymInt& p : k.params) {
    auto v = binding.eval(p);
    if (!v) return invalidInput("kernel " + k.name + ": its size " + p.str() + " has no value here");
    args.params.push_back(*v);
  }
  for (const KernelBuffer& b : k.buffers) {
    if (b.output) {
      auto ref = graph.find(b.value);
      if (!ref) return internalError("kernel " + k.name + " names no node %" + b.value);
      auto out = allocate(graph.node(*ref), binding, pool);
      FATHOM_TRY(out);
      args.buffers.push_back(*out);
      args.outputs.emplace_back(b.value, std::move(*out));
      continue;
    }
    const Value* v = valueOf(b.value);
    const Tensor* t = v ? v->tryAs<Tensor>() : nullptr;
    if (!t || !t->defined()) return internalError("kernel " + k.name + ": %" + b.value + " has no tensor here");
    if (t->dtype() != dtypeOf(b.type))
      return invalidInput("kernel " + k.name + ": %" + b.value + " is " + std::string(dtypeName(t->dtype())) +
                          ", its meta says " + std::string(dtypeName(dtypeOf(b.type))));
    args.buffers.push_back(*t);
  }
  args.outer = outerExtent(k, args.params);
  return args;
}

Result<std::vector<std::pair<std::string, Tensor>>> launchKernel(const LoweredKernel& k, KernelFn fn, const Graph& graph,
                                                                  const SymbolBinding& binding, const ValueByName& valueOf,
                                                                  OutputPool* pool) {
  auto args = kernelArgs(k, graph, binding, valueOf, pool);
  FATHOM_TRY(args);
  std::vector<void*> data;
  for (Tensor& t : args->buffers) data.push_back(t.data());
  const std::vector<int64_t>& params = args->params;
  int64_t perRow = 1;  // points per step of the outer loop
  for (size_t d = args->outer == 1 && k.reduceDims == static_cast<int32_t>(k.loop.size()) ? 0 : 1; d < k.loop.size(); ++d)
    perRow *= k.loop[d].isConstant() ? k.loop[d].constant : params[static_cast<size_t>(k.loop[d].param)];
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, perRow));
  parallelFor(args->outer, grain, [&](int64_t b, int64_t e) { fn(data.data(), params.data(), b, e); });
  return std::move(args->outputs);
}

}  // namespace fathom
