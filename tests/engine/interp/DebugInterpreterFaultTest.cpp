// Injected faults: a wrong meta function is installed while a graph is built (so the graph
// records a wrong fake value for one node), the real meta is put back, and the debug interpreter
// must name exactly that node as the only origin and the users that inherit the lie as inherited.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/ops/OpOverride.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {
namespace {

// Installs a meta that corrupts the real meta's result while it lives.
class FaultyMeta {
 public:
  FaultyMeta(std::string op, std::function<ValueList(ValueList)> corrupt)
      : override_(std::move(op), [corrupt](const ValueList& args, const OpFn& original) { return corrupt(original(args)); }) {}

 private:
  MetaOverride override_;
};

struct Outcome {
  std::set<std::string> origins, inherited;
  std::vector<Mismatch> all;
};

Outcome check(const Graph& g) {
  std::vector<ExampleInput> specs;
  for (NodeRef p : g.placeholders()) {
    ExampleInput in;
    in.name = g.node(p).name;
    in.meta = g.node(p).val.as<TensorMeta>();
    in.seed = 1 + specs.size();
    specs.push_back(in);
  }
  auto inputs = materializeInputs(specs);
  EXPECT_TRUE(inputs.ok());
  DebugInterpreter d(g);
  auto out = d.run(*inputs);
  EXPECT_TRUE(out.ok()) << out.error().message;
  Outcome o;
  o.all = d.mismatches();
  for (const auto& m : d.mismatches()) (m.origin ? o.origins : o.inherited).insert(m.node);
  return o;
}

Graph finished(GraphBuilder& b) {
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().message;
  return std::move(*g);
}

TensorMeta& tensorAt(ValueList& v, size_t i) { return v.at(i).as<TensorMeta>(); }

TEST(DebugInterpreterFaults, ElementwiseOnTransposedInputWithContiguousMeta) {
  Graph g;
  {
    FaultyMeta fault("aten.add.Tensor", [](ValueList out) {
      TensorMeta& m = tensorAt(out, 0);
      m = fakeTensor(m.dtype, m.sizes);  // forgets that TensorIterator follows the input's layout
      return out;
    });
    GraphBuilder b;
    NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
    NodeRef t = b.call("aten.t.default", {x});
    NodeRef add = b.call("aten.add.Tensor", {t, t});
    NodeRef relu = b.call("aten.relu.default", {add});
    b.output({relu});
    g = finished(b);
  }
  Outcome o = check(g);
  EXPECT_EQ(o.origins, (std::set<std::string>{"add"}));
  EXPECT_EQ(o.inherited, (std::set<std::string>{"relu"}));
  EXPECT_EQ(o.all.front().field, "strides");
  EXPECT_EQ(o.all.front().expected, "[4, 1]");
  EXPECT_EQ(o.all.front().actual, "[1, 3]");
}

TEST(DebugInterpreterFaults, LayerNormOnPermutedInputKeepingTheInputStrides) {
  Graph g;
  {
    FaultyMeta fault("aten.native_layer_norm.default", [](ValueList out) {
      TensorMeta& m = tensorAt(out, 0);
      std::swap(m.strides[1], m.strides[2]);  // claims the permuted layout survives
      return out;
    });
    GraphBuilder b;
    NodeRef x = b.input("x", fakeTensor(DType::Float32, {2, 3, 4}));
    NodeRef w = b.input("w", fakeTensor(DType::Float32, {3}));
    NodeRef bias = b.input("b", fakeTensor(DType::Float32, {3}));
    NodeRef p = b.call("aten.permute.default", {x, Value(ValueList{0, 2, 1})});
    NodeRef ln = b.call("aten.native_layer_norm.default", {p, Value(ValueList{3}), w, bias, 1e-5});
    NodeRef out = b.getitem(ln, 0);
    NodeRef t = b.call("aten.transpose.int", {out, 1, 2});
    b.output({t});
    g = finished(b);
  }
  Outcome o = check(g);
  EXPECT_EQ(o.origins, (std::set<std::string>{"native_layer_norm"}));
  EXPECT_EQ(o.inherited, (std::set<std::string>{"getitem", "transpose"}));
}

TEST(DebugInterpreterFaults, ViewOfASliceThatLosesItsStorageOffset) {
  Graph g;
  {
    FaultyMeta fault("aten.view.default", [](ValueList out) {
      tensorAt(out, 0).storageOffset = 0;
      return out;
    });
    GraphBuilder b;
    NodeRef x = b.input("x", fakeTensor(DType::Float32, {6, 4}));
    NodeRef s = b.call("aten.slice.Tensor", {x, 0, 2, 6});
    NodeRef v = b.call("aten.view.default", {s, Value(ValueList{16})});
    NodeRef u = b.call("aten.unsqueeze.default", {v, 0});
    NodeRef sum = b.call("aten.add.Tensor", {u, u});
    b.output({sum});
    g = finished(b);
  }
  Outcome o = check(g);
  EXPECT_EQ(o.origins, (std::set<std::string>{"view"}));
  EXPECT_EQ(o.inherited, (std::set<std::string>{"unsqueeze"}));  // the add is fresh storage: it matches
  EXPECT_EQ(o.all.front().field, "storage_offset");
  EXPECT_EQ(o.all.front().actual, "8");
}

// A symbolic trace whose input is a slice: its strides and offset are symbols ([s1, 1] at s2)
// that only the real input's strides and offset bind. The placeholder then matches, and the view
// that loses the offset is the origin (before, the symbols stayed unbound, printed as "?", and
// the placeholder itself was reported as the origin).
TEST(DebugInterpreterFaults, SymbolsOnlyAnInputsStridesAndOffsetBind) {
  auto env = sym::ShapeEnv::create();
  const SymInt stride = env->createSize(8, "x.stride(0)"), offset = env->createSize(8, "x.storage_offset()");
  TensorMeta slice = fakeTensor(DType::Float32, {4, 4});
  slice.strides = {stride, SymInt(1)};
  slice.storageOffset = offset;
  Graph g;
  {
    FaultyMeta fault("aten.view.default", [](ValueList out) {
      tensorAt(out, 0).storageOffset = 0;
      return out;
    });
    GraphBuilder b;
    NodeRef x = b.input("x", slice);
    NodeRef rows = b.call("aten.slice.Tensor", {x, 1, 0, 4});
    NodeRef v = b.call("aten.view.default", {b.call("aten.slice.Tensor", {rows, 0, 0, 1}), Value(ValueList{4})});
    b.output({b.call("aten.add.Tensor", {v, v})});
    g = finished(b);
  }
  ExampleInput in;  // the real input: rows of a [5, 8] tensor from row 1, four columns wide
  in.name = "x";
  in.meta = fakeTensor(DType::Float32, {4, 4});
  in.meta.strides = {SymInt(8), SymInt(1)};
  in.meta.storageOffset = SymInt(8);
  in.seed = 3;
  auto inputs = materializeInputs({in});
  ASSERT_TRUE(inputs.ok()) << inputs.error().str();
  ASSERT_EQ((*inputs)[0].as<Tensor>().storageOffset(), 8);
  DebugInterpreter d(g);
  ASSERT_TRUE(d.run(*inputs).ok());
  Outcome o;
  o.all = d.mismatches();
  for (const auto& m : d.mismatches()) (m.origin ? o.origins : o.inherited).insert(m.node);
  EXPECT_EQ(o.origins, (std::set<std::string>{"view"}));
  ASSERT_FALSE(o.all.empty());
  EXPECT_EQ(o.all.front().field, "storage_offset");
  EXPECT_EQ(o.all.front().actual, "8");
  EXPECT_EQ(o.all.front().expected.find('?'), std::string::npos) << o.all.front().expected;
}

TEST(DebugInterpreterFaults, ReductionThatDropsKeepdim) {
  Graph g;
  {
    FaultyMeta fault("aten.sum.dim_IntList", [](ValueList out) {
      TensorMeta& m = tensorAt(out, 0);
      m = fakeTensor(m.dtype, {m.sizes[0]});  // [4, 1] recorded as [4]
      return out;
    });
    GraphBuilder b;
    NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 4}));
    NodeRef s = b.call("aten.sum.dim_IntList", {x, Value(ValueList{1}), true});
    NodeRef m = b.call("aten.mul.Scalar", {s, 2.0});
    NodeRef a = b.call("aten.add.Tensor", {m, x});
    b.output({a});
    g = finished(b);
  }
  Outcome o = check(g);
  EXPECT_EQ(o.origins, (std::set<std::string>{"sum"}));
  EXPECT_EQ(o.inherited, (std::set<std::string>{"mul"}));
  EXPECT_EQ(o.all.front().field, "sizes");
}

TEST(DebugInterpreterFaults, AKernelThatReturnsAViewWhereAFreshTensorIsRecorded) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {3, 3}));
  NodeRef c = b.call("aten.clone.default", {x});
  b.output({c});
  Graph g = finished(b);
  Outcome o;
  {
    KernelOverride aliasing("aten.clone.default", [](const ValueList& a, const OpFn&) { return ValueList{a.at(0)}; });
    o = check(g);
  }
  ASSERT_EQ(o.all.size(), 1u);
  EXPECT_EQ(o.all[0].field, "alias");
  EXPECT_EQ(o.all[0].actual, "a view of %x");
}

TEST(DebugInterpreterFaults, StridesOfSizeOneDimsOnlyWithStrictStrides) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {3, 1}));
  NodeRef c = b.call("aten.clone.default", {x});
  b.output({c});
  Graph g = finished(b);
  g.mutableNodes()[1].val.as<TensorMeta>().strides[1] = 7;  // a size-1 dim's stride: insignificant
  EXPECT_TRUE(check(g).all.empty());
  auto inputs = materializeInputs({ExampleInput{"x", fakeTensor(DType::Float32, {3, 1}), 1, {}, {}, {}}});
  CheckOptions strictOptions;
  strictOptions.strictStrides = true;
  DebugInterpreter strict(g, strictOptions);
  ASSERT_TRUE(strict.run(*inputs).ok());
  ASSERT_EQ(strict.mismatches().size(), 1u);
  EXPECT_EQ(strict.mismatches()[0].field, "strides");
}

TEST(DebugInterpreterValues, NanIsReportedWithValueChecks) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2}));
  NodeRef l = b.call("aten.log.default", {x});
  b.output({l});
  Graph g = finished(b);
  auto inputs = materializeInputs({ExampleInput{"x", fakeTensor(DType::Float32, {2}), std::nullopt, {}, {-1.0, 2.0}, {}}});
  ASSERT_TRUE(inputs.ok());
  CheckOptions withValues;
  withValues.checkValues = true;
  DebugInterpreter d(g, withValues);
  ASSERT_TRUE(d.run(*inputs).ok());
  ASSERT_EQ(d.mismatches().size(), 1u);
  EXPECT_EQ(d.mismatches()[0].field, "values");
  EXPECT_EQ(d.mismatches()[0].actual, "nan at element 0");
}

}  // namespace
}  // namespace fathom
