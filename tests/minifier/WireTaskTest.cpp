// A query's bytes for the zygote (minifier/WireTask.h): everything a cut and its real values hold
// comes back equal; what cannot travel (symbolic sizes) is refused, and bytes cut short are not read.
#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "engine/symbolic/ShapeEnv.h"
#include "minifier/WireTask.h"

namespace fathom {
namespace {

minify::Cut aCut() {
  minify::Cut c;
  c.inputs = {0, 3, 7};
  c.outputs = {Value(NodeRef{9}), Value(), Value(ValueList{Value(NodeRef{8}), Value(int64_t{-2}), Value(2.5)}), Value(true),
               Value(std::string("text")), Value(DType::Int64)};
  c.sizes = {{"s0", 4}, {"s1", 2}};
  c.constants = {{{5, 1}, 0.0}, {{6, 2}, 1.0}};
  c.merged = {{7, 3}};
  return c;
}

ExampleInput inlineValue() {
  ExampleInput in;
  in.name = "mm_3";
  in.meta = fakeTensor(DType::Float32, {2, 3});
  in.meta.strides = {SymInt(1), SymInt(2)};
  in.meta.storageOffset = SymInt(1);
  in.data = {1.5, -2, 0, 1e300, -0.0, 7};
  in.range = std::pair(-1.0, 1.0);
  return in;
}

ExampleInput spilledValue() {
  ExampleInput in;
  in.name = "gelu";
  in.meta = fakeTensor(DType::BFloat16, {64, 768});
  in.file = DataFile{"/tmp/run/values.bin", "/tmp/run/values.bin", 123456};
  in.seed = 7;
  in.integer = 5;
  return in;
}

void expectSameInput(const ExampleInput& a, const ExampleInput& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.meta.str(), b.meta.str());
  EXPECT_EQ(a.meta.device, b.meta.device);
  EXPECT_EQ(a.data, b.data);
  EXPECT_EQ(a.file.name, b.file.name);
  EXPECT_EQ(a.file.path, b.file.path);
  EXPECT_EQ(a.file.offset, b.file.offset);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.range, b.range);
  EXPECT_EQ(a.integer, b.integer);
}

TEST(WireTask, ACutAndItsRealValuesComeBackEqual) {
  const minify::Cut cut = aCut();
  const ExampleInput three = inlineValue(), seven = spilledValue();
  auto bytes = minify::encodeWireTask(cut, [&](int32_t i) -> const ExampleInput* { return i == 3 ? &three : i == 7 ? &seven : nullptr; });
  ASSERT_TRUE(bytes);
  auto back = minify::decodeWireTask(*bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(minify::cutKey(back->cut), minify::cutKey(cut));
  EXPECT_EQ(back->cut.inputs, cut.inputs);
  EXPECT_EQ(back->cut.sizes, cut.sizes);
  EXPECT_EQ(back->cut.constants, cut.constants);
  EXPECT_EQ(back->cut.merged, cut.merged);
  ASSERT_EQ(back->cut.outputs.size(), cut.outputs.size());
  EXPECT_TRUE(back->cut.outputs[1].isNone());
  EXPECT_EQ(back->cut.outputs[2].as<ValueList>()[1].as<SymInt>().hint(), -2);
  EXPECT_EQ(back->cut.outputs[2].as<ValueList>()[2].as<double>(), 2.5);
  EXPECT_EQ(back->cut.outputs[3].as<bool>(), true);
  EXPECT_EQ(back->cut.outputs[4].as<std::string>(), "text");
  EXPECT_EQ(back->cut.outputs[5].as<DType>(), DType::Int64);
  ASSERT_EQ(back->values.size(), 2u);  // node 0 is a placeholder: the zygote has its input
  EXPECT_EQ(back->values[0].first, 3);
  expectSameInput(back->values[0].second, three);
  EXPECT_EQ(back->values[1].first, 7);
  expectSameInput(back->values[1].second, seven);
}

TEST(WireTask, BytesCutShortOrTrailingAreRefused) {
  const ExampleInput three = inlineValue();
  auto bytes = minify::encodeWireTask(aCut(), [&](int32_t i) { return i == 3 ? &three : nullptr; });
  ASSERT_TRUE(bytes);
  for (size_t keep : {size_t{0}, size_t{5}, bytes->size() / 2, bytes->size() - 1})
    EXPECT_FALSE(minify::decodeWireTask(std::string_view(*bytes).substr(0, keep))) << keep;
  EXPECT_FALSE(minify::decodeWireTask(*bytes + "x"));
}

TEST(WireTask, ASymbolicSizeDoesNotTravel) {
  auto env = sym::ShapeEnv::create();
  ExampleInput in = inlineValue();
  in.meta.sizes[0] = env->createSize(2, "test");
  auto bytes = minify::encodeWireTask(aCut(), [&](int32_t i) { return i == 3 ? &in : nullptr; });
  EXPECT_FALSE(bytes) << "the query forks the minifier instead";
}

}  // namespace
}  // namespace fathom
