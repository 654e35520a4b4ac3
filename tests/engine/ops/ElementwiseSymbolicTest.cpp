// Meta functions of the math, comparison, fill and ternary ops on symbolic sizes: results keep
// the symbol (not its hint), whatever extra rules the op has (where's condition, masked_fill's
// contiguous output, tril's fresh layout, pow/clamp's promoted self, hardtanh's empty_like,
// addcmul's three-way broadcast).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/ops/OpRegistry.h"
#include "tests/engine/HintSymbol.h"

namespace fathom {
namespace {

TensorMeta fake(DType dtype, SymIntList sizes) {
  TensorMeta m;
  m.dtype = dtype;
  m.strides = contiguousStrides(sizes);
  m.sizes = std::move(sizes);
  return m;
}

TensorMeta metaOf(const std::string& op, const ValueList& args, const Kwargs& kwargs = {}) {
  const OpDef* def = OpRegistry::global().find(op);
  EXPECT_NE(def, nullptr) << op;
  auto bound = bindArguments(def->schema, args, kwargs);
  EXPECT_TRUE(bound.ok()) << op;
  auto out = callMeta(*def, *bound);
  EXPECT_TRUE(out.ok()) << op << ": " << (out.ok() ? "" : out.error().message);
  return out.ok() ? (*out)[0].as<TensorMeta>() : TensorMeta{};
}

// Each op's result is [s0, 3] with s0 symbolic; dtypes follow the op's rule.
TEST(ElementwiseSymbolicTest, ResultsKeepTheSymbol) {
  const SymInt s0(testing::hintSymbol("s0", 5));
  const TensorMeta x = fake(DType::Float32, {s0, 3}), mask = fake(DType::Bool, {s0, 3});
  const TensorMeta ints = fake(DType::Int64, {s0, 3}), row = fake(DType::Float32, {3});
  struct Case {
    std::string op;
    ValueList args;
    DType dtype;
  };
  const Case cases[] = {
      {"aten.where.self", {mask, x, row}, DType::Float32},
      {"aten.eq.Tensor", {x, row}, DType::Bool},
      {"aten.lt.Scalar", {ints, 2.5}, DType::Bool},
      {"aten.logical_not.default", {x}, DType::Bool},
      {"aten.masked_fill.Scalar", {row, mask, 1.0}, DType::Float32},
      {"aten.tril.default", {x, int64_t{1}}, DType::Float32},
      {"aten.pow.Tensor_Scalar", {ints, 0.5}, DType::Float32},
      {"aten.clamp.default", {ints, 0.5, Value()}, DType::Float32},
      {"aten.hardtanh.default", {x, -1.0, 1.0}, DType::Float32},
      {"aten.fill.Scalar", {x, 2.0}, DType::Float32},
      {"aten.gelu_backward.default", {x, row}, DType::Float32},
      {"aten.clamp_min.default", {ints, 0.5}, DType::Float32},
      {"aten.addcmul.default", {row, ints, x}, DType::Float32},
      {"aten.addcdiv.default", {ints, x, row}, DType::Float32},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.op);
    const TensorMeta out = metaOf(c.op, c.args);
    ASSERT_EQ(out.sizes.size(), 2u);
    EXPECT_EQ(out.sizes[0].str(), "s0");
    EXPECT_EQ(out.dtype, c.dtype);
  }
}

}  // namespace
}  // namespace fathom
