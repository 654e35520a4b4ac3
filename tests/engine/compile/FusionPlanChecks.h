// The invariants every fusion plan keeps (FusionPlan.h), as GoogleTest expectations: each call
// node in exactly one kernel, each kernel's nodes in graph order, and each kernel's inputs made
// by a placeholder or an earlier kernel (so the plan runs in its order).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "engine/compile/FusionPlan.h"

namespace fathom::testing {

inline void expectValidPlan(const Graph& g, const FusionPlan& plan) {
  std::vector<int> kernelOf(g.size(), -1);
  for (size_t k = 0; k < plan.kernels.size(); ++k) {
    const FusedKernel& kernel = plan.kernels[k];
    ASSERT_FALSE(kernel.nodes.empty()) << kernel.name;
    for (size_t i = 0; i < kernel.nodes.size(); ++i) {
      const NodeRef n = kernel.nodes[i];
      ASSERT_EQ(g.node(n).kind, NodeKind::Call) << kernel.name;
      EXPECT_EQ(kernelOf[n.index], -1) << "%" << g.node(n).name << " is in two kernels";
      kernelOf[n.index] = static_cast<int>(k);
      if (i > 0) EXPECT_LT(kernel.nodes[i - 1].index, n.index) << kernel.name << " out of graph order";
    }
    for (NodeRef in : kernel.inputs) {
      const bool placeholder = g.node(in).kind == NodeKind::Placeholder;
      EXPECT_TRUE(placeholder || (kernelOf[in.index] >= 0 && kernelOf[in.index] < static_cast<int>(k)))
          << kernel.name << " reads %" << g.node(in).name << " before it is made";
    }
  }
  for (size_t i = 0; i < g.size(); ++i)
    if (g.nodes()[i].kind == NodeKind::Call) EXPECT_GE(kernelOf[i], 0) << "%" << g.nodes()[i].name << " is in no kernel";
}

}  // namespace fathom::testing
