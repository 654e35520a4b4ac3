// JitBench's --profile helpers: an interpreter that times each op call (by op, split by whether
// the jit generates the node, and by node), and one generated kernel timed alone against the
// eager time of the nodes it covers, on the values a kept jit run made.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "engine/core/Parallel.h"
#include "engine/interp/Interpreter.h"
#include "engine/jit/CompiledGraph.h"

namespace fathom::jitbench {

using Clock = std::chrono::steady_clock;
inline double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Times each op call, by target (split by whether the jit generates the node) and by node.
struct OpTimes {
  std::map<std::string, std::array<double, 2>> byOp;  // target -> {left eager, generated} ms
  std::map<std::string, double> byNode;               // "forward:%name" -> ms
};

class OpTimer : public Interpreter {
 public:
  OpTimer(const Graph& g, std::string graph, std::set<std::string> generated, OpTimes* times)
      : Interpreter(g), graph_(std::move(graph)), generated_(std::move(generated)), times_(times) {}

 protected:
  Result<Value> callOp(const Node& node, const ValueList& args) override {
    const auto start = Clock::now();
    auto v = Interpreter::callOp(node, args);
    const double ms = msSince(start);
    times_->byOp[node.target][generated_.count(node.name) ? 1 : 0] += ms;
    times_->byNode[graph_ + ":" + node.name] += ms;
    return v;
  }

 private:
  std::string graph_;
  std::set<std::string> generated_;
  OpTimes* times_;
};

inline std::string k2s(const std::vector<KernelInt>& loop) {
  std::string out = "[";
  for (const auto& l : loop) out += (out.size() > 1 ? ", " : "") + (l.isConstant() ? std::to_string(l.constant) : "?");
  return out + "]";
}

inline std::set<std::string> generatedNodes(const CompiledGraph& cg) {
  std::set<std::string> out;
  for (const auto& k : cg.kernels())
    if (k.fn) out.insert(k.lowered->nodes.begin(), k.lowered->nodes.end());
  return out;
}

// One generated kernel run alone (as the runtime splits it) on the values a kept jit run made:
// its best of 3 in ms, or a negative number when a buffer is missing.
inline double timeKernelAlone(const CompiledGraph& cg, const LoweredKernel& k, KernelFn fn) {
  std::vector<Tensor> keep;
  std::vector<void*> data;
  for (const KernelBuffer& b : k.buffers) {
    const Tensor* t = cg.value(b.value).tryAs<Tensor>();
    if (!t || !t->defined()) return -1;
    keep.push_back(b.output ? Tensor::emptyStrided(t->sizes(), t->strides(), t->dtype()).value() : *t);
    data.push_back(keep.back().data());
  }
  if (!k.params.empty()) return -1;
  const int64_t outer = outerExtent(k, {});
  int64_t perRow = 1;
  for (size_t d = k.reduceDims == static_cast<int32_t>(k.loop.size()) ? 0 : 1; d < k.loop.size(); ++d) perRow *= k.loop[d].constant;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, perRow));
  double best = 1e30;
  for (int rep = 0; rep < 4; ++rep) {  // the first touches the output's pages
    const auto start = Clock::now();
    parallelFor(outer, grain, [&](int64_t b, int64_t e) { fn(data.data(), nullptr, b, e); });
    if (rep > 0) best = std::min(best, msSince(start));
  }
  return best;
}

// Each generated kernel of one graph of the step: alone vs the eager time of its nodes.
inline void profileKernels(const Graph& g, const char* name, const ValueList& inputs, const OpTimes& eager) {
  JitOptions o;
  o.keepIntermediates = true;
  auto cg = CompiledGraph::compile(g, o);
  if (!cg.ok() || !(*cg)->run(inputs).ok()) return;
  double jitTotal = 0, eagerTotal = 0;
  for (const auto& ck : (*cg)->kernels()) {
    if (!ck.fn) continue;
    const double jit = timeKernelAlone(**cg, *ck.lowered, ck.fn);
    double e = 0;
    for (const auto& n : ck.lowered->nodes) e += eager.byNode.count(std::string(name) + ":" + n) ? eager.byNode.at(std::string(name) + ":" + n) : 0;
    jitTotal += std::max(jit, 0.0);
    eagerTotal += e;
    std::printf("  %s %-16s %2zu nodes, loops %-22s jit %7.2f ms, its nodes eager %7.2f ms (%s)\n", name, ck.lowered->name.c_str(),
                ck.lowered->nodes.size(), k2s(ck.lowered->loop).c_str(), jit, e, ck.lowered->nodes.front().c_str());
  }
  std::printf("  %s generated kernels: jit %.1f ms alone (warm output pages), their nodes eager %.1f ms\n", name, jitTotal, eagerTotal);
}

}  // namespace fathom::jitbench
