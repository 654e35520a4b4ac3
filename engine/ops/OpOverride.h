// Scoped replacement of one op's meta function or kernel: how tests (and, later, plugins)
// inject a faulty meta or kernel on purpose - a wrong stride, a lost storage offset - so the
// debug interpreter must find it. The original is restored when the scope ends.
//
//   {
//     MetaOverride fault("aten.add.Tensor", [](const ValueList& args, const OpFn& original) {
//       ValueList out = original(args);
//       out[0].as<TensorMeta>().strides = ...;   // the lie
//       return out;
//     });
//     ... build or trace a graph: it records the wrong meta ...
//   }
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "engine/ops/OpRegistry.h"

namespace fathom {

// A replacement sees the arguments and the original function.
using OpOverrideFn = std::function<ValueList(const ValueList& args, const OpFn& original)>;

template <bool Kernel>
class ScopedOpOverride {
 public:
  ScopedOpOverride(std::string op, OpOverrideFn replacement) : op_(std::move(op)) {
    auto& r = OpRegistry::global();
    original_ = Kernel ? r.replaceKernel(op_, {}) : r.replaceMeta(op_, {});
    OpFn original = original_;
    OpFn fn = [original, replacement](const ValueList& args) { return replacement(args, original); };
    if (Kernel) r.replaceKernel(op_, std::move(fn));
    else r.replaceMeta(op_, std::move(fn));
  }
  ~ScopedOpOverride() {
    auto& r = OpRegistry::global();
    if (Kernel) r.replaceKernel(op_, original_);
    else r.replaceMeta(op_, original_);
  }
  ScopedOpOverride(const ScopedOpOverride&) = delete;
  ScopedOpOverride& operator=(const ScopedOpOverride&) = delete;

 private:
  std::string op_;
  OpFn original_;
};

using MetaOverride = ScopedOpOverride<false>;
using KernelOverride = ScopedOpOverride<true>;

}  // namespace fathom
