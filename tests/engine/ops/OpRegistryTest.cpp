// The registry names ops as ATen does, suggests near names, and never lets an exception from a
// meta function or kernel escape.
#include "engine/ops/OpRegistry.h"

#include <gtest/gtest.h>

#include "engine/core/Error.h"

namespace fathom {
namespace {

TEST(OpRegistryTest, FindsBuiltinsByAtenName) {
  auto& r = OpRegistry::global();
  ASSERT_NE(r.find("getitem"), nullptr);
  ASSERT_NE(r.find("aten.add.Tensor"), nullptr);
  EXPECT_EQ(r.find("aten.add.Tensor")->schema.args.size(), 3u);
  EXPECT_EQ(r.find("aten.nonexistent.default"), nullptr);
}

TEST(OpRegistryTest, SuggestsNearNames) {
  auto near = OpRegistry::global().suggest("aten.ad.Tensor");
  ASSERT_FALSE(near.empty());
  EXPECT_EQ(near[0], "aten.add.Tensor");
  EXPECT_TRUE(OpRegistry::global().suggest("completely.unrelated.thing.xyz.abc").empty());
}

TEST(OpRegistryTest, DuplicateAndBadSchemasAreRefused) {
  OpRegistry r;
  EXPECT_TRUE(r.add("test::x(Tensor self) -> Tensor", {}, {}).ok());
  EXPECT_FALSE(r.add("test::x(Tensor self) -> Tensor", {}, {}).ok());
  EXPECT_FALSE(r.add("test::y(Tensor self -> Tensor", {}, {}).ok());
}

TEST(OpRegistryTest, CallWrappersTurnExceptionsIntoErrors) {
  OpRegistry r;
  ASSERT_TRUE(r.add("test::bad(Tensor self) -> Tensor",
                    [](const ValueList&) -> ValueList { FATHOM_CHECK(false, "bad shape ", 3); return {}; },
                    [](const ValueList&) -> ValueList { throw std::logic_error("oops"); })
                  .ok());
  const OpDef* op = r.find("test.bad.default");
  ASSERT_NE(op, nullptr);
  auto meta = callMeta(*op, {});
  ASSERT_FALSE(meta.ok());
  EXPECT_EQ(meta.error().code, ErrorCode::InvalidInput);
  EXPECT_EQ(meta.error().message, "bad shape 3");
  auto kernel = callKernel(*op, {});
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(kernel.error().code, ErrorCode::Internal);
}

TEST(OpRegistryTest, ReplaceMetaSwapsAndRestores) {
  auto& r = OpRegistry::global();
  OpFn old = r.replaceMeta("getitem", [](const ValueList&) -> ValueList { return {Value(int64_t{42})}; });
  ASSERT_TRUE(old);
  auto out = callMeta(*r.find("getitem"), {Value(ValueList{}), Value(int64_t{0})});
  r.replaceMeta("getitem", old);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].as<SymInt>().hint(), 42);
}

}  // namespace
}  // namespace fathom
