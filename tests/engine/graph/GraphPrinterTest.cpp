// Printed graphs: one line per node, values in PyTorch's notation; dot output is valid-looking.
#include "engine/graph/GraphPrinter.h"

#include <cmath>
#include <gtest/gtest.h>

#include "tests/engine/TestGraphs.h"

namespace fathom {
namespace {

TEST(GraphPrinterTest, OneLinePerNode) {
  Graph g = testing::tinyLinearGraph();
  EXPECT_EQ(printGraph(g),
            "%x : f32[4, 3] [3, 1] = placeholder\n"
            "%w : f32[2, 3] [3, 1] = placeholder\n"
            "%b : f32[2] [1] = placeholder\n"
            "%t : f32[3, 2] [1, 3] = aten.t.default(%w)\n"
            "%addmm : f32[4, 2] [2, 1] = aten.addmm.default(%b, %x, %t)\n"
            "%relu : f32[4, 2] [2, 1] = aten.relu.default(%addmm)\n"
            "return [%relu]\n");
}

TEST(GraphPrinterTest, FormatsConstants) {
  EXPECT_EQ(formatValue(Value(1.0)), "1.0");
  EXPECT_EQ(formatValue(Value(0.1)), "0.1");
  EXPECT_EQ(formatValue(Value(1e-05)), "1e-05");
  EXPECT_EQ(formatValue(Value(INFINITY)), "inf");
  EXPECT_EQ(formatValue(Value(int64_t{-3})), "-3");
  EXPECT_EQ(formatValue(Value(true)), "True");
  EXPECT_EQ(formatValue(Value(None{})), "None");
  EXPECT_EQ(formatValue(Value(DType::BFloat16)), "torch.bfloat16");
  EXPECT_EQ(formatValue(Value(MemoryFormat::ChannelsLast)), "torch.channels_last");
  EXPECT_EQ(formatValue(Value(ValueList{Value(int64_t{1}), Value("a")})), "[1, 'a']");
}

TEST(GraphPrinterTest, KeywordArguments) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2}));
  NodeRef y = b.call("aten.add.Tensor", {x, x}, {{"alpha", Value(int64_t{2})}});
  b.output({y});
  auto g = b.finish();
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(formatNode(*g, g->node(y)), "%add : f32[2] [1] = aten.add.Tensor(%x, %x, alpha=2)");
}

TEST(GraphPrinterTest, Dot) {
  std::string dot = graphToDot(testing::tinyLinearGraph(), "forward");
  EXPECT_TRUE(dot.starts_with("digraph \"forward\" {"));
  EXPECT_NE(dot.find("n4 [label=\"addmm\\naten.addmm.default\\nf32[4, 2] [2, 1]\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n3 -> n4;"), std::string::npos);
  EXPECT_TRUE(dot.ends_with("}\n"));
}

}  // namespace
}  // namespace fathom
