// What the minifier tests share: a built graph (a build error fails the test) and seeded
// example inputs for its placeholders.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"

namespace fathom::testing {

inline Graph finished(GraphBuilder& b) {
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().str());
  return g.ok() ? std::move(*g) : Graph{};
}

inline std::vector<ExampleInput> seeded(const Graph& g) {
  auto in = inputsFromPlaceholders(g, 1);
  EXPECT_TRUE(in.ok());
  return in.ok() ? *in : std::vector<ExampleInput>{};
}

}  // namespace fathom::testing
