// The autograd tape's hook into op calls. callOp (OpCall.cpp) hands every op it ran, with its
// arguments as given, to the recorder installed here; engine/autograd installs its tape
// (autograd/Record.cpp) before main() runs. The hook keeps the layers one-way: autograd is
// written in frontend code (its derivative formulas call frontend ops), so the frontend never
// includes autograd - the same pattern as EagerRecorder.h, process-wide instead of per thread.
#pragma once

#include <source_location>
#include <string_view>
#include <vector>

#include "engine/frontend/OpCall.h"

namespace fathom::frontend {

class GradRecorder {
 public:
  virtual ~GradRecorder() = default;
  // After `op` ran: the recorder decides (grad mode, arguments that require grad) whether
  // `outputs` get autograd history.
  virtual void record(std::string_view op, const Args& args, const KwArgs& kwargs, std::vector<Tensor>& outputs,
                      const std::source_location& loc) = 0;
};

// Set once, at start-up; null only in a program without engine/autograd (then nothing records).
void setGradRecorder(GradRecorder* recorder);

}  // namespace fathom::frontend
