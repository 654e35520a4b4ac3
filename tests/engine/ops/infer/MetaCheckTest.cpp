// A declared meta against its own kernel: the first disagreement at the sample sizes and layouts,
// worded "stride X claimed, Y real" (pytorch #182328's shape of bug); a correct meta agrees.
#include <gtest/gtest.h>

#include <functional>

#include "engine/graph/GraphBuilder.h"
#include "engine/ops/infer/MetaCheck.h"

namespace fathom::infer {
namespace {

ValueList padExample() {
  return {fakeTensor(DType::Float32, {4, 6}), Value(ValueList{Value(1), Value(2)}), Value(0.0)};
}

// `name`'s OpDef with a meta that changes its first output's meta after the real one ran.
OpDef withCorruptedMeta(std::string_view name, std::function<void(TensorMeta&)> corrupt) {
  OpDef op = *OpRegistry::global().find(name);
  op.meta = [real = op.meta, corrupt](const ValueList& args) {
    ValueList out = real(args);
    corrupt(out[0].as<TensorMeta>());
    return out;
  };
  return op;
}

TEST(MetaCheck, TheBuiltinPadMetaAgreesWithItsKernel) {
  auto r = checkDeclaredMeta(*OpRegistry::global().find("aten.constant_pad_nd.default"), padExample());
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(r->agrees()) << r->disagreement;
  EXPECT_EQ(r->runs, 8);
}

// A meta that rounds the row stride up to a multiple of 8 (an aligned allocation the kernel
// does not make): caught on the example itself, row stride 16 claimed where the kernel has 9.
TEST(MetaCheck, AWrongStrideInADeclaredMetaIsCaught) {
  OpDef op = withCorruptedMeta("aten.constant_pad_nd.default",
                                [](TensorMeta& m) { m.strides[0] = (m.sizes[1].hint() + 7) / 8 * 8; });
  auto r = checkDeclaredMeta(op, padExample());
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(r->disagreement,
            "aten.constant_pad_nd.default: on in0 [4, 6] contiguous: output 0 strides: [16, 1] claimed, [9, 1] real "
            "(dim 0: stride 16 claimed, 9 real)");
}

// A meta that ignores the input's layout (always contiguous) is right on contiguous inputs and
// caught on the first transposed run.
TEST(MetaCheck, AMetaThatIgnoresTheInputLayoutIsCaughtOnATransposedRun) {
  OpDef op = withCorruptedMeta("aten.relu.default", [](TensorMeta& m) { m.strides = contiguousStrides(m.sizes); });
  auto r = checkDeclaredMeta(op, {fakeTensor(DType::Float32, {4, 6})});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_NE(r->disagreement.find("transposed: output 0 strides: "), std::string::npos) << r->disagreement;
  EXPECT_EQ(r->runs, 3);  // the example and the contiguous fit run agree
}

}  // namespace
}  // namespace fathom::infer
