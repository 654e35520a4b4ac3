// A listener for eager op calls: while one is set on this thread, every op the frontend runs
// eagerly is reported with its real arguments and results. Compiled autograd records the
// backward's ops this way (engine/aot/CompiledAutograd.h).
#pragma once

#include <string_view>
#include <vector>

#include "engine/frontend/TensorHandle.h"
#include "engine/ops/OpSchema.h"

namespace fathom::frontend {

class EagerRecorder {
 public:
  virtual ~EagerRecorder() = default;
  // `args`/`kwargs` as the kernel got them (real tensors, ints, constants).
  virtual void recordEager(std::string_view op, const ValueList& args, const Kwargs& kwargs,
                           const std::vector<Tensor>& outputs) = 0;
};

// Sets this thread's recorder (null: none); returns the previous one.
EagerRecorder* setEagerRecorder(EagerRecorder* recorder);

}  // namespace fathom::frontend
