// clone, contiguous, _to_copy and the factories: memory_format semantics (preserve keeps dense
// strides, infers dense strides otherwise), dtypes, values, fresh storage, fill-value range
// checks and arange's dtype and length rules.
#include <cmath>

#include "tests/engine/HintSymbol.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

struct LikeCase {
  const char* what;
  IntList sizes, strides;
  Value memoryFormat;
  IntList outStrides;
};

// Each row: clone's output strides (and the same for empty_like / zeros_like / _to_copy).
TEST(FactoryOpsTest, PreserveFormatLayouts) {
  const LikeCase cases[] = {
      {"contiguous", {2, 3}, {}, Value(None{}), {3, 1}},
      // Dense but transposed: preserve keeps the strides exactly.
      {"transposed", {2, 3}, {1, 2}, Value(None{}), {1, 2}},
      {"transposed, contiguous_format", {2, 3}, {1, 2}, Value(MemoryFormat::Contiguous), {3, 1}},
      // (6,4).t() sliced every other column: not dense; dim 0 (stride 1) stays fastest.
      {"strided transposed slice", {4, 3}, {1, 8}, Value(None{}), {1, 4}},
      // Expanded (stride 0): zero strides do not move in the sort -> row-major dense.
      {"expanded", {3, 4}, {0, 1}, Value(None{}), {4, 1}},
      // Channels-last input stays channels-last; channels_last requested on NCHW too.
      {"channels last", {2, 3, 4, 5}, {60, 1, 15, 3}, Value(None{}), {60, 1, 15, 3}},
      {"to channels_last", {2, 3, 4, 5}, {}, Value(MemoryFormat::ChannelsLast), {60, 1, 15, 3}},
      // A sliced tensor with offset: dense strides, offset 0 in the copy.
      {"offset slice", {2, 3}, {6, 1}, Value(None{}), {3, 1}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    Tensor x = makeTensor(DType::Float32, c.sizes, c.strides);
    Tensor y = runOp("aten.clone.default", {x}, {{"memory_format", c.memoryFormat}});
    EXPECT_EQ(y.strides(), c.outStrides);
    EXPECT_EQ(y.storageOffset(), 0);
    EXPECT_FALSE(y.sharesStorageWith(x));
    EXPECT_EQ(valuesOf(y), valuesOf(x));
    for (const char* op : {"aten.empty_like.default", "aten.zeros_like.default", "aten.ones_like.default"})
      EXPECT_EQ(runOp(op, {x}, {{"memory_format", c.memoryFormat}}).strides(), c.outStrides) << op;
    EXPECT_EQ(runOp("aten._to_copy.default", {x}, {{"memory_format", c.memoryFormat}}).strides(), c.outStrides);
  }
}

// Copies of transposed inputs (parallel chunks of the outer dims, element-wise inner runs, a
// dtype conversion) keep every element in place.
TEST(FactoryOpsTest, TransposedCopiesKeepEveryElement) {
  Tensor xt = makeTensor(DType::Float32, {37, 45}, {1, 37});
  Tensor c = runOp("aten.clone.default", {xt}, {{"memory_format", MemoryFormat::Contiguous}});
  EXPECT_EQ(c.strides(), (IntList{45, 1}));
  EXPECT_EQ(valuesOf(c), valuesOf(xt));
  Tensor batch = makeTensor(DType::Float32, {3, 40, 33}, {1320, 1, 40});
  Tensor h = runOp("aten._to_copy.default", {batch},
                   {{"dtype", DType::Float64}, {"memory_format", MemoryFormat::Contiguous}});
  EXPECT_EQ(h.strides(), (IntList{1320, 33, 1}));
  EXPECT_EQ(valuesOf(h), valuesOf(batch));
}

// torch 2.x's prims.convert_element_type: _to_copy's values, and a's strides where a is dense
// (a transposed input stays transposed), as the prim's meta gives them.
TEST(FactoryOpsTest, PrimsConvertElementTypeKeepsDenseStrides) {
  Tensor xt = makeTensor(DType::Float32, {4, 3}, {1, 4}, {1.5, -2.25, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  Tensor d = runOp("prims.convert_element_type.default", {xt, DType::Float64});
  EXPECT_EQ(d.dtype(), DType::Float64);
  EXPECT_EQ(d.strides(), (IntList{1, 4}));
  EXPECT_EQ(valuesOf(d), valuesOf(xt));
  Tensor i = runOp("prims.convert_element_type.default", {xt, DType::Int64});
  EXPECT_EQ(valuesOf(i)[0], 1);
  EXPECT_EQ(valuesOf(i)[1], -2);  // truncated toward zero, as a cast does
}

// _to_copy converts values; *_like take a dtype; full infers its dtype from the fill value.
TEST(FactoryOpsTest, DtypesAndValues) {
  Tensor x = makeTensor(DType::Float32, {3}, {}, {1.7, -2.5, 0});
  Tensor i = runOp("aten._to_copy.default", {x}, {{"dtype", DType::Int32}});
  EXPECT_EQ(i.dtype(), DType::Int32);
  EXPECT_EQ(valuesOf(i), (std::vector<double>{1, -2, 0}));
  Tensor b = runOp("aten._to_copy.default", {x}, {{"dtype", DType::Bool}});
  EXPECT_EQ(valuesOf(b), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(valuesOf(runOp("aten.ones_like.default", {x}, {{"dtype", DType::Int64}})), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(valuesOf(runOp("aten.zeros_like.default", {x})), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(runOp("aten.full.default", {ValueList{2, 2}, 1.5}).dtype(), DType::Float32);
  EXPECT_EQ(runOp("aten.full.default", {ValueList{2}, int64_t{3}}).dtype(), DType::Int64);
  // A bool fill value gives int64 in PyTorch 1.13 (bools count as integers there).
  Tensor t = runOp("aten.full.default", {ValueList{2}, true});
  EXPECT_EQ(t.dtype(), DType::Int64);
  EXPECT_EQ(valuesOf(t), (std::vector<double>{1, 1}));
}

TEST(FactoryOpsTest, ErrorsAreReportedNotThrown) {
  expectOpError("aten.clone.default", {makeTensor(DType::Float32, {2, 3})},
                "required rank 4 tensor to use channels_last format", {{"memory_format", MemoryFormat::ChannelsLast}});
  expectOpError("aten.contiguous.default", {makeTensor(DType::Float32, {2, 3}, {1, 2})},
                "preserve memory format is unsupported by the contiguous operator",
                {{"memory_format", MemoryFormat::Preserve}});
  expectOpError("aten.zeros.default", {Value(ValueList{2, -3})},
                "Trying to create tensor with negative dimension -3: [2, -3]");
  expectOpError("aten.empty.memory_format", {Value(ValueList{2})}, "unsupported memory format Preserve",
                {{"memory_format", MemoryFormat::Preserve}});
  expectOpError("aten.empty_strided.default", {ValueList{2, 3}, ValueList{1}},
                "dimensionality of sizes (2) must match dimensionality of strides (1)");
}

// new_empty_strided: empty_strided with self's dtype unless one is given, the strides as asked
// (permuted, with holes, overlapping). PyTorch 1.13 and 2.14 alike:
// torch.ops.aten.new_empty_strided.default(torch.ones(2, 3, dtype=torch.float64), ...).
TEST(FactoryOpsTest, NewEmptyStrided) {
  const Tensor self = makeTensor(DType::Float64, {2, 3});
  struct Case {
    IntList sizes, strides;
    int64_t storageBytes;  // untyped_storage().nbytes()
  };
  const Case cases[] = {{{2, 3, 4}, {1, 8, 2}, 192}, {{2, 3, 4}, {24, 1, 6}, 360}, {{2, 3}, {0, 1}, 24}, {{}, {}, 8}};
  const auto ints = [](const IntList& v) {
    ValueList out;
    for (int64_t x : v) out.push_back(x);
    return out;
  };
  for (const auto& c : cases) {
    Tensor out = runOp("aten.new_empty_strided.default", {self, ints(c.sizes), ints(c.strides)});
    EXPECT_EQ(out.dtype(), DType::Float64);
    EXPECT_EQ(out.sizes(), c.sizes);
    EXPECT_EQ(out.strides(), c.strides);
    EXPECT_EQ(out.storageOffset(), 0);
    EXPECT_FALSE(out.sharesStorageWith(self));
    EXPECT_GE(static_cast<int64_t>(out.storage()->nbytes()), c.storageBytes);
  }
  Tensor i = runOp("aten.new_empty_strided.default", {self, ValueList{2, 3}, ValueList{3, 1}}, {{"dtype", DType::Int32}});
  EXPECT_EQ(i.dtype(), DType::Int32);
  EXPECT_EQ(runOp("aten.new_empty_strided.default", {self, ValueList{0, 3}, ValueList{3, 1}}).numel(), 0);
  EXPECT_EQ(runOp("aten.new_empty_strided.default", {self, ValueList{2, 3}, ValueList{3, 1}},
                  {{"device", Device{"meta"}}, {"layout", Layout::Strided}})
                .strides(),
            (IntList{3, 1}));
  expectOpError("aten.new_empty_strided.default", {self, ValueList{2, 3}, ValueList{1}},
                "dimensionality of sizes (2) must match dimensionality of strides (1)");
  expectOpError("aten.new_empty_strided.default", {self, ValueList{2, -3}, ValueList{3, 1}},
                "Trying to create tensor with negative dimension -3: [2, -3]");
  expectOpError("aten.new_empty_strided.default", {self, ValueList{2, 3}, ValueList{-3, 1}},
                "Storage size calculation overflowed with sizes=[2, 3] and strides=[-3, 1]");
  expectOpError("aten.empty_strided.default", {ValueList{2}, ValueList{-1}},
                "Storage size calculation overflowed with sizes=[2] and strides=[-1]");
}

// new_empty_strided over symbolic sizes and strides keeps the symbols.
TEST(FactoryOpsTest, NewEmptyStridedKeepsSymbols) {
  const SymInt s0(testing::hintSymbol("s0", 5));
  TensorMeta self;
  self.dtype = DType::BFloat16;
  self.sizes = {s0};
  self.strides = {SymInt(1)};
  const OpDef* op = OpRegistry::global().find("aten.new_empty_strided.default");
  ASSERT_NE(op, nullptr);
  auto bound = bindArguments(op->schema, {self, ValueList{s0, 3}, ValueList{SymInt(1), s0}}, {});
  ASSERT_TRUE(bound.ok()) << bound.error().str();
  auto out = callMeta(*op, *bound);
  ASSERT_TRUE(out.ok()) << out.error().str();
  const TensorMeta& m = (*out)[0].as<TensorMeta>();
  EXPECT_EQ(m.dtype, DType::BFloat16);
  EXPECT_EQ(m.sizes[0].str(), "s0");
  EXPECT_EQ(m.strides[1].str(), "s0");
}

// channels_last strides are c10's plain products: a size-0 dim zeroes the strides outside it
// (contiguous strides treat size 0 as 1 instead).
TEST(FactoryOpsTest, ChannelsLastOfEmptyTensors) {
  const Kwargs cl = {{"memory_format", MemoryFormat::ChannelsLast}};
  EXPECT_EQ(runOp("aten.empty.memory_format", {Value(ValueList{2, 0, 3, 4})}, cl).strides(), (IntList{0, 1, 0, 0}));
  EXPECT_EQ(runOp("aten.empty.memory_format", {Value(ValueList{2, 3, 0, 4})}, cl).strides(), (IntList{0, 1, 12, 3}));
  // An empty tensor is contiguous, but not channels-last contiguous unless its strides say so.
  Tensor x = makeTensor(DType::Float32, {2, 0, 3, 4});
  Tensor y = runOp("aten.contiguous.default", {x}, cl);
  EXPECT_FALSE(y.sharesStorageWith(x));
  EXPECT_EQ(y.strides(), (IntList{0, 1, 0, 0}));
  EXPECT_TRUE(runOp("aten.contiguous.default", {y}, cl).sharesStorageWith(y));
}

// contiguous() of a tensor already contiguous in the format is the tensor itself; otherwise a copy.
TEST(FactoryOpsTest, ContiguousReturnsSelfOrCopies) {
  Tensor x = makeTensor(DType::Float32, {2, 3}, {}, {}, 0);
  Tensor same = runOp("aten.contiguous.default", {x});
  EXPECT_TRUE(same.sharesStorageWith(x));
  Tensor xt = makeTensor(DType::Float32, {3, 2}, {1, 3});
  Tensor copy = runOp("aten.contiguous.default", {xt});
  EXPECT_FALSE(copy.sharesStorageWith(xt));
  EXPECT_EQ(copy.strides(), (IntList{2, 1}));
  EXPECT_EQ(valuesOf(copy), valuesOf(xt));
}

// fill_ converts the value with Scalar::to<T>()'s range check (in the kernel: a meta tensor is
// never filled); bool takes anything, unsigned types let negative ints wrap.
TEST(FactoryOpsTest, FullChecksTheFillValueFitsTheDtype) {
  const auto kernelError = [](const Value& fill, DType dtype) {
    testing::OpOutcome r = testing::runBoth("aten.full.default", {ValueList{2}, fill}, {{"dtype", dtype}});
    EXPECT_TRUE(r.meta.ok());
    return r.kernel.ok() ? std::string("ran") : r.kernel.error().message;
  };
  EXPECT_EQ(kernelError(300, DType::UInt8), "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(kernelError(1e6, DType::Float16), "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(kernelError(NAN, DType::Int32), "value cannot be converted to type int without overflow");
  EXPECT_EQ(valuesOf(runOp("aten.full.default", {ValueList{2}, -1}, {{"dtype", DType::UInt8}})),
            (std::vector<double>{255, 255}));
  EXPECT_EQ(valuesOf(runOp("aten.full.default", {ValueList{2}, 2.5}, {{"dtype", DType::Bool}})),
            (std::vector<double>{1, 1}));
  Tensor inf = runOp("aten.full.default", {ValueList{1}, INFINITY}, {{"dtype", DType::Float16}});
  EXPECT_TRUE(std::isinf(inf.atLinear(0)));
}

// arange: ints give int64, any float gives float32; the int64 length is computed in integers.
TEST(FactoryOpsTest, ArangeDtypeAndLength) {
  Tensor a = runOp("aten.arange.default", {int64_t{5}});
  EXPECT_EQ(a.dtype(), DType::Int64);
  EXPECT_EQ(valuesOf(a), (std::vector<double>{0, 1, 2, 3, 4}));
  Tensor b = runOp("aten.arange.start_step", {int64_t{10}, int64_t{0}, int64_t{-3}});
  EXPECT_EQ(valuesOf(b), (std::vector<double>{10, 7, 4, 1}));
  Tensor f = runOp("aten.arange.start_step", {0.0, 1.0, 0.25});
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(f), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  // With an int dtype the bounds are truncated for the checks but the length uses the doubles.
  EXPECT_EQ(runOp("aten.arange.start_step", {0.5, int64_t{5}, int64_t{1}}, {{"dtype", DType::Int32}}).numel(), 5);
  expectOpError("aten.arange.start_step", {int64_t{0}, int64_t{5}, int64_t{0}}, "step must be nonzero");
  expectOpError("aten.arange.start_step", {int64_t{0}, int64_t{5}, int64_t{-1}},
                "upper bound and larger bound inconsistent with step sign");
  expectOpError("aten.arange.start_step", {int64_t{0}, INFINITY, int64_t{1}}, "unsupported range: 0 -> inf");
}

}  // namespace
}  // namespace fathom
