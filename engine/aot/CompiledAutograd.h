// Compiled autograd (capture at backward time): the first backward runs the eager engine while
// recording every op its derivative formulas run - and every tensor hook, as an opaque
// fathom.call_hook node - into a graph whose inputs are the tensors the tape saved and the
// incoming gradients. The graph is cached under the tape's structure (node kinds and edges in
// execution order); a later backward over a tape of the same structure runs the captured graph
// with the interpreter instead of the engine. When the structure or a saved tensor's sizes
// change, it captures again and records why.
//
//   CompiledAutograd ca;
//   for (step...) { loss = model(x); grads = ca.grad({loss}, params); }   // 1 capture, then replays
//
// Not captured: node pre/post hooks and retains_grad (the captured graph skips them; capture
// refuses a tape that has any, and runs the engine instead, saying so).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/autograd/GradNode.h"
#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom::aot {

using autograd::TensorList;

class CompiledAutograd {
 public:
  // grad(outputs, inputs, gradOutputs) as autograd::grad computes it (allowUnused; a missing
  // gradOutput is ones), through the cache. Errors name what could not be captured or replayed.
  Result<TensorList> grad(const TensorList& outputs, const TensorList& inputs, const TensorList& gradOutputs = {});

  struct Event {
    std::string kind;    // "capture", "replay", "eager" (not capturable)
    std::string reason;  // why a capture happened again, or why the engine ran
  };
  const std::vector<Event>& events() const { return events_; }
  size_t captures() const;
  size_t replays() const;
  // The graph captured last (null before the first capture).
  const Graph* lastGraph() const { return last_ ? &last_->graph : nullptr; }

  // Where a captured graph's input comes from on a tape: node `order` of the execution order and
  // its saved tensor `index` (savedTensorsOf), or incoming gradient `index` (order == -1).
  struct Source {
    int64_t order = -1;
    size_t index = 0;
  };
  struct HookSource {
    size_t order = 0;
    uint32_t nr = 0;
    size_t index = 0;
  };
  struct Entry {
    std::string key;
    Graph graph;
    std::vector<Source> sources;     // per placeholder
    std::vector<HookSource> hooks;   // per fathom.call_hook id
    size_t numNodes = 0;
  };

 private:
  Result<TensorList> capture(const TensorList& outputs, const TensorList& inputs, const TensorList& gradOutputs,
                             const std::string& key, std::string reason);

  std::map<std::string, std::shared_ptr<Entry>> cache_;
  std::shared_ptr<Entry> last_;
  std::vector<Event> events_;
};

// The structure key of the tape grad(outputs, inputs) would run.
std::string tapeKey(const std::vector<autograd::GradNode*>& order, const TensorList& inputs);

}  // namespace fathom::aot
