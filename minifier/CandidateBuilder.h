// Turns a cut (Cut.h) into the candidate the oracle runs: the original graph's extractGraph over
// the cut's inputs and outputs, with its constants and merged inputs applied first and its inputs
// rebound to smaller symbolic sizes after. A call node cut into an input takes the real value the
// original computed there, so the original runs once, up front (computeRealValues).
//
// Invariant: build() never returns a candidate that the recorded guards reject (rebound sizes no
// compiled entry could get) or one with an input that has no real value; it returns nothing.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"
#include "minifier/Cut.h"
#include "minifier/Minify.h"

namespace fathom::sym {
class GuardSet;
}

namespace fathom::minify {

class CandidateBuilder {
 public:
  CandidateBuilder(const Graph& graph, const std::vector<ExampleInput>& inputs, const MinifyOptions& options);

  // The real value of every call node, as the example input it becomes when cut into one
  // (large ones spilled to disk). The original runs once, eagerly; a node it cannot run (the
  // failure itself may be an error) and everything after it have none.
  Status computeRealValues();

  // The candidate of a cut, or nothing when it cannot be built (an input without a real value,
  // sizes the guards reject).
  std::optional<Candidate> build(const Cut& cut) const;

  // Whether node `index` can become an input: it computed a real tensor value.
  bool hasRealValue(int32_t index) const { return static_cast<size_t>(index) < real_.size() && real_[static_cast<size_t>(index)]; }
  // The real value call node `index` takes as an input (null: none, or a placeholder, whose
  // example input a zygote has from the start) - what a task for the zygote carries.
  const ExampleInput* realValue(int32_t index) const;
  // In a zygote's worker, which has no real values of its own: the ones its task brought.
  void setRealValue(int32_t index, ExampleInput value);

  // The whole original graph as a cut: its placeholders in, its outputs out.
  Cut wholeGraph() const;

 private:
  Graph rewritten(const Cut& cut) const;
  bool resize(Candidate& c, const std::map<std::string, int64_t>& sizes) const;
  bool guardsAllow(const std::map<std::string, int64_t>& binding) const;

  const Graph& graph_;
  const MinifyOptions& options_;
  std::vector<ExampleInput> originalInputs_;
  std::shared_ptr<sym::GuardSet> originalGuards_;  // null: no symbols, or none the inputs bind
  mutable std::map<std::string, bool> guardAnswers_;  // by binding
  std::map<int32_t, ExampleInput> placeholderInputs_;
  std::vector<std::optional<ExampleInput>> real_;  // by node index
};

}  // namespace fathom::minify
