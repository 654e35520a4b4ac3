// Helpers for op tests: build real tensors with chosen strides, run an op through the registry
// (binding, meta function and kernel), and check that meta and kernel agree on the layout.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/Tensor.h"

namespace fathom::testing {

// A tensor with the given sizes/strides/offset whose elements, in row-major logical order, are
// `values` (default 0, 1, 2, ...).
inline Tensor makeTensor(DType dtype, const IntList& sizes, IntList strides = {}, std::vector<double> values = {},
                         int64_t offset = 0) {
  if (strides.empty() && !sizes.empty()) strides = contiguousStrides(sizes);
  TensorMeta m;
  m.dtype = dtype;
  m.sizes.assign(sizes.begin(), sizes.end());
  m.strides.assign(strides.begin(), strides.end());
  m.storageOffset = offset;
  auto t = Tensor::fromMeta(m);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().str());
  if (!t.ok()) return {};
  for (int64_t i = 0; i < t->numel(); ++i)
    t->setLinear(i, values.empty() ? static_cast<double>(i) : values[static_cast<size_t>(i)]);
  return *t;
}

inline std::vector<double> valuesOf(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.atLinear(i));
  return out;
}

inline const OpDef& opNamed(const std::string& name) {
  const OpDef* op = OpRegistry::global().find(name);
  if (!op) throw std::runtime_error("op not registered: " + name);
  return *op;
}

struct OpOutcome {
  Result<ValueList> meta = Error{};
  Result<ValueList> kernel = Error{};
};

// Binds `args` and runs both the meta function (on the tensors' metadata) and the kernel.
inline OpOutcome runBoth(const std::string& name, const ValueList& args, const Kwargs& kwargs = {}) {
  const OpDef& op = opNamed(name);
  auto bound = bindArguments(op.schema, args, kwargs);
  if (!bound.ok()) return {bound.error(), bound.error()};
  OpOutcome r;
  try {
    r.meta = callMeta(op, metaArgs(*bound));
  } catch (const OpError& e) {  // metaArgs itself only throws on undefined tensors
    r.meta = invalidInput(e.what());
  }
  r.kernel = callKernel(op, *bound);
  return r;
}

// Runs the op, expects success, and checks that the meta function's TensorMeta has the
// kernel output's sizes, strides, storage offset and dtype. Returns the kernel's tensor.
inline Tensor runOp(const std::string& name, const ValueList& args, const Kwargs& kwargs = {}) {
  OpOutcome r = runBoth(name, args, kwargs);
  EXPECT_TRUE(r.meta.ok()) << name << " meta: " << (r.meta.ok() ? "" : r.meta.error().str());
  EXPECT_TRUE(r.kernel.ok()) << name << " kernel: " << (r.kernel.ok() ? "" : r.kernel.error().str());
  if (!r.meta.ok() || !r.kernel.ok()) return {};
  const TensorMeta& m = (*r.meta)[0].as<TensorMeta>();
  const Tensor& t = (*r.kernel)[0].as<Tensor>();
  EXPECT_EQ(m.str(), t.meta().str()) << name << ": meta and kernel disagree on the layout";
  return t;
}

// Runs the op and expects both meta function and kernel to fail with `message` (a prefix).
inline void expectOpError(const std::string& name, const ValueList& args, const std::string& message,
                          const Kwargs& kwargs = {}) {
  OpOutcome r = runBoth(name, args, kwargs);
  ASSERT_FALSE(r.meta.ok()) << name << ": meta function should fail";
  ASSERT_FALSE(r.kernel.ok()) << name << ": kernel should fail";
  EXPECT_EQ(r.meta.error().code, ErrorCode::InvalidInput);
  EXPECT_EQ(r.meta.error().message.substr(0, message.size()), message);
  EXPECT_EQ(r.kernel.error().message.substr(0, message.size()), message);
}

inline IntList stridesOf(const Tensor& t) { return t.strides(); }

}  // namespace fathom::testing
