// KernelLowerer: the state of lowering one fused kernel (KernelLowering.h) - the loops, the buffers
// with the strides they trust, the values computed so far. Pointwise and reduction kernels are
// lowered in KernelLowering.cpp, row-local composites (several passes over each row) in
// RowLocalLowering.cpp. Internal to engine/compile.
#pragma once

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/compile/FusionPlan.h"
#include "engine/compile/FusionRules.h"
#include "engine/compile/KernelBuilder.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom::lowering {

inline bool isReduction(const std::string& t) {
  return t == "aten.sum.dim_IntList" || t == "aten.sum.default" || t == "aten.mean.dim" || t == "aten.amax.default" ||
         t == "aten.amin.default";
}

class KernelLowerer {
 public:
  KernelLowerer(const Graph& g, const FusedKernel& fk) : g_(g), fk_(fk) {}

  Result<LoweredKernel> run();

 private:
  SymInt symOf(const KernelInt& k) const;

  // Loops d and d + 1 (both outer or both reduced) become one where every buffer indexed by the
  // loops steps through them as through one dim (stride[d] = stride[d+1] * extent[d+1], or both
  // 0): contiguous kernels become one flat loop, whatever their rank - less code, longer vectors.
  // Buffers with their own shape use the linear index, which merging keeps.
  bool mergeable(size_t d) const;

  void collapseLoops();

  // The loops: the plan's iteration sizes, or for a reduction the kept dims of its input then the
  // reduced ones (perm_[j] is the input dim of loop j).
  Status setUpLoops();

  // ---- Row-local composites: passes over each row (RowLocalLowering.cpp) ----
  Status lowerRowLocal();
  Status rowLoops(const TensorMeta& x, const std::vector<int64_t>& dims, bool keepdim);
  Result<int32_t> rowLoad(NodeRef value);
  Status rowStore(const Node& n, int32_t value, bool perRow);
  const Node* rowOutput(int64_t index) const;
  Status softmax(const Node& n, const ValueList& args, bool log);
  Status softmaxBackward(const Node& n, const ValueList& args, bool log);
  Status layerNorm(const Node& n, const ValueList& args);
  int32_t newPhase(bool overRow);
  int32_t reduce(ReduceOp op, int32_t value);

  Status reducedDims(const Node& r, int64_t rank);

  static bool rowMajor(const SymIntList& sizes, const std::vector<SymInt>& strides);

  bool atLoopSizes(const SymIntList& s) const { return fk_.kind != KernelKind::Pointwise || sameSizes(s, loopSizes_); }

  // Strides of `layout` read at reader sizes `at` (right-aligned broadcasting), as loop strides
  // or - at sizes other than the loops' - as a buffer with its own shape.
  Result<int32_t> addBuffer(const std::string& value, const TensorMeta& layout, const SymIntList& at, bool output,
                            bool reducedResult = false);


  static std::string bufferKey(const KernelBuffer& b);

  // The value of `ref` inside the kernel for a reader at sizes `at`: an instruction computed
  // here, or a load of a value made outside.
  Result<int32_t> valueFor(NodeRef ref, const SymIntList& at);

  Status lowerNode(NodeRef ref);

  Status lowerReduction(const Node& n, NodeRef ref, ScalarKind kind);

  Status storeOutput(NodeRef ref);

  const Graph& g_;
  const FusedKernel& fk_;
  KernelBuilder b_;
  SymIntList loopSizes_, reducedInput_;
  std::vector<int64_t> perm_;
  std::vector<bool> reduced_;
  bool keepdim_ = false;
  std::unordered_map<int32_t, int32_t> values_;  // node index -> instruction
  std::unordered_map<std::string, int32_t> bufferIndex_;
  std::unordered_map<int32_t, int32_t> loads_;   // buffer -> its load
  KernelReduction reduction_;
  int32_t reductionNode_ = -1;
};

}  // namespace fathom::lowering
