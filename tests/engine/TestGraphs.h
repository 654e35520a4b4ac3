// Small graphs shared by the graph, dump, interpreter and diff tests.
#pragma once

#include <gtest/gtest.h>

#include "engine/core/Error.h"
#include "engine/graph/GraphBuilder.h"

namespace fathom::testing {

// relu(x @ w.t() + b): placeholders x [4, 3], w [2, 3], b [2].
inline Graph tinyLinearGraph() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  NodeRef w = b.input("w", fakeTensor(DType::Float32, {2, 3}));
  NodeRef bias = b.input("b", fakeTensor(DType::Float32, {2}));
  NodeRef y = [&] {
    auto scope = b.module("fc");
    return b.call("aten.addmm.default", {bias, x, b.call("aten.t.default", {w})});
  }();
  b.output({b.call("aten.relu.default", {y})});
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().str();
  return std::move(*g);
}

// A test-only op with two outputs (x + 1, x * 2), registered once in the global registry, so
// getitem and multi-output meta can be tested without depending on a particular ATen op.
inline const char* twoOutputsOp() {
  static const bool registered = [] {
    auto both = [](const ValueList& args, bool real) -> ValueList {
      if (!real) {
        const auto& m = args[0].as<TensorMeta>();
        return {Value(m), Value(m)};
      }
      const Tensor& x = args[0].as<Tensor>();
      auto a = x.contiguous(), b = x.contiguous();
      FATHOM_CHECK(a.ok() && b.ok(), "allocation failed");
      for (int64_t i = 0; i < x.numel(); ++i) {
        a->setLinear(i, x.atLinear(i) + 1);
        b->setLinear(i, x.atLinear(i) * 2);
      }
      return {Value(std::move(*a)), Value(std::move(*b))};
    };
    return OpRegistry::global()
        .add("test::two_outputs(Tensor self) -> (Tensor, Tensor)",
             [both](const ValueList& a) { return both(a, false); },
             [both](const ValueList& a) { return both(a, true); })
        .ok();
  }();
  EXPECT_TRUE(registered);
  return "test.two_outputs.default";
}

// The diff tests' pair maker: x -> relu -> mul(., factor) -> `lastOp`(., y) as "last", x and y
// f32[4, 8]; the relu's name, the mul's constant and the last op can be chosen.
inline Graph diffChain(const std::string& reluName = "relu", double factor = 2.0, const std::string& lastOp = "aten.add.Tensor") {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef y = b.input("y", fakeTensor(DType::Float32, {4, 8}));
  NodeRef r = b.call("aten.relu.default", {x}, {}, reluName);
  NodeRef m = b.call("aten.mul.Tensor", {r, factor}, {}, "mul");
  NodeRef s = b.call(lastOp, {m, y}, {}, "last");
  b.output({s});
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().str();
  return std::move(*g);
}

}  // namespace fathom::testing
