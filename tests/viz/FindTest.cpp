// Find: queries by name, op (regex), module prefix, side, guards, saved across the cut; bad
// regexes are errors; the cursor wraps; the navigator follows inputs and users and goes back.
#include "viz/model/Find.h"

#include <gtest/gtest.h>

#include "engine/graph/PartitionInfo.h"
#include "tests/viz/VizTestDumps.h"

namespace fathom::viz {
namespace {

std::vector<std::string> names(const GraphModel& m, const std::vector<int32_t>& nodes) {
  std::vector<std::string> out;
  for (int32_t n : nodes) out.push_back(m.node(n).name);
  return out;
}

struct MlpAot {
  std::shared_ptr<const Dump> dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  GraphModel fwd = *GraphModel::build(*dump, "forward");
  GraphModel bwd = *GraphModel::build(*dump, "backward");
  GraphModel joint = *GraphModel::build(*dump, "joint");
};

// Op patterns match the full or the short name, in graph order.
TEST(VizFind, ByOpAndName) {
  MlpAot d;
  FindQuery q;
  q.op = "^addmm$";
  EXPECT_EQ(names(d.fwd, *findNodes(d.fwd, q)), (std::vector<std::string>{"addmm", "addmm_1"}));
  q.op = "aten\\.t\\.";
  EXPECT_EQ(names(d.fwd, *findNodes(d.fwd, q)), (std::vector<std::string>{"t", "t_1"}));
  q = {};
  q.name = "^layers\\.2\\.";
  EXPECT_EQ(names(d.fwd, *findNodes(d.fwd, q)), (std::vector<std::string>{"layers.2.weight", "layers.2.bias"}));
  q.name = "WEIGHT";
  EXPECT_TRUE(findNodes(d.fwd, q)->empty());
  q.ignoreCase = true;
  EXPECT_EQ(findNodes(d.fwd, q)->size(), 2u);
}

// Module prefixes match by components.
TEST(VizFind, ByModule) {
  EXPECT_TRUE(modulePathWithin("encoder.layer.3.attention", "encoder.layer.3"));
  EXPECT_TRUE(modulePathWithin("encoder.layer.3", "encoder.layer.3"));
  EXPECT_FALSE(modulePathWithin("encoder.layer.30", "encoder.layer.3"));
  EXPECT_FALSE(modulePathWithin("encoder", "encoder.layer"));
  MlpAot d;
  FindQuery q;
  q.module = "layers.0";
  EXPECT_EQ(names(d.fwd, *findNodes(d.fwd, q)), (std::vector<std::string>{"layers.0.weight", "layers.0.bias", "t", "addmm"}));
}

// Side, guards and saved-across-the-cut filters, alone and combined.
TEST(VizFind, BySideGuardAndSaved) {
  MlpAot d;
  FindQuery q;
  q.side = Side::Backward;
  q.op = "^mm$";
  EXPECT_EQ(findNodes(d.joint, q)->size(), 3u);
  q = {};
  q.hasGuard = true;
  EXPECT_EQ(names(d.fwd, *findNodes(d.fwd, q)), std::vector<std::string>{"addmm"});
  q = {};
  q.savedAcrossCut = true;
  EXPECT_EQ(findNodes(d.fwd, q)->size(), d.dump->partition->saved.size());
  EXPECT_EQ(findNodes(d.bwd, q)->size(), d.dump->partition->saved.size());
  EXPECT_EQ(findNodes(d.joint, q)->size(), d.dump->partition->saved.size());
  q.op = "addmm";
  EXPECT_EQ(names(d.fwd, *findNodes(d.fwd, q)), std::vector<std::string>{"addmm"});
  EXPECT_TRUE(FindQuery{}.empty());
  EXPECT_EQ(findNodes(d.fwd, FindQuery{})->size(), d.fwd.size());
}

// A bad regex is an error naming the field and the pattern.
TEST(VizFind, BadRegexIsAnError) {
  MlpAot d;
  FindQuery q;
  q.op = "add(";
  auto r = findNodes(d.fwd, q);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::InvalidInput);
  EXPECT_NE(r.error().message.find("bad op pattern 'add('"), std::string::npos);
}

// next/previous wrap around; seek finds from a node on.
TEST(VizFind, CursorWraps) {
  FindCursor c({3, 7, 9});
  EXPECT_EQ(c.current(), -1);
  EXPECT_EQ(c.next(), 3);
  EXPECT_EQ(c.next(), 7);
  EXPECT_EQ(c.next(), 9);
  EXPECT_EQ(c.next(), 3);
  EXPECT_EQ(c.previous(), 9);
  EXPECT_EQ(c.seek(8), 9);
  EXPECT_EQ(c.seek(10), 3);
  FindCursor none({});
  EXPECT_EQ(none.next(), -1);
  EXPECT_EQ(none.previous(), -1);
  FindCursor fresh({3, 7});
  EXPECT_EQ(fresh.previous(), 7);
}

// Follow an input, follow a user, back and forward through the history.
TEST(VizFind, NavigatorHistory) {
  MlpAot d;
  Navigator nav(d.fwd);
  EXPECT_FALSE(nav.back());
  EXPECT_FALSE(nav.followInput());
  ASSERT_TRUE(nav.go(d.fwd.find("addmm_1")));
  ASSERT_TRUE(nav.followInput(1));  // addmm_1(b2, relu, t_1): relu
  EXPECT_EQ(d.fwd.node(nav.current()).name, "relu");
  ASSERT_TRUE(nav.followInput(0));
  EXPECT_EQ(d.fwd.node(nav.current()).name, "addmm");
  ASSERT_TRUE(nav.followUser(0));
  EXPECT_EQ(d.fwd.node(nav.current()).name, "relu");
  EXPECT_FALSE(nav.followInput(5));
  ASSERT_TRUE(nav.back());
  EXPECT_EQ(d.fwd.node(nav.current()).name, "addmm");
  ASSERT_TRUE(nav.back());
  EXPECT_EQ(d.fwd.node(nav.current()).name, "relu");
  ASSERT_TRUE(nav.forward());
  EXPECT_EQ(d.fwd.node(nav.current()).name, "addmm");
  ASSERT_TRUE(nav.go(d.fwd.find("x")));
  EXPECT_FALSE(nav.canGoForward());
  EXPECT_FALSE(nav.go(-1));
}

}  // namespace
}  // namespace fathom::viz
