// In-place variants (InplaceOps.cpp): what the oracle fixtures cannot show - writing into an
// expanded tensor (the fixtures' harness cannot record it), that the result is self itself, and
// that every functional op listed got its in-place form with the functional op's defaults.
#include <gtest/gtest.h>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

TEST(InplaceOpsTest, WritingWhereElementsShareMemoryIsRefused) {
  const Tensor expanded = makeTensor(DType::Float32, {3, 4}, {1, 0});  // a [3, 1] column expanded
  const std::string msg = "unsupported operation: more than one element of the written-to tensor refers to a single memory location";
  expectOpError("aten.add_.Tensor", {expanded, makeTensor(DType::Float32, {3, 4})}, msg);
  expectOpError("aten.relu_.default", {expanded}, msg);
  expectOpError("aten.copy_.default", {expanded, makeTensor(DType::Float32, {4})}, msg);
  expectOpError("aten.zero_.default", {expanded}, msg);
  // A size-1 dimension with stride 0 writes each element once: allowed.
  Tensor row = makeTensor(DType::Float32, {1, 3}, {0, 1});
  EXPECT_EQ(valuesOf(runOp("aten.fill_.Scalar", {row, 2.0})), (std::vector<double>{2, 2, 2}));
}

TEST(InplaceOpsTest, TheResultIsSelfWithItsLayoutAndDtype) {
  Tensor x = makeTensor(DType::Int64, {2, 3}, {1, 2});  // transposed storage
  Tensor out = runOp("aten.add_.Tensor", {x, makeTensor(DType::Int32, {3}, {}, {10, 20, 30})}, {{"alpha", int64_t{2}}});
  EXPECT_TRUE(out.sharesStorageWith(x));
  EXPECT_EQ(out.strides(), (IntList{1, 2}));
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(valuesOf(x), (std::vector<double>{20, 41, 62, 23, 44, 65}));
}

TEST(InplaceOpsTest, EveryVariantKeepsTheFunctionalDefaults) {
  for (const auto* op : OpRegistry::global().all()) {
    const std::string& name = op->schema.name;
    if (name.size() < 2 || name.back() != '_' || op->schema.ns != "aten") continue;
    const OpDef* functional = OpRegistry::global().find("aten." + name.substr(0, name.size() - 1) + "." +
                                                        (op->schema.overload.empty() ? "default" : op->schema.overload));
    if (!functional) continue;  // copy_, fill_, zero_, bernoulli_: their own schemas
    ASSERT_EQ(functional->schema.args.size(), op->schema.args.size()) << op->name;
    EXPECT_TRUE(op->schema.args[0].isMutated()) << op->name;
    for (size_t i = 1; i < op->schema.args.size(); ++i)
      EXPECT_EQ(op->schema.args[i].defaultValue.has_value(), functional->schema.args[i].defaultValue.has_value()) << op->name;
  }
}

}  // namespace
}  // namespace fathom
