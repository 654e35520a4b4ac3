// The interpreter runs graphs on real tensors, frees dead values, can be stepped, can be
// subclassed per node, and names the node when an op fails.
#include "engine/interp/Interpreter.h"

#include <gtest/gtest.h>

#include "engine/interp/ExampleInputs.h"
#include "tests/engine/TestGraphs.h"

namespace fathom {
namespace {

Tensor filled(const IntList& sizes, std::vector<double> values) {
  auto t = Tensor::empty(sizes, DType::Float32);
  EXPECT_TRUE(t.ok());
  for (size_t i = 0; i < values.size(); ++i) t->setLinear(static_cast<int64_t>(i), values[i]);
  return *t;
}

ValueList tinyInputs() {
  // x [4, 3], w [2, 3], b [2]
  return {filled({4, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}), filled({2, 3}, {1, 2, 3, -1, -1, -1}),
          filled({2}, {0.5, 0})};
}

TEST(InterpreterTest, RunsTheGraph) {
  Graph g = testing::tinyLinearGraph();
  Interpreter interp(g);
  auto out = interp.run(tinyInputs());
  ASSERT_TRUE(out.ok()) << out.error().str();
  ASSERT_EQ(out->size(), 1u);
  const Tensor& y = (*out)[0].as<Tensor>();
  EXPECT_EQ(y.sizes(), (IntList{4, 2}));
  // relu(x @ w.t() + b): rows of x pick columns of w.
  const double expected[4][2] = {{1.5, 0}, {2.5, 0}, {3.5, 0}, {6.5, 0}};
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 2; ++j) EXPECT_FLOAT_EQ(y.at({i, j}), expected[i][j]);
}

TEST(InterpreterTest, FreesDeadValuesUnlessAskedToKeepThem) {
  Graph g = testing::tinyLinearGraph();
  const NodeRef t = *g.find("t");
  Interpreter lean(g);
  ASSERT_TRUE(lean.run(tinyInputs()).ok());
  EXPECT_TRUE(lean.value(t).isNone());
  Interpreter keeping(g, {.keepIntermediates = true});
  ASSERT_TRUE(keeping.run(tinyInputs()).ok());
  ASSERT_TRUE(keeping.value(t).is<Tensor>());
  EXPECT_EQ(keeping.value(t).as<Tensor>().strides(), (IntList{1, 3}));
}

TEST(InterpreterTest, StepsOneNodeAtATime) {
  Graph g = testing::tinyLinearGraph();
  Interpreter interp(g, {.keepIntermediates = true});
  ASSERT_TRUE(interp.start(tinyInputs()).ok());
  size_t steps = 0;
  while (!interp.done()) {
    EXPECT_EQ(interp.cursor(), steps);
    ASSERT_TRUE(interp.step().ok());
    ++steps;
  }
  EXPECT_EQ(steps, g.size());
  EXPECT_FALSE(interp.step().ok());
  EXPECT_EQ(interp.outputs().size(), 1u);
}

TEST(InterpreterTest, ErrorsNameTheNode) {
  Graph g = testing::tinyLinearGraph();
  Interpreter interp(g);
  ValueList inputs = tinyInputs();
  inputs[1] = filled({2, 5}, std::vector<double>(10, 1.0));  // w with the wrong inner size
  auto out = interp.run(inputs);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().where, "%addmm");
  EXPECT_NE(out.error().message.find("mat1 and mat2 shapes cannot be multiplied (4x3 and 5x2)"), std::string::npos)
      << out.error().message;
  EXPECT_TRUE(out.error().message.ends_with("; while executing %addmm = aten.addmm.default(%b, %x, %t)"))
      << out.error().message;
}

TEST(InterpreterTest, WrongInputCount) {
  Graph g = testing::tinyLinearGraph();
  Interpreter interp(g);
  auto out = interp.run({});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message, "the graph takes 3 inputs but 0 were given");
}

// A subclass sees every node's value as it is produced: the hook the debug interpreter uses.
class RecordingInterpreter : public Interpreter {
 public:
  using Interpreter::Interpreter;
  std::vector<std::string> seen;

 protected:
  Result<Value> runNode(const Node& node) override {
    auto v = Interpreter::runNode(node);
    if (v.ok() && v->is<Tensor>()) seen.push_back(node.name + ":" + v->as<Tensor>().meta().str());
    return v;
  }
};

TEST(InterpreterTest, SubclassHooksSeeEveryNode) {
  Graph g = testing::tinyLinearGraph();
  RecordingInterpreter interp(g);
  ASSERT_TRUE(interp.run(tinyInputs()).ok());
  ASSERT_EQ(interp.seen.size(), 6u);
  EXPECT_EQ(interp.seen[3], "t:f32[3, 2] [1, 3]");
}

TEST(InterpreterTest, MultiOutputThroughGetitem) {
  const char* op = testing::twoOutputsOp();
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {3}));
  NodeRef pair = b.call(op, {x});
  b.output({b.getitem(pair, 0), b.getitem(pair, 1)});
  auto g = b.finish();
  ASSERT_TRUE(g.ok()) << g.error().str();
  Interpreter interp(*g);
  auto out = interp.run({filled({3}, {1, 2, 3})});
  ASSERT_TRUE(out.ok()) << out.error().str();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[0].as<Tensor>().atLinear(2), 4.0);
  EXPECT_EQ((*out)[1].as<Tensor>().atLinear(2), 6.0);
}

TEST(InterpreterTest, SeededInputsAreDeterministic) {
  Graph g = testing::tinyLinearGraph();
  auto spec = inputsFromPlaceholders(g, 3);
  ASSERT_TRUE(spec.ok());
  auto a = materializeInputs(*spec), b = materializeInputs(*spec), c = materializeInputs(*spec, 99);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  const Tensor& ta = (*a)[0].as<Tensor>();
  EXPECT_EQ(ta.atLinear(5), (*b)[0].as<Tensor>().atLinear(5));
  EXPECT_NE(ta.atLinear(5), (*c)[0].as<Tensor>().atLinear(5));
  EXPECT_NE(ta.atLinear(0), ta.atLinear(1));
}

}  // namespace
}  // namespace fathom
