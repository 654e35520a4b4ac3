// The schema parser reads ATen's own schema syntax; binding checks arity, names and types.
#include "engine/ops/OpSchema.h"

#include <gtest/gtest.h>

namespace fathom {
namespace {

TEST(OpSchemaTest, ParsesAtenSchemas) {
  auto s = parseSchema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_EQ(s->qualifiedName(), "aten.add.Tensor");
  ASSERT_EQ(s->args.size(), 3u);
  EXPECT_TRUE(s->args[2].kwargOnly);
  EXPECT_EQ(s->args[2].defaultValue->as<SymInt>().hint(), 1);
  EXPECT_EQ(s->str(), "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha) -> Tensor");

  auto ln = parseSchema(
      "aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, "
      "float eps) -> (Tensor, Tensor, Tensor)");
  ASSERT_TRUE(ln.ok()) << ln.error().str();
  EXPECT_EQ(ln->qualifiedName(), "aten.native_layer_norm.default");
  EXPECT_EQ(ln->returns.size(), 3u);
  EXPECT_TRUE(ln->args[2].type.optional);
  EXPECT_TRUE(ln->args[1].type.isList);
}

TEST(OpSchemaTest, ParsesTypesAliasesAndDefaults) {
  auto s = parseSchema(
      "aten::foo.bar(Tensor(a!) self, int[2] k, int[1]? dim=None, Tensor?[] idx, float eps=1e-05, "
      "bool keepdim=False, str approximate='none', MemoryFormat? memory_format=contiguous_format, "
      "int reduction=Mean, int[] sizes=[1, 2]) -> Tensor(a!)");
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_TRUE(s->args[0].isMutated());
  EXPECT_EQ(s->args[1].type.fixedLength, 2);
  EXPECT_TRUE(s->args[2].type.optional);
  EXPECT_TRUE(s->args[2].defaultValue->isNone());
  EXPECT_TRUE(s->args[3].type.elementOptional);
  EXPECT_DOUBLE_EQ(s->args[4].defaultValue->as<double>(), 1e-5);
  EXPECT_FALSE(s->args[5].defaultValue->as<bool>());
  EXPECT_EQ(s->args[6].defaultValue->as<std::string>(), "none");
  EXPECT_EQ(s->args[7].defaultValue->as<MemoryFormat>(), MemoryFormat::Contiguous);
  EXPECT_EQ(s->args[8].defaultValue->as<SymInt>().hint(), 1);
  EXPECT_EQ(s->args[9].defaultValue->as<ValueList>().size(), 2u);
}

TEST(OpSchemaTest, BadSchemasAreErrors) {
  for (const char* text : {"aten::x(Tensor self", "aten::x(Banana b) -> Tensor", "aten::x(Tensor) -> Tensor",
                           "aten::x(Tensor self) Tensor", "aten::x(int a=) -> Tensor"}) {
    EXPECT_FALSE(parseSchema(text).ok()) << text;
  }
}

TEST(OpSchemaTest, BindFillsDefaultsAndChecksTypes) {
  auto s = parseSchema("aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
  ASSERT_TRUE(s.ok());
  auto bound = bindArguments(*s, {Value(NodeRef{0}), Value(ValueList{Value(int64_t{1})})}, {});
  ASSERT_TRUE(bound.ok()) << bound.error().str();
  ASSERT_EQ(bound->size(), 4u);
  EXPECT_FALSE((*bound)[2].as<bool>());
  EXPECT_TRUE((*bound)[3].isNone());

  auto kw = bindArguments(*s, {Value(NodeRef{0}), Value(int64_t{1})}, {{"dtype", Value(DType::Float64)}});
  ASSERT_TRUE(kw.ok()) << kw.error().str();
  EXPECT_EQ((*kw)[3].as<DType>(), DType::Float64);

  auto tooMany = bindArguments(*s, {Value(NodeRef{0}), Value(int64_t{1}), Value(true), Value(DType::Float32)}, {});
  ASSERT_FALSE(tooMany.ok());
  EXPECT_NE(tooMany.error().message.find("takes 3 positional arguments but 4 were given"), std::string::npos);

  auto unknownKw = bindArguments(*s, {Value(NodeRef{0}), Value(int64_t{1})}, {{"keepdims", Value(true)}});
  ASSERT_FALSE(unknownKw.ok());
  EXPECT_NE(unknownKw.error().message.find("unexpected keyword argument 'keepdims'"), std::string::npos);

  auto wrongType = bindArguments(*s, {Value(NodeRef{0}), Value("x")}, {});
  ASSERT_FALSE(wrongType.ok());
  EXPECT_NE(wrongType.error().message.find("argument 'dim'"), std::string::npos);

  auto missing = bindArguments(*s, {}, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("missing required argument 'self'"), std::string::npos);
}

}  // namespace
}  // namespace fathom
