// Meta functions for ops that come without a trustworthy one - a plugin's custom ops
// (plugins/host): the first call's own arguments, at their hints, are the example.
//   inferredOnFirstCall(name)  the op has a kernel only: its rule is inferred (InferMeta.h) on
//                              the first call and applied from then on; a call whose constant
//                              arguments differ infers again (each rule kept)
//   checkedOnFirstCall(name, declared)  the op declared a meta: before its first use for some
//                              constant arguments it is checked against the kernel
//                              (MetaCheck.h); a disagreement is the call's error, naming the run
// Either way a failure is an OpError on the call (so tracing and loading report it on the node).
#pragma once

#include <string>

#include "engine/ops/OpRegistry.h"

namespace fathom::infer {

OpFn inferredOnFirstCall(std::string opName);
OpFn checkedOnFirstCall(std::string opName, OpFn declared);

}  // namespace fathom::infer
