// A test op that returns a contiguous copy of its one tensor argument, registered once under
// `schema` ("test::pairs(Tensor self) -> Tensor"): tests give it a derivative of their own, or
// none, to see what autograd and AOT do with it.
#pragma once

#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "engine/ops/OpRegistry.h"

namespace fathom::testing {

inline void registerIdentityTestOp(const char* schema) {
  auto same = [](const ValueList& a) {
    const auto& m = a.at(0).as<TensorMeta>();
    return ValueList{fakeTensor(m.dtype, m.sizes)};
  };
  auto copy = [](const ValueList& a) {
    auto c = a.at(0).as<fathom::Tensor>().contiguous();
    if (!c.ok()) throw OpError(c.error().message);
    return ValueList{*c};
  };
  ASSERT_TRUE(OpRegistry::global().add(schema, same, copy).ok()) << schema;
}

}  // namespace fathom::testing
