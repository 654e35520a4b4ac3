// The autograd tape, as PyTorch keeps it: every op on a tensor that requires grad creates a
// GradNode ("AddmmBackward0") holding what its derivative needs, with one Edge per
// differentiable input pointing at the node that produced that input (or, for a leaf, at its
// AccumulateGrad node). Tensors point at their node through AutogradMeta.
//
//   x (leaf) ──▶ AccumulateGrad ◀── MulBackward0 ◀── SumBackward0 ◀── loss.gradFn
//
// Nodes carry a sequence number from a per-thread counter, so a node created later has a higher
// one; the engine runs the ready node with the highest number first, as PyTorch does. Hooks
// live on the node: tensor pre-hooks per output (registered on a tensor), node pre-hooks and
// post-hooks, and retains_grad slots.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/frontend/AutogradMeta.h"
#include "engine/frontend/TensorHandle.h"

namespace fathom::autograd {

using frontend::Tensor;
using TensorList = std::vector<Tensor>;

class GradNode;

struct Edge {
  std::shared_ptr<GradNode> fn;
  uint32_t inputNr = 0;  // which of fn's gradient inputs this edge feeds
  bool valid() const { return fn != nullptr; }
};

// A node pre-hook sees the node's incoming gradients (one per forward output) and may replace them.
using PreHook = std::function<std::optional<TensorList>(const TensorList& gradOutputs)>;
// A node post-hook sees the gradients it produced (per input) and those it got; may replace the former.
using PostHook = std::function<std::optional<TensorList>(const TensorList& gradInputs, const TensorList& gradOutputs)>;

// The creation site of a node: the forward op call, for anomaly reports and for the provenance
// of the backward's graph nodes.
struct CreationSite {
  std::string op;      // "aten.addmm.default"
  std::string source;  // "samples/models/MlpModel.cpp:35"
  std::string module;  // "layers.0"
  std::source_location loc;
};

class GradNode : public std::enable_shared_from_this<GradNode> {
 public:
  explicit GradNode(std::string name);
  virtual ~GradNode() = default;
  GradNode(const GradNode&) = delete;
  GradNode& operator=(const GradNode&) = delete;

  const std::string& name() const { return name_; }
  uint64_t sequenceNr() const { return sequenceNr_; }
  const std::vector<Edge>& nextEdges() const { return next_; }
  std::vector<Edge>& mutableNextEdges() { return next_; }
  // Number of gradients it takes (one per forward output).
  size_t numOutputs() const { return outputMetas_.size(); }
  // The forward outputs' layouts (an undefined incoming gradient is zeros of this layout).
  std::vector<Tensor>& outputTemplates() { return outputMetas_; }

  CreationSite site;

  // Computes the gradient of each input from the gradient of each output. `needed[i]` says
  // whether input i's gradient is wanted (an edge the engine will not follow is skipped).
  virtual TensorList apply(const TensorList& gradOutputs, const std::vector<bool>& needed) = 0;
  // Frees saved values (backward without retain_graph). Calling apply() later is an error.
  virtual void releaseSaved() {}
  virtual bool isAccumulateGrad() const { return false; }

  // Hooks, in the order PyTorch runs them: tensor pre-hooks (per output, registration order),
  // then retains_grad, then node pre-hooks; apply(); then post-hooks.
  std::map<uint32_t, std::vector<TensorHook>> tensorPreHooks;
  std::map<uint32_t, std::weak_ptr<AutogradMeta>> retainsGrad;
  std::vector<PreHook> preHooks;
  std::vector<PostHook> postHooks;

 protected:
  void setSequenceNr(uint64_t n) { sequenceNr_ = n; }
  std::vector<Edge> next_;
  std::vector<Tensor> outputMetas_;

 private:
  std::string name_;
  uint64_t sequenceNr_;
};

// Where gradients for a leaf end: runs the leaf's hooks and adds the gradient into its .grad.
// Its sequence number is the largest possible, so a ready AccumulateGrad runs first.
class AccumulateGrad : public GradNode {
 public:
  explicit AccumulateGrad(std::shared_ptr<AutogradMeta> leaf, Tensor templ);
  TensorList apply(const TensorList& gradOutputs, const std::vector<bool>& needed) override;
  bool isAccumulateGrad() const override { return true; }
  const std::shared_ptr<AutogradMeta>& leaf() const { return leaf_; }

 private:
  std::shared_ptr<AutogradMeta> leaf_;
};

// The next sequence number (thread-local counter, as PyTorch's per-thread sequence_nr).
uint64_t nextSequenceNr();

}  // namespace fathom::autograd
