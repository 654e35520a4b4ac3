// Functionalization of a joint graph: every op that writes into one of its arguments becomes
// its functional form, which returns the new value instead; later readers of the argument read
// the new value. A written graph input (batch norm's running stats) is never dropped: its final
// value becomes a leading output of the joint graph (JointGraph::mutatedInputs), and the runtime
// copies it back into the input, as AOTAutograd's runtime wrapper does.
//
//   native_batch_norm(x, w, b, running_mean, running_var, training=True, ...)   writes 3 and 4
//     -> _native_batch_norm_legit_functional(...) -> (out, save_mean, save_invstd, new_mean, new_var)
//   add_.Tensor(self, other) (schema Tensor(a!) self)  -> add.Tensor(self, other)
//
// PyTorch 1.13's schema for native_batch_norm does not mark the running stats as written,
// which is how functionalization could drop their update; the table of such hidden writes is
// here. Writing into a view of a graph input is refused: the error names the node.
#pragma once

#include "engine/aot/JointGraph.h"

namespace fathom::aot {

Status functionalize(JointGraph& joint);

}  // namespace fathom::aot
