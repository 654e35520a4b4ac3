// GuardJson: one encoder per fact, in two forms. The dump's form of a guard leaves "args" out when
// the op read none and writes a range as [low, null]; the report form (`fathom guards --json`)
// always writes "args" and a range as text, and adds the check a specialization amounts to. A
// dump's shape_env section writes exactly the Dump form, and the cache's failures and the late
// guards carry the provenance keys of the listing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/dump/Dump.h"
#include "engine/dump/GuardJson.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {
namespace {

sym::GuardContext where(std::vector<std::string> args) {
  return {"trace", "slice_1", "aten.slice.Tensor", "Bert.cpp:88", "embeddings", std::move(args)};
}

sym::Guard guard(std::vector<std::string> args) {
  auto rel = sym::parseRelation("s1 < 512");
  EXPECT_TRUE(rel.ok());
  return {*rel, where(std::move(args)), "slice end", 2, std::nullopt};
}

// The same guard in both forms: they differ in "args" only, and only when it is empty.
TEST(GuardJson, GuardFormsDifferOnlyInEmptyArgs) {
  const std::string tail = R"j("source":"Bert.cpp:88","module":"embeddings","reason":"slice end","count":2})j";
  const std::string head = R"j({"expr":"s1 < 512","stage":"trace","node":"slice_1","op":"aten.slice.Tensor",)j";
  EXPECT_EQ(guardJson(guard({}), GuardJsonForm::Dump).dump(), head + tail);
  EXPECT_EQ(guardJson(guard({}), GuardJsonForm::Report).dump(), head + R"j("args":[],)j" + tail);
  EXPECT_EQ(guardJson(guard({"x"}), GuardJsonForm::Dump).dump(), head + R"j("args":["x"],)j" + tail);
  EXPECT_EQ(guardJson(guard({"x"}), GuardJsonForm::Report).dump(), head + R"j("args":["x"],)j" + tail);
}

// A guard an analysis names: its position in the file first, no count.
TEST(GuardJson, GuardRefHasIndexAndNoCount) {
  sym::Guard g = guard({"x"});
  g.raw = *sym::parseRelation("s3 < 512");
  EXPECT_EQ(guardRefJson(g, 7).dump(),
            R"j({"index":7,"expr":"s1 < 512","raw":"s3 < 512","stage":"trace","node":"slice_1","op":"aten.slice.Tensor",)j"
            R"j("args":["x"],"source":"Bert.cpp:88","module":"embeddings","reason":"slice end"})j");
}

// The report form of a specialization says the check it amounts to; a range is text there.
TEST(GuardJson, SpecializationAndSymbolForms) {
  const sym::Specialization pinned{"s1", sym::Expr(128), "constant", "", where({}), "pinned"};
  const sym::Specialization zeroOne{"", sym::Expr(1), "zero-one", "x.size(0)", where({}), "hint 1"};
  EXPECT_FALSE(specializationJson(pinned, GuardJsonForm::Dump).contains("expr"));
  EXPECT_EQ(specializationJson(pinned, GuardJsonForm::Report)["expr"], "Eq(s1, 128)");
  EXPECT_EQ(specializationJson(zeroOne, GuardJsonForm::Report)["expr"], "x.size(0) == 1");
  EXPECT_EQ(specializationJson(zeroOne, GuardJsonForm::Dump)["input"], "x.size(0)");

  const sym::SymbolInfo s0{"s0", 8, {2, sym::ValueRange::kPosInf}, {"x.size(0)"}};
  EXPECT_EQ(symbolJson(s0, GuardJsonForm::Dump).dump(), R"j({"name":"s0","hint":8,"range":[2,null],"sources":["x.size(0)"]})j");
  EXPECT_EQ(symbolJson(s0, GuardJsonForm::Report).dump(), R"j({"name":"s0","hint":8,"range":"[2, inf]","sources":["x.size(0)"]})j");
}

// The dump's shape_env section is written by the same encoders, in the Dump form (one per line),
// and `fathom guards --json` by them in the Report form.
TEST(GuardJson, DumpAndListingUseTheSameEncoders) {
  auto env = sym::ShapeEnv::create();
  env->addSymbol({"s0", 8, {2, sym::ValueRange::kPosInf}, {"x.size(0)"}});
  env->addSymbol({"s1", 128, {2, sym::ValueRange::kPosInf}, {"x.size(1)"}});
  env->addGuard(guard({}));
  env->addGuard(guard({"x"}));
  GraphBuilder b;
  b.output({b.input("x", fakeTensor(DType::Float32, {8, 128}))});
  auto g = b.finish();
  ASSERT_TRUE(g.ok()) << g.error().message;
  Dump d;
  d.shapeEnv = env;
  d.graphs.push_back({"forward", std::move(*g)});
  const std::string text = serializeDump(d);
  for (const auto& guard : env->guards()) EXPECT_NE(text.find(guardJson(guard, GuardJsonForm::Dump).dump()), std::string::npos) << text;
  EXPECT_NE(text.find(symbolJson(env->symbols()[1], GuardJsonForm::Dump).dump()), std::string::npos) << text;

  const auto listing = guardListingJson(env.get(), "f.fathom.json");
  ASSERT_EQ(listing["guards"].size(), 2u);
  EXPECT_EQ(listing["guards"][0], guardJson(env->guards()[0], GuardJsonForm::Report));
  EXPECT_EQ(listing["symbols"][1], symbolJson(env->symbols()[1], GuardJsonForm::Report));
  EXPECT_EQ(guardListingJson(nullptr, "static.fathom.json").dump(),
            R"j({"file":"static.fathom.json","symbolic":false,"symbols":[],"guards":[],"specializations":[]})j");
}

// A failing check of the cache and a late guard carry the listing's provenance keys.
TEST(GuardJson, FailuresAndLateGuardsCarryTheProvenance) {
  const sym::GuardFailure f{"guard", "s1 < 512", "slice end", where({"x"}), "s1 = 600", ""};
  EXPECT_EQ(guardFailureJson(1, f).dump(),
            R"j({"entry":1,"kind":"guard","expr":"s1 < 512","actual":"s1 = 600","input":"","stage":"trace","node":"slice_1",)j"
            R"j("op":"aten.slice.Tensor","args":["x"],"source":"Bert.cpp:88","module":"embeddings","reason":"slice end"})j");
  EXPECT_EQ(guardProvenanceJson("s1 < 512", where({}), "slice end").dump(),
            R"j({"expr":"s1 < 512","stage":"trace","node":"slice_1","op":"aten.slice.Tensor","args":[],)j"
            R"j("source":"Bert.cpp:88","module":"embeddings","reason":"slice end"})j");
}

}  // namespace
}  // namespace fathom
