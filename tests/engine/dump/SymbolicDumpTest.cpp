// Dumps of symbolic traces: the shape_env section (symbols, replacements, guards with
// provenance, specializations) and symbolic sizes survive a write/read/write round trip byte for
// byte, and a bad shape_env is one clear error naming the JSON pointer.
#include <gtest/gtest.h>

#include "engine/dump/Dump.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {
namespace {

Dump symbolicDump() {
  auto env = sym::ShapeEnv::create();
  GraphBuilder b;
  b.setBeforeMeta([&](const Node& n) { env->setContext({"trace", n.name, n.target, n.provenance.source, n.provenance.module, {}}); });
  SymInt batch = env->createSize(8, "x.size(0)"), seq = env->createSize(128, "x.size(1)");
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {batch, seq, 64}));
  NodeRef m = b.input("mask", fakeTensor(DType::Float32, {env->createSize(8, "mask.size(0)"), 1, env->createSize(128, "mask.size(1)"), 1}));
  NodeRef flat = b.call("aten.view.default", {x, ValueList{Value(batch * seq), Value(64)}});
  NodeRef y = b.call("aten.add.Tensor", {b.call("aten.unsqueeze.default", {x, 1}), m});
  EXPECT_TRUE(symEq(seq, 128, "test: pin the sequence"));  // a constant specialization
  b.output({flat, y});
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().message;
  Dump d;
  d.producer = {{"tool", "test"}};
  d.shapeEnv = env;
  d.graphs.push_back({"forward", std::move(*g)});
  return d;
}

TEST(SymbolicDump, RoundTripKeepsShapeEnvAndSymbolicSizes) {
  const Dump d = symbolicDump();
  const std::string text = serializeDump(d);
  EXPECT_NE(text.find("\"shape_env\""), std::string::npos);
  EXPECT_NE(text.find("{\"sym\":\"128*s0\"}"), std::string::npos) << text;  // s1 -> 128 applied to the view size
  auto back = parseDump(text, "mem");
  ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
  ASSERT_TRUE(back->shapeEnv);
  EXPECT_EQ(back->shapeEnv->symbols().size(), 2u);
  EXPECT_EQ(back->shapeEnv->symbols()[0].sources, (std::vector<std::string>{"x.size(0)", "mask.size(0)"}));
  EXPECT_EQ(back->shapeEnv->guards().size(), d.shapeEnv->guards().size());
  for (size_t i = 0; i < d.shapeEnv->guards().size(); ++i) {  // each guard's raw form, as asked, survives
    ASSERT_TRUE(d.shapeEnv->guards()[i].raw && back->shapeEnv->guards()[i].raw);
    EXPECT_EQ(back->shapeEnv->guards()[i].raw->str(), d.shapeEnv->guards()[i].raw->str());
  }
  EXPECT_EQ(back->shapeEnv->specializations().size(), d.shapeEnv->specializations().size());
  EXPECT_EQ(serializeDump(*back), text);
  const auto* meta = back->graphs[0].graph.node(*back->graphs[0].graph.find("x")).val.tryAs<TensorMeta>();
  ASSERT_TRUE(meta);
  EXPECT_TRUE(meta->sizes[0].isSymbolic());
  EXPECT_EQ(meta->sizes[0].hint(), 8);
}

void expectError(const std::string& text, const std::string& pointer, const std::string& message) {
  auto d = parseDump(text, "bad.fathom.json");
  ASSERT_FALSE(d.ok()) << text;
  EXPECT_NE(d.error().where.find(pointer), std::string::npos) << d.error().where << ": " << d.error().message;
  EXPECT_NE(d.error().message.find(message), std::string::npos) << d.error().message;
}

std::string withEnv(const std::string& env, const std::string& sizes = "[\"s0\", 4]") {
  return R"json({"format": "fathom-dump", "version": 1, "shape_env": )json" + env +
         R"json(, "graphs": {"g": {"nodes": [{"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": )json" +
         sizes + R"json(}}}, {"name": "output", "kind": "output", "args": [[{"node": "x"}]]}]}}})json";
}

TEST(SymbolicDump, BadShapeEnvIsOneClearError) {
  const std::string sym0 = R"json({"symbols": [{"name": "s0", "hint": 8, "range": [2, null], "sources": ["x.size(0)"]}])json";
  ASSERT_TRUE(parseDump(withEnv(sym0 + "}"), "ok").ok());
  expectError(withEnv(sym0 + R"json(, "guards": [{"expr": "Eq(s7, 3)"}]})json"), "/shape_env/guards/0/expr", "names s7");
  expectError(withEnv(sym0 + R"json(, "guards": [{"expr": "Eq(s0, "}]})json"), "/shape_env/guards/0/expr", "bad expression");
  expectError(withEnv(sym0 + R"json(, "guards": [{"expr": "s0 + 1"}]})json"), "/shape_env/guards/0/expr", "expected a comparison");
  expectError(withEnv(sym0 + R"json(, "replacements": {"s3": "s0"}})json"), "/shape_env/replacements/s3", "does not declare");
  expectError(withEnv(R"json({"symbols": [{"name": "s1", "hint": 8}]})json"), "/shape_env/symbols/0/name", "must be named s0");
  expectError(withEnv(R"json({"symbols": [{"name": "s0", "hint": 1, "range": [2, null]}]})json"), "/shape_env/symbols/0/hint", "outside");
  expectError(withEnv(sym0 + "}", "[\"s0 // 0\", 4]"), "/graphs/g/nodes/0/meta/val/sizes/0", "division by zero");
  expectError(withEnv(sym0 + "}", "[\"s1\", 4]"), "/graphs/g/nodes/0/meta/val/sizes/0", "names s1");
  expectError(withEnv(sym0 + "}", "[\"s0**\", 4]"), "/graphs/g/nodes/0/meta/val/sizes/0", "bad expression");
  // A symbolic size in a dump without a shape_env.
  const std::string noEnv = R"json({"format": "fathom-dump", "version": 1, "graphs": {"g": {"nodes": [{"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": ["s0"]}}}, {"name": "output", "kind": "output", "args": [[{"node": "x"}]]}]}}})json";
  expectError(noEnv, "/graphs/g/nodes/0/meta/val/sizes/0", "no shape_env");
}

}  // namespace
}  // namespace fathom
