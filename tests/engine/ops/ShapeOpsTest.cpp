// reshape, split, flip, cat and stack: reshape views when computeStride allows and copies
// otherwise; split's pieces are views; flip reads backwards into a preserve_format layout; cat
// picks its output memory format from the inputs; and the meta functions keep symbolic sizes.
#include <memory>

#include "tests/engine/ops/OpTestUtil.h"
#include "tests/engine/HintSymbol.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

// reshape of a tensor computeStride can view is a view (same storage, offset kept); one it cannot
// is a contiguous copy.
TEST(ShapeOpsTest, ReshapeViewsWhenItCanAndCopiesOtherwise) {
  Tensor sliced = makeTensor(DType::Float32, {2, 6}, {8, 1}, {}, 3);
  Tensor v = runOp("aten.reshape.default", {sliced, ValueList{2, 2, 3}});
  EXPECT_TRUE(v.sharesStorageWith(sliced));
  EXPECT_EQ(v.strides(), (IntList{8, 3, 1}));
  EXPECT_EQ(v.storageOffset(), 3);
  Tensor xt = makeTensor(DType::Float32, {3, 4}, {1, 3});
  Tensor c = runOp("aten.reshape.default", {xt, ValueList{-1}});
  EXPECT_FALSE(c.sharesStorageWith(xt));
  EXPECT_EQ(c.strides(), (IntList{1}));
  EXPECT_EQ(valuesOf(c), valuesOf(xt));
}

// split(5, dim=1) of a [2, 12]: pieces of 5, 5 and 2 columns, all views at increasing offsets.
TEST(ShapeOpsTest, SplitReturnsViews) {
  Tensor x = makeTensor(DType::Float32, {2, 12});
  testing::OpOutcome r = testing::runBoth("aten.split.Tensor", {x, 5, 1});
  ASSERT_TRUE(r.kernel.ok()) << r.kernel.error().str();
  ASSERT_TRUE(r.meta.ok()) << r.meta.error().str();
  const ValueList& pieces = (*r.kernel)[0].as<ValueList>();
  const ValueList& metas = (*r.meta)[0].as<ValueList>();
  ASSERT_EQ(pieces.size(), 3u);
  ASSERT_EQ(metas.size(), 3u);
  const IntList widths = {5, 5, 2}, offsets = {0, 5, 10};
  for (size_t i = 0; i < 3; ++i) {
    const Tensor& p = pieces[i].as<Tensor>();
    EXPECT_TRUE(p.sharesStorageWith(x));
    EXPECT_EQ(p.sizes(), (IntList{2, widths[i]}));
    EXPECT_EQ(p.storageOffset(), offsets[i]);
    EXPECT_EQ(metas[i].as<TensorMeta>().str(), p.meta().str());
  }
  expectOpError("aten.split.Tensor", {x, 0},
                "split_size can only be 0 if dimension size is 0, but got dimension size of 2");
}

// flip of a transposed tensor keeps its (dense) strides and reverses the elements.
TEST(ShapeOpsTest, FlipKeepsTheLayoutAndReverses) {
  Tensor xt = makeTensor(DType::Float32, {3, 2}, {1, 3}, {1, 2, 3, 4, 5, 6});
  Tensor f = runOp("aten.flip.default", {xt, ValueList{0, -1}});
  EXPECT_EQ(f.strides(), (IntList{1, 3}));
  EXPECT_EQ(valuesOf(f), (std::vector<double>{6, 5, 4, 3, 2, 1}));
  Tensor g = runOp("aten.flip.default", {xt, ValueList{1}});
  EXPECT_EQ(valuesOf(g), (std::vector<double>{2, 1, 4, 3, 6, 5}));
  expectOpError("aten.flip.default", {xt, ValueList{0, -2}}, "dim 0 appears multiple times in the list of dims");
}

// cat: channels-last only when all inputs suggest it; a 1-d empty input is skipped for shapes but
// still votes contiguous; dtypes promote.
TEST(ShapeOpsTest, CatOutputLayout) {
  const IntList nhwc = {60, 1, 15, 3};
  Tensor cl = makeTensor(DType::Float32, {2, 3, 4, 5}, nhwc);
  Tensor nchw = makeTensor(DType::Float32, {2, 3, 4, 5});
  EXPECT_EQ(runOp("aten.cat.default", {ValueList{cl, cl}, 1}).strides(), (IntList{120, 1, 30, 6}));
  EXPECT_EQ(runOp("aten.cat.default", {ValueList{cl, nchw}, 1}).strides(), (IntList{120, 20, 5, 1}));
  Tensor empty = makeTensor(DType::Float64, {0});
  Tensor out = runOp("aten.cat.default", {ValueList{cl, empty}, 1});
  EXPECT_EQ(out.sizes(), (IntList{2, 3, 4, 5}));
  EXPECT_EQ(out.strides(), (IntList{60, 20, 5, 1}));
  EXPECT_EQ(out.dtype(), DType::Float64);
  EXPECT_EQ(valuesOf(out), valuesOf(cl));
  expectOpError("aten.cat.default", {Value(ValueList{nchw, makeTensor(DType::Float32, {2, 3, 4, 6})})},
                "Sizes of tensors must match except in dimension 0. Expected size 5 but got size 6 for tensor number 1 "
                "in the list.");
  expectOpError("aten.cat.default", {Value(ValueList{})}, "torch.cat(): expected a non-empty list of Tensors");
}

// stack before the last dim views cat's result; after it, it cats unsqueezed inputs.
TEST(ShapeOpsTest, StackValues) {
  Tensor a = makeTensor(DType::Float32, {2, 2}, {}, {1, 2, 3, 4});
  Tensor b = makeTensor(DType::Float32, {2, 2}, {}, {5, 6, 7, 8});
  Tensor s1 = runOp("aten.stack.default", {ValueList{a, b}, 1});
  EXPECT_EQ(s1.sizes(), (IntList{2, 2, 2}));
  EXPECT_EQ(valuesOf(s1), (std::vector<double>{1, 2, 5, 6, 3, 4, 7, 8}));
  Tensor s2 = runOp("aten.stack.default", {ValueList{a, b}, -1});
  EXPECT_EQ(valuesOf(s2), (std::vector<double>{1, 5, 2, 6, 3, 7, 4, 8}));
  expectOpError("aten.stack.default", {Value(ValueList{a, makeTensor(DType::Float32, {2, 3})})},
                "stack expects each tensor to be equal size, but got [2, 2] at entry 0 and [2, 3] at entry 1");
}

TensorMeta fake(SymIntList sizes) {
  TensorMeta m;
  m.strides = contiguousStrides(sizes);
  m.sizes = std::move(sizes);
  return m;
}

ValueList meta(const std::string& op, const ValueList& args, const Kwargs& kwargs = {}) {
  const OpDef& def = testing::opNamed(op);
  auto bound = bindArguments(def.schema, args, kwargs);
  EXPECT_TRUE(bound.ok());
  auto out = callMeta(def, *bound);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().str());
  return out.ok() ? *out : ValueList{};
}

// Meta functions keep symbols: reshape to [-1] gives a symbol for s0*4, cat along the symbolic dim adds it,
// stack's view strides follow, and arange(s0) has length s0.
TEST(ShapeOpsTest, MetaFunctionsKeepSymbolicSizes) {
  SymInt s0(testing::hintSymbol("s0", 3));
  const TensorMeta x = fake({s0, 4});
  const SymInt flat = meta("aten.reshape.default", {x, ValueList{-1}})[0].as<TensorMeta>().sizes[0];
  EXPECT_TRUE(flat.isSymbolic());
  EXPECT_EQ(flat.hint(), 12);
  const TensorMeta cat = meta("aten.cat.default", {Value(ValueList{x, fake({2, 4})})})[0].as<TensorMeta>();
  EXPECT_EQ(cat.sizes[0].str(), "(s0+2)");
  const TensorMeta stack = meta("aten.stack.default", {ValueList{x, x}, 1})[0].as<TensorMeta>();
  EXPECT_EQ(stack.str(), "f32[s0, 2, 4] [8, 4, 1]");
  const TensorMeta range = meta("aten.arange.default", {s0})[0].as<TensorMeta>();
  EXPECT_EQ(range.dtype, DType::Int64);
  EXPECT_EQ(range.sizes[0].hint(), 3);
  EXPECT_TRUE(range.sizes[0].isSymbolic());
}

// unbind's pieces are select() views (offsets step by the dim's stride); other dims may be
// symbolic, the unbound one must be a constant (the number of results), else a clear error.
TEST(ShapeOpsTest, UnbindViewsAndSymbolicSizes) {
  Tensor t = makeTensor(DType::Float32, {2, 3}, {1, 2});  // transposed
  auto r = testing::runBoth("aten.unbind.int", {t, -1});
  ASSERT_TRUE(r.kernel.ok() && r.meta.ok());
  const ValueList& pieces = (*r.kernel)[0].as<ValueList>();
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[2].as<Tensor>().storageOffset(), 4);
  EXPECT_EQ(pieces[2].as<Tensor>().strides(), (IntList{1}));
  EXPECT_EQ(pieces[2].as<Tensor>().dataAs<float>() - 4, t.dataAs<float>());  // the same storage
  SymInt s0(testing::hintSymbol("s0", 3));
  const ValueList sym = meta("aten.unbind.int", {fake({s0, 4}), 1})[0].as<ValueList>();
  ASSERT_EQ(sym.size(), 4u);
  EXPECT_EQ(sym[3].as<TensorMeta>().str(), "f32[s0] [4] +3");
  expectOpError("aten.unbind.int", {makeTensor(DType::Float32, {2, 3}), 2}, "Dimension out of range");
  auto refused = callMeta(testing::opNamed("aten.unbind.int"), {Value(fake({s0, 4})), Value(int64_t{0})});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("unbinds only a dimension of constant size"), std::string::npos);
}

}  // namespace
}  // namespace fathom
